import {
  Button,
  Callout,
  FormGroup,
  H1,
  HTMLTable,
  InputGroup,
  NonIdealState,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { PAGE_SIZE } from '../../../domain/schemas/invoices';
import type {
  OperatorActionEntry,
  OperatorActionPage,
  OperatorAuditFilters,
} from '../../../domain/schemas/operator-audit';
import './operator-audit.css';
import { OperatorPager } from '../operator-pager';

const AT_FORMAT = new Intl.DateTimeFormat('es-MX', {
  timeZone: 'America/Mexico_City',
  dateStyle: 'short',
  timeStyle: 'medium',
});

type FilterFields = Required<Pick<OperatorAuditFilters, 'operator' | 'action' | 'from' | 'to'>>;

const fieldsOf = (filters: OperatorAuditFilters): FilterFields => ({
  operator: filters.operator ?? '',
  action: filters.action ?? '',
  from: filters.from ?? '',
  to: filters.to ?? '',
});

/** The parameters of a call, as one short line ('invoiceId: 12'). */
function paramsText(params: Record<string, unknown>): string {
  return Object.entries(params)
    .map(([key, value]) => `${key}: ${String(value)}`)
    .join(', ');
}

function statusIntent(status: number): 'success' | 'warning' | 'danger' {
  if (status < 400) return 'success';
  return status < 500 ? 'warning' : 'danger';
}

/**
 * /operacion/bitacora/: one row per call an operator made, newest first, filtered by operator, action and days
 * (the filters are the URL's; this page only edits them).
 */
export function OperatorAuditPage({
  filters,
  list,
  onFilters,
}: {
  filters: OperatorAuditFilters;
  /** The route's query of this page of the audit. */
  list: UseQueryResult<OperatorActionPage>;
  onFilters: (next: OperatorAuditFilters) => void;
}) {
  const page = filters.page ?? 1;
  const [fields, setFields] = useState<FilterFields>(() => fieldsOf(filters));
  useEffect(() => setFields(fieldsOf(filters)), [filters]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: OperatorAuditFilters = {};
    for (const key of ['operator', 'action', 'from', 'to'] as const) {
      const value = fields[key].trim();
      if (value) next[key] = value;
    }
    onFilters(next);
  };
  const field = (key: keyof FilterFields) => ({
    id: `bitacora-${key}`,
    value: fields[key],
    onChange: (event: { target: { value: string } }) => setFields({ ...fields, [key]: event.target.value }),
  });
  const serverErrors = (list.error as { status?: number; body?: Record<string, string[]> } | null)?.body;
  const badFilters = (list.error as { status?: number } | null)?.status === 400;

  return (
    <section aria-labelledby="bitacora-titulo" className="operator-audit">
      <H1 id="bitacora-titulo">Bitácora</H1>
      <p>
        Cada llamada de un operador a la mesa de operación: quién, qué, cuándo, con qué respuesta y por qué.
      </p>
      <form className="operator-audit__filters" aria-label="Filtros de la bitácora" onSubmit={submit}>
        <FormGroup label="Operador" labelFor="bitacora-operator">
          <InputGroup {...field('operator')} placeholder="usuario" />
        </FormGroup>
        <FormGroup label="Acción" labelFor="bitacora-action">
          <InputGroup {...field('action')} placeholder="por ejemplo, Aprobar" />
        </FormGroup>
        <FormGroup
          label="Desde"
          labelFor="bitacora-from"
          intent={badFilters && serverErrors?.from ? 'danger' : 'none'}
          helperText={badFilters ? serverErrors?.from?.[0] : undefined}
        >
          <InputGroup {...field('from')} type="date" />
        </FormGroup>
        <FormGroup
          label="Hasta"
          labelFor="bitacora-to"
          intent={badFilters && serverErrors?.to ? 'danger' : 'none'}
          helperText={badFilters ? serverErrors?.to?.[0] : undefined}
        >
          <InputGroup {...field('to')} type="date" />
        </FormGroup>
        <div className="operator-audit__buttons">
          <Button type="submit" intent="primary" text="Filtrar" />
          <Button text="Limpiar" onClick={() => onFilters({})} />
        </div>
      </form>

      {list.isPending && <Spinner aria-label="Cargando la bitácora" />}
      {list.isError && !badFilters && (
        <Callout intent="danger" role="alert" title="No pudimos cargar la bitácora">
          <p>Intenta de nuevo en unos momentos.</p>
          <Button text="Reintentar" onClick={() => void list.refetch()} />
        </Callout>
      )}
      {list.data && list.data.count === 0 && (
        <NonIdealState title="Sin acciones" description="No hay acciones de operadores con estos filtros." />
      )}
      {list.data && list.data.count > 0 && (
        <>
          <p aria-live="polite">{list.data.count === 1 ? '1 acción' : `${list.data.count} acciones`}</p>
          <HTMLTable striped compact className="operator-audit__table">
            <thead>
              <tr>
                <th scope="col">Fecha y hora</th>
                <th scope="col">Operador</th>
                <th scope="col">Acción</th>
                <th scope="col">Llamada</th>
                <th scope="col">Respuesta</th>
                <th scope="col">Motivo</th>
              </tr>
            </thead>
            <tbody>
              {list.data.results.map((entry: OperatorActionEntry) => (
                <tr key={entry.id}>
                  <td>{AT_FORMAT.format(new Date(entry.at))}</td>
                  <td>{entry.operator_username}</td>
                  <td>{entry.action}</td>
                  <td>
                    <code>
                      {entry.method} {entry.route}
                    </code>
                    {Object.keys(entry.params).length > 0 && (
                      <div className="operator-audit__params">{paramsText(entry.params)}</div>
                    )}
                  </td>
                  <td>
                    <Tag minimal intent={statusIntent(entry.status_code)}>
                      {entry.status_code}
                    </Tag>
                  </td>
                  <td>{entry.reason ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <OperatorPager
            label="Páginas de la bitácora"
            page={page}
            count={list.data.count}
            noun={['acción', 'acciones']}
            pageSize={PAGE_SIZE}
            hasPrevious={page > 1}
            hasNext={list.data.next !== null}
            onPage={(next) => onFilters({ ...filters, page: next })}
          />
        </>
      )}
    </section>
  );
}
