import {
  Button,
  Callout,
  Classes,
  type Intent,
  NonIdealState,
  Spinner,
  Tag,
  Tooltip,
} from '@blueprintjs/core';
import { Flows, History } from '@blueprintjs/icons';
import { lazy, Suspense, useState } from 'react';
import { displayDate } from '../../domain/calendar-date';
import { satAnswerSummary } from '../../domain/cfdi-proof';
import {
  type InvoiceStatusCode,
  PROVIDER_STATUS_LABELS,
  trailStatusLabel,
} from '../../domain/invoice-status';
import type { CfdiProof } from '../../domain/schemas/cfdi-proof';
import type { Invoice, InvoiceEvent } from '../../domain/schemas/invoices';
import { shownFolio } from './invoice-columns';
import { formatDisplayDateTime } from './invoice-format';
import { SidePanel } from './side-panel';

/** One step of the audit trail as the server sends it. */
export type AuditTrailItem = InvoiceEvent;

export const AUDIT_TRAIL_TITLE = 'Historial de la factura';
export const AUDIT_TRAIL_EMPTY = 'Esta factura aún no tiene movimientos.';
export const AUDIT_TRAIL_FAILED = 'No pudimos cargar el historial.';

/** What the drawer names an invoice by: its serie-folio (the title) and its folio fiscal (secondary text). */
export type TrailInvoice = Pick<Invoice, 'fiscal_folio' | 'serie_folio'>;

export interface AuditTrailDrawerProps {
  /** The invoice whose trail is open, or null when closed. */
  invoice: TrailInvoice | null;
  state: 'loading' | 'error' | 'ready';
  items: readonly AuditTrailItem[];
  onRetry: () => void;
  onClose: () => void;
  labels?: Readonly<Record<InvoiceStatusCode, string>>;
  /** Why the CFDI is trusted (seal, certificate, SAT's answers), once loaded; null while it loads. */
  proof?: CfdiProof | null;
}

/** What a list page needs for its 'Historial' buttons and drawer; onOpen picks the invoice. */
export type InvoiceTrail = Omit<AuditTrailDrawerProps, 'labels'> & { onOpen: (invoice: Invoice) => void };

export const HISTORY_TEXT = 'Historial';
export const SHOW_IN_DIAGRAM = 'Ver en el diagrama';

// The diagram (its viewer, the lifecycle machine's layout) is fetched when 'Ver en el diagrama' is pressed:
// a list page's first load carries none of it.
const InvoicePathDialog = lazy(() =>
  import('../diagrams/invoice-path-dialog').then((module) => ({ default: module.InvoicePathDialog })),
);

/**
 * A row's 'Historial' button: an icon with its word on hover and focus, so the row's main action keeps the
 * room; its accessible name carries the folio so each row's is distinct.
 */
export function HistoryButton({ invoice, trail }: { invoice: Invoice; trail: InvoiceTrail }) {
  return (
    <Tooltip content={HISTORY_TEXT} placement="top">
      <Button
        variant="minimal"
        size="small"
        icon={<History />}
        aria-label={`${HISTORY_TEXT} ${invoice.fiscal_folio}`}
        onClick={() => trail.onOpen(invoice)}
      />
    </Tooltip>
  );
}

/**
 * Right-side drawer with who moved the invoice from what to what, when and why, oldest first; 'Ver en el
 * diagrama' draws the same steps over the lifecycle machine's diagram.
 */
