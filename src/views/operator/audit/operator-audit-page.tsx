import { Button, FormGroup, H1, InputGroup, Tag } from '@blueprintjs/core';
import { useForm } from 'react-hook-form';
import { displayDateTime } from '../../../domain/calendar-date';
import { PAGE_SIZE } from '../../../domain/schemas/invoices';
import {
  AUDIT_FILTER_KEYS,
  type AuditFilters,
  type OperatorActionEntry,
  type OperatorActionPage,
} from '../../../domain/schemas/operator-audit';
import './operator-audit.css';
import { type BackOfficeColumn, BackOfficeList, type RemoteData } from '../list/back-office-list';

type FilterFields = Required<AuditFilters>;

const fieldsOf = (filters: AuditFilters): FilterFields => ({
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

const AUDIT_COLUMNS: readonly BackOfficeColumn<OperatorActionEntry>[] = [
  {
    id: 'at',
    header: 'Fecha y hora',
    cell: (entry) => <time dateTime={entry.at}>{displayDateTime(entry.at)}</time>,
  },
  { id: 'operator', header: 'Operador', cell: (entry) => entry.operator_username },
  { id: 'action', header: 'Acción', cell: (entry) => entry.action },
  {
    id: 'call',
    header: 'Llamada',
    cell: (entry) => (
      <>
        <code>
          {entry.method} {entry.route}
        </code>
        {Object.keys(entry.params).length > 0 && (
          <div className="operator-audit__params">{paramsText(entry.params)}</div>
        )}
      </>
    ),
  },
  {
    id: 'status',
    header: 'Respuesta',
    cell: (entry) => (
      <Tag minimal intent={statusIntent(entry.status_code)}>
        {entry.status_code}
      </Tag>
    ),
  },
  { id: 'reason', header: 'Motivo', cell: (entry) => entry.reason ?? '—' },
];

export interface OperatorAuditPageProps {
  filters: AuditFilters;
  page: number;
  /** The route's query of this page of the audit. */
  list: RemoteData<OperatorActionPage>;
  /** The server's messages per filter when it refused them (a 400): shown at the dates, not as a failure. */
  refusedFilters: Record<string, string[]>;
  onFilters(next: AuditFilters): void;
  onPage(page: number): void;
}

/**
 * /operacion/bitacora/: one row per call an operator made, newest first, filtered by operator, action and days
 * (the filters are the URL's; this page only edits them).
 */
export function OperatorAuditPage({
  filters,
  page,
  list,
  refusedFilters,
  onFilters,
  onPage,
}: OperatorAuditPageProps) {
  // What the operator types, until 'Filtrar'; the URL's filters again whenever they change.
  const { register, handleSubmit } = useForm<FilterFields>({ values: fieldsOf(filters) });
  const submit = handleSubmit((fields) => {
    const next: AuditFilters = {};
    for (const key of AUDIT_FILTER_KEYS) {
      const value = fields[key].trim();
      if (value) next[key] = value;
    }
    onFilters(next);
  });
  const field = (key: keyof FilterFields) => {
    const { ref, ...registration } = register(key);
    return { id: `bitacora-${key}`, inputRef: ref, ...registration };
  };
  const badFilters = Object.keys(refusedFilters).length > 0;
  const count = list.data?.count ?? 0;

  return (
    <section aria-labelledby="bitacora-titulo" className="operator-audit">
      <H1 id="bitacora-titulo">Bitácora</H1>
      <p>
        Cada llamada de un operador a la mesa de operación: quién, qué, cuándo, con qué respuesta y por qué.
      </p>
      <form
        className="operator-audit__filters"
        aria-label="Filtros de la bitácora"
        noValidate
        onSubmit={submit}
      >
        <FormGroup label="Operador" labelFor="bitacora-operator">
          <InputGroup {...field('operator')} placeholder="usuario" />
        </FormGroup>
        <FormGroup label="Acción" labelFor="bitacora-action">
          <InputGroup {...field('action')} placeholder="por ejemplo, Aprobar" />
        </FormGroup>
        <FormGroup
          label="Desde"
          labelFor="bitacora-from"
          intent={refusedFilters.from ? 'danger' : 'none'}
          helperText={refusedFilters.from?.[0]}
        >
          <InputGroup {...field('from')} type="date" />
        </FormGroup>
        <FormGroup
          label="Hasta"
          labelFor="bitacora-to"
          intent={refusedFilters.to ? 'danger' : 'none'}
          helperText={refusedFilters.to?.[0]}
        >
          <InputGroup {...field('to')} type="date" />
        </FormGroup>
        <div className="operator-audit__buttons">
          <Button type="submit" intent="primary" text="Filtrar" />
          <Button text="Limpiar" onClick={() => onFilters({})} />
        </div>
      </form>

      {list.status === 'success' && count > 0 && (
        <p aria-live="polite">{count === 1 ? '1 acción' : `${count} acciones`}</p>
      )}
      {!badFilters && (
        <BackOfficeList
          label="Bitácora"
          className="operator-audit__table"
          // Seven columns, the call and its reason wide: cards below 1100 px, as the desk and the programmes.
          cardsBelow={1100}
          remote={list}
          columns={AUDIT_COLUMNS}
          rowKey={(entry) => entry.id}
          loading="Cargando la bitácora"
          failed="No pudimos cargar la bitácora"
          failedDetail="Intenta de nuevo en unos momentos."
          empty={{ title: 'Sin acciones', description: 'No hay acciones de operadores con estos filtros.' }}
          paging={{
            label: 'Páginas de la bitácora',
            page,
            pageSize: PAGE_SIZE,
            noun: ['acción', 'acciones'],
            onPage,
          }}
        />
      )}
    </section>
  );
}
