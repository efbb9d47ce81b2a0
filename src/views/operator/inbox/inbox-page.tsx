import { Button, Callout, H1, HTMLTable, NonIdealState, Spinner, Tab, Tabs, Tag } from '@blueprintjs/core';
import {
  INBOX_KIND_LABELS,
  INBOX_KINDS,
  INBOX_STATUS_LABELS,
  type InboxKind,
  type InboxPage as InboxPageBody,
} from '../../../domain/schemas/operator-alliances';
import { formatDisplayDateTime } from '../../invoices/invoice-format';
import '../alliances/operator-lists.css';
import { PAGE_SIZE } from '../../../domain/schemas/invoices';
import { OperatorPager } from '../operator-pager';

export const INBOX_TITLE = 'Bandeja';
export const INBOX_FAILED = 'No pudimos cargar la bandeja.';
export const INBOX_EMPTY: Record<InboxKind, string> = {
  demo: 'No hay solicitudes de demo.',
  referral: 'No hay clientes referidos.',
  factoring: 'No hay solicitudes de alta en factoraje.',
  alliance: 'No hay solicitudes de alianza.',
  efos: 'Ningún proveedor con alianza está en la lista 69-B del SAT.',
  conflict: 'No ha llegado ninguna copia distinta de una factura que Flujo ya tiene.',
};

export interface InboxPageProps {
  kind: InboxKind;
  page: number;
  onChange: (next: { kind: InboxKind; page: number }) => void;
  list: { state: 'loading' | 'error' | 'ready'; data: InboxPageBody | undefined; onRetry: () => void };
}

/** /operacion/bandeja/: what providers and visitors sent, one tab per kind. */
export function InboxPage({ kind, page, onChange, list }: InboxPageProps) {
  return (
    <section className="flujo-operator-page" aria-labelledby="bandeja-titulo">
      <header className="flujo-operator-page__header">
        <H1 id="bandeja-titulo">{INBOX_TITLE}</H1>
      </header>
      <Tabs
        id="bandeja"
        className="flujo-inbox-tabs"
        selectedTabId={kind}
        onChange={(id) => {
          const next = INBOX_KINDS.find((candidate) => candidate === id);
          if (next) onChange({ kind: next, page: 1 });
        }}
        renderActiveTabPanelOnly
      >
        {INBOX_KINDS.map((id) => (
          <Tab
            key={id}
            id={id}
            title={INBOX_KIND_LABELS[id]}
            panel={<InboxList kind={id} page={page} list={list} onChange={onChange} />}
          />
        ))}
      </Tabs>
    </section>
  );
}

function InboxList({ kind, page, list, onChange }: Omit<InboxPageProps, 'kind'> & { kind: InboxKind }) {
  if (list.state === 'loading') return <Spinner aria-label="Cargando bandeja…" />;
  if (list.state === 'error' || !list.data) {
    return (
      <Callout intent="danger" role="alert">
        <p>{INBOX_FAILED}</p>
        <Button intent="primary" text="Reintentar" onClick={list.onRetry} />
      </Callout>
    );
  }
  const { data } = list;
  if (data.results.length === 0) return <NonIdealState title={INBOX_EMPTY[kind]} />;
  return (
    <>
      <HTMLTable striped className="flujo-operator-table" aria-label={INBOX_KIND_LABELS[kind]}>
        <thead>
          <tr>
            <th scope="col">Fecha</th>
            <th scope="col">De</th>
            <th scope="col">Empresa</th>
            <th scope="col">Asunto</th>
            <th scope="col">Correo</th>
            <th scope="col">Teléfono</th>
            <th scope="col">Estado</th>
          </tr>
        </thead>
        <tbody>
          {data.results.map((item) => (
            <tr key={item.id}>
              <td>
                <time dateTime={item.created_at}>{formatDisplayDateTime(item.created_at)}</time>
              </td>
              <td>{item.from_name}</td>
              <td>{item.from_company}</td>
              <td>{item.subject}</td>
              <td>
                {item.contact_email ? <a href={`mailto:${item.contact_email}`}>{item.contact_email}</a> : '—'}
              </td>
              <td>{item.contact_phone ?? '—'}</td>
              <td>
                {item.status === null ? (
                  '—'
                ) : (
                  <Tag
                    minimal
                    intent={item.status === 'allied' || item.status === 'enabled' ? 'success' : 'none'}
                  >
                    {INBOX_STATUS_LABELS[item.status] ?? item.status}
                  </Tag>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <OperatorPager
        label="Páginas de la bandeja"
        page={page}
        count={data.count}
        noun={['elemento', 'elementos']}
        pageSize={PAGE_SIZE}
        hasPrevious={page > 1}
        hasNext={page < Math.ceil(data.count / PAGE_SIZE)}
        onPage={(next) => onChange({ kind, page: next })}
      />
    </>
  );
}