export function AuditTrailDrawer({
  invoice,
  state,
  items,
  onRetry,
  onClose,
  labels = PROVIDER_STATUS_LABELS,
  proof = null,
}: AuditTrailDrawerProps) {
  // The folio fiscal whose path is open: another invoice's drawer must not reopen it.
  const [pathUuid, setPathUuid] = useState<string | null>(null);
  const uuid = invoice?.fiscal_folio ?? null;
  return (
    <>
      <SidePanel
        title={invoice ? `${AUDIT_TRAIL_TITLE} ${shownFolio(invoice)}` : AUDIT_TRAIL_TITLE}
        isOpen={invoice !== null}
        busy={false}
        onClose={onClose}
        size="min(480px, 100vw)"
        footer={<Button text="Cerrar" onClick={onClose} />}
      >
        <p className={`${Classes.TEXT_MUTED} flujo-drawer-invoice-uuid`}>Folio fiscal {uuid}</p>
        {proof && <ProofSection proof={proof} />}
        {state === 'loading' && <Spinner aria-label="Cargando historial…" />}
        {state === 'error' && (
          <Callout intent="danger" role="alert">
            <p>{AUDIT_TRAIL_FAILED}</p>
            <Button intent="primary" text="Reintentar" onClick={onRetry} />
          </Callout>
        )}
        {state === 'ready' && items.length === 0 && <NonIdealState title={AUDIT_TRAIL_EMPTY} />}
        {state === 'ready' && items.length > 0 && (
          <Button
            className="flujo-audit-trail__diagram"
            icon={<Flows />}
            text={SHOW_IN_DIAGRAM}
            onClick={() => setPathUuid(uuid)}
          />
        )}
        {state === 'ready' && items.length > 0 && (
          <ol className="flujo-audit-trail" aria-label="Movimientos">
            {items.map((item) => (
              <li key={`${item.at}-${item.event}-${item.to_status}`}>
                <strong>
                  {trailStatusLabel(item.from_status, labels)} → {trailStatusLabel(item.to_status, labels)}
                </strong>
                <div>
                  {item.actor} · <time dateTime={item.at}>{formatDisplayDateTime(item.at)}</time>
                </div>
                {item.reason && <div className={Classes.TEXT_MUTED}>{item.reason}</div>}
              </li>
            ))}
          </ol>
        )}
      </SidePanel>
      {pathUuid !== null && (
        <Suspense fallback={null}>
          <InvoicePathDialog
            invoice={pathUuid === uuid && state === 'ready' ? invoice : null}
            items={items}
            onClose={() => setPathUuid(null)}
          />
        </Suspense>
      )}
    </>
  );
}

export const PROOF_TITLE = 'Prueba de autenticidad del CFDI';
/** Issue 34: what a collected invoice still owes SAT until its payment complement arrives. */
export const REP_PENDING_NOTE =
  'El comprador ya pagó: falta el complemento de pago (CFDI tipo P) de esta factura.';
const PROOF_INTENT: Readonly<Record<CfdiProof['state'], Intent>> = {
  trusted: 'success',
  sealChecked: 'primary',
  pending: 'warning',
  unverified: 'warning',
  refused: 'danger',
};

/** Why Flujo trusts the invoice: the seal's certificate and every answer SAT gave, with its time. */
function ProofSection({ proof }: { proof: CfdiProof }) {
  const { seal } = proof;
  return (
    <section className="flujo-proof" aria-label={PROOF_TITLE}>
      <h3 className="flujo-proof__title">
        {PROOF_TITLE} <Tag intent={PROOF_INTENT[proof.state]}>{proof.state_label}</Tag>
      </h3>
      {seal ? (
        <ul className="flujo-proof__facts">
          <li>
            Sello digital válido; certificado {seal.certificate_number} de {seal.holder_rfc}
          </li>
          <li>
            Emitido por {seal.issuer}; vigente del {formatDisplayDateTime(seal.valid_from).slice(0, 10)} al{' '}
            {formatDisplayDateTime(seal.valid_until).slice(0, 10)}
          </li>
          <li>{seal.sat_seal_verified ? 'Sello del SAT verificado' : 'Sello del SAT no verificado'}</li>
        </ul>
      ) : (
        <p className={Classes.TEXT_MUTED}>Importada antes de verificar sellos: sin verificar.</p>
      )}
      {proof.sat_answers.length > 0 && (
        <ul className="flujo-proof__answers" aria-label="Consultas al SAT">
          {proof.sat_answers.map((answer) => (
            <li key={answer.asked_at}>{satAnswerSummary(answer, formatDisplayDateTime)}</li>
          ))}
        </ul>
      )}
      {proof.payment_complement && (
        <p className="flujo-proof__rep">
          <Tag intent={proof.payment_complement.state === 'recibido' ? 'success' : 'warning'} minimal>
            {proof.payment_complement.label}
          </Tag>{' '}
          {proof.payment_complement.state === 'recibido' && proof.payment_complement.issued_at ? (
            <span className="flujo-proof__rep-uuid">
              {proof.payment_complement.uuid} del{' '}
              {displayDate(proof.payment_complement.issued_at.slice(0, 10))}
            </span>
          ) : (
            <span className={Classes.TEXT_MUTED}>{REP_PENDING_NOTE}</span>
          )}
        </p>
      )}
    </section>
  );
}
