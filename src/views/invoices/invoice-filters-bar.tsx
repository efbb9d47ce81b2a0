import { Button, Checkbox, FormGroup, HTMLSelect, InputGroup, Popover } from '@blueprintjs/core';
import { CaretDown, Search } from '@blueprintjs/icons';
import { useEffect, useRef, useState } from 'react';
import {
  isInvoiceStatusFilter,
  PROVIDER_STATUS_FILTER_OPTIONS,
  type StatusFilterOption,
} from '../../domain/invoice-status';
import { PERIOD_CODES, PERIOD_OPTIONS } from '../../domain/period';
import {
  type InvoiceListFilters,
  isPeriodChecked,
  MAX_SEARCH_LENGTH,
  SEARCH_DEBOUNCE_MS,
  togglePeriod,
} from './invoice-filters';

export const SEARCH_PLACEHOLDER = 'Folio, RFC, cliente o palabra';

export interface InvoiceFiltersBarProps {
  filters: InvoiceListFilters;
  /** Called with the whole new filter set; the search text only after 500 ms without typing. */
  onChange: (filters: InvoiceListFilters) => void;
  /** Status options; the provider's by default, null hides the status filter. */
  statusOptions?: readonly StatusFilterOption[] | null;
  /** Extra controls at the end of the bar (for example 'Seleccionar todos', 'Descargar seleccionados'). */
  children?: React.ReactNode;
}

function periodSummary(filters: InvoiceListFilters): string {
  if (filters.periods.length === 0) return 'Todos los meses';
  if (filters.periods.length === 1)
    return PERIOD_OPTIONS.find((option) => option.value === filters.periods[0])?.label ?? '';
  return `${filters.periods.length} de ${PERIOD_CODES.length} meses`;
}

/** Search box (debounced 500 ms), period-of-issue multi-select (all months by default) and status filter (spec §2). */
export function InvoiceFiltersBar({
  filters,
  onChange,
  statusOptions = PROVIDER_STATUS_FILTER_OPTIONS,
  children,
}: InvoiceFiltersBarProps) {
  const [text, setText] = useState(filters.search);
  // The latest filters, so the debounced search does not undo a period or status change made meanwhile.
  const latest = useRef(filters);
  latest.current = filters;

  // A search changed from outside (Back, a link) replaces what the box shows.
  useEffect(() => setText(filters.search), [filters.search]);

  useEffect(() => {
    const trimmed = text.trim();
    if (trimmed === latest.current.search) return;
    const timer = setTimeout(() => onChange({ ...latest.current, search: trimmed }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, onChange]);

  return (
    <div className="flujo-invoice-filters">
      <InputGroup
        type="search"
        aria-label="Buscar facturas"
        placeholder={SEARCH_PLACEHOLDER}
        leftIcon={<Search />}
        maxLength={MAX_SEARCH_LENGTH}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <Popover
        placement="bottom-start"
        content={
          <fieldset className="flujo-invoice-periods">
            <legend>Periodo de emisión</legend>
            {PERIOD_OPTIONS.map((option) => (
              <Checkbox
                key={option.value}
                label={option.label}
                checked={isPeriodChecked(filters.periods, option.value)}
                onChange={() =>
                  onChange({ ...filters, periods: togglePeriod(filters.periods, option.value) })
                }
              />
            ))}
          </fieldset>
        }
      >
        <Button
          aria-label={`Periodo de emisión: ${periodSummary(filters)}`}
          endIcon={<CaretDown />}
          text={periodSummary(filters)}
        />
      </Popover>
      {statusOptions && (
        <FormGroup inline label="Estatus" labelFor="filtro-estatus" className="flujo-invoice-status-filter">
          <HTMLSelect
            id="filtro-estatus"
            value={filters.status}
            onChange={(event) => {
              const status = Number(event.target.value);
              if (isInvoiceStatusFilter(status)) onChange({ ...filters, status });
            }}
            options={statusOptions.map((option) => ({ value: option.value, label: option.label }))}
          />
        </FormGroup>
      )}
      {children}
    </div>
  );
}
