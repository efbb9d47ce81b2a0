import { H1, Tab, Tabs, Tag } from '@blueprintjs/core';
import { displayDateTime } from '../../../domain/calendar-date';
import { PAGE_SIZE } from '../../../domain/schemas/invoices';
import {
  INBOX_KIND_LABELS,
  INBOX_KINDS,
  INBOX_STATUS_LABELS,
  type InboxKind,
  type InboxPage as InboxPageBody,
} from '../../../domain/schemas/operator-alliances';
import {
  type BackOfficeColumn,
  BackOfficeList,
  type RemoteData,
  TruncatedCell,
} from '../list/back-office-list';

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

type InboxItem = InboxPageBody['results'][number];

const INBOX_COLUMNS: readonly BackOfficeColumn<InboxItem>[] = [
  {
    id: 'date',
    header: 'Fecha',
    cell: (item) => <time dateTime={item.created_at}>{displayDateTime(item.created_at)}</time>,
  },
  { id: 'from', header: 'De', cell: (item) => <TruncatedCell text={item.from_name} /> },
  { id: 'company', header: 'Empresa', cell: (item) => <TruncatedCell text={item.from_company} /> },
  { id: 'subject', header: 'Asunto', cell: (item) => item.subject },
  {
    id: 'email',
    header: 'Correo',
    cell: (item) =>
      item.contact_email ? (
        <TruncatedCell text={item.contact_email} href={`mailto:${item.contact_email}`} />
      ) : (
        '—'
      ),
  },
  { id: 'phone', header: 'Teléfono', cell: (item) => item.contact_phone ?? '—' },
  {
    id: 'status',
    header: 'Estado',
    cell: (item) =>
      item.status === null ? (
        '—'
      ) : (
        <Tag minimal intent={item.status === 'allied' || item.status === 'enabled' ? 'success' : 'none'}>
          {INBOX_STATUS_LABELS[item.status] ?? item.status}
        </Tag>
      ),
  },
];

export interface InboxPageProps {
  kind: InboxKind;
  page: number;
  list: RemoteData<InboxPageBody>;
  onChange(next: { kind: InboxKind; page: number }): void;
}

/** /operacion/bandeja/: what providers and visitors sent, one tab per kind. */
export function InboxPage({ kind, page, list, onChange }: InboxPageProps) {
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
            panel={
              <BackOfficeList
                label={INBOX_KIND_LABELS[id]}
                // Who wrote, their company, e-mail and phone, what and when: cards below 1100 px.
                cardsBelow={1100}
                remote={list}
                columns={INBOX_COLUMNS}
                rowKey={(item) => item.id}
                loading="Cargando bandeja…"
                failed={INBOX_FAILED}
                empty={{ title: INBOX_EMPTY[id] }}
                paging={{
                  label: 'Páginas de la bandeja',
                  page,
                  pageSize: PAGE_SIZE,
                  noun: ['elemento', 'elementos'],
                  onPage: (next) => onChange({ kind: id, page: next }),
                }}
              />
            }
          />
        ))}
      </Tabs>
    </section>
  );
}
