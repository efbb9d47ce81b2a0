import {
  Button,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  Tag,
  TextArea,
} from '@blueprintjs/core';
import { useForm } from 'react-hook-form';
import type { SnapshotFrom } from 'xstate';
import { displayDate } from '../../../domain/calendar-date';
import { maskClabe } from '../../../domain/clabe';
import { checksSummary, DESK_STATES, type DeskState } from '../../../domain/control-desk';
import {
  formatInvoiceAmount,
  formatInvoiceMxnValue,
  type InvoiceAmounts,
  isConverted,
} from '../../../domain/invoice-money';
import { formatMxn, parseMoney } from '../../../domain/money';
import {
  type DeskItem,
  type DeskPage as DeskPageBody,
  DeskRejectBody,
} from '../../../domain/schemas/control-desk';
import { PAGE_SIZE } from '../../../domain/schemas/invoices';
import type { RepStatus } from '../../../domain/schemas/payment-complements';
import type {
  BackOfficeActionEvent,
  BackOfficeActionMachine,
  BackOfficeIntent,
} from '../../../machines/back-office-action';
import { DESK_STATE_LABELS, deskTransition } from '../../../machines/desk-item.machine';
import { structResolver } from '../../common/struct-resolver';
import { AnswerLostCallout, gestureOutcome, OutcomeCallout } from '../list/action-notices';
import { type BackOfficeColumn, BackOfficeList, type RemoteData } from '../list/back-office-list';
import './desk-page.css';

export type DeskActionsSnapshot = SnapshotFrom<BackOfficeActionMachine>;

export interface DeskPageProps {
  state: DeskState | null;
  onStateChange: (state: DeskState | null) => void;
  list: RemoteData<DeskPageBody>;
  page: number;
  onPage: (page: number) => void;
  /** The desk-actions machine: what the aprobador is doing to one advance, and what came of it. */
  actions: DeskActionsSnapshot;
  send: (event: BackOfficeActionEvent) => void;
  /**
   * The signed-in operator may decide (holds the aprobador role); otherwise the rows show no gestures and a
   * note says who decides (the server refuses them anyway). Default true.
   */
  canDecide?: boolean;
}

type DeskRow = DeskPageBody['results'][number];

/**
 * A desk item's money as the invoice lists carry it: `amount` is its peso value, the dollar amount and the
 * TipoCambio come beside it, so one rule (invoice-money.ts) writes '$6,090.00 USD' and its conversion.
 */
function deskItemAmounts(item: DeskRow): InvoiceAmounts {
  return {
    amount: item.amount_with_exchange_rate_usd ?? item.amount,
    amount_with_exchange_rate: item.amount,
    amount_with_exchange_rate_usd: item.amount_with_exchange_rate_usd,
    exchange_rate: item.exchange_rate,
  };
}

/** The outcome notice of a decision the server accepted (the desk-actions machine's `outcome`). */
export function deskDecided(action: 'approve' | 'reject', item: DeskItem): string {
  if (action === 'reject') {
    return `Adelanto ${item.label} rechazado: la factura vuelve a Autorizada y el proveedor recibe el motivo por correo.`;
  }
  const payout = item.payout === null ? '' : ` por ${formatMxn(parseMoney(item.payout))}`;
  return `Adelanto ${item.label} aprobado${payout}: ya está en Dispersiones, listo para su lote SPEI.`;
}

const DESK_COLUMNS: readonly BackOfficeColumn<DeskRow>[] = [
  { id: 'label', header: 'Factura', cell: (item) => item.label },
  { id: 'provider', header: 'Proveedor', cell: (item) => item.provider.name },
  { id: 'corporate', header: 'Comprador', cell: (item) => item.corporate.name },
  {
    id: 'amount',
    header: 'Monto',
    cell: (item) => (
      <>
        {formatInvoiceAmount(deskItemAmounts(item))}
        {isConverted(deskItemAmounts(item)) && (
          <div className="desk-secondary desk-converted">{formatInvoiceMxnValue(deskItemAmounts(item))}</div>
        )}
        {item.payout !== null && (
          <div className="desk-secondary">Recibe {formatMxn(parseMoney(item.payout))}</div>
        )}
      </>
    ),
  },
  {
    id: 'state',
    header: 'Estado',
    cell: (item) => (
      <>
        {item.state_label}
        {item.reason && <div>{item.reason}</div>}
        {item.payment_complement && <RepLine rep={item.payment_complement} />}
      </>
    ),
  },
  {
    id: 'checks',
    header: 'Verificaciones',
    cell: (item) => {
      const passing = item.checks.every((check) => check.ok);
      return (
        <div className="desk-checks">
          {/* One tag says how it went (in words, not only colour); every check and its reason on demand. */}
          <Tag intent={passing ? 'success' : 'danger'} minimal multiline>
            {checksSummary(item.checks)}
          </Tag>
          <details className="desk-checks__details">
            <summary>Ver las {item.checks.length} verificaciones</summary>
            <ul aria-label={`Verificaciones de ${item.label}`}>
              {item.checks.map((check) => (
                <li key={check.id}>
                  <Tag intent={check.ok ? 'success' : 'danger'} minimal multiline>
                    {check.ok ? 'Pasa' : 'Falla'}: {check.label}
                  </Tag>{' '}
                  <span>{check.reason}</span>
                </li>
              ))}
            </ul>
          </details>
        </div>
      );
    },
  },
];

const intentOf = (item: DeskRow, action: 'approve' | 'reject'): BackOfficeIntent => ({
  action,
  id: item.invoice_id,
  label: item.label,
  input: null,
});

/**
 * /operacion/mesa/: every advance in process with one tag for its checks (how many pass, or which fail) and the
 * checks with their reasons on expand, filtered by desk state through the URL. The aprobador's gestures are the
 * desk-actions machine's: «Aprobar» asks to confirm the amount and the beneficiary, «Rechazar» asks why, and the
 * outcome says what happened; the view renders its state and sends its events.
 */
export function DeskPage({
  state,
  onStateChange,
  list,
  page,
  onPage,
  actions,
  send,
  canDecide = true,
}: DeskPageProps) {
  const busy = actions.hasTag('busy');
  const intent = actions.context.intent;
  const open = intent !== null && !actions.matches('ready') ? intent : null;
  const rejecting = open?.action === 'reject' ? open : null;
  const approving = open?.action === 'approve' ? open : null;
  // The row the confirmation is about, as the list holds it.
  const approvingItem = list.data?.results.find((item) => item.invoice_id === approving?.id) ?? null;
  const rowActions = (item: DeskRow) => (
    <div className="desk-actions">
      {!canDecide && <span className="desk-note">Decide un Aprobador</span>}
      {/* The desk-item machine decides which gestures a row offers, as the server does. */}
      {canDecide &&
        deskTransition(item.state, {
          type: 'desk.approve',
          failingChecks: item.checks.filter((c) => !c.ok).length,
        }).ok && (
          <Button
            intent="success"
            disabled={busy}
            onClick={() => send({ type: 'action.open', intent: intentOf(item, 'approve') })}
          >
            Aprobar {item.label}
          </Button>
        )}
      {canDecide && deskTransition(item.state, { type: 'desk.reject', reason: 'motivo' }).ok && (
        <Button
          intent="danger"
          disabled={busy}
          onClick={() => send({ type: 'action.open', intent: intentOf(item, 'reject') })}
        >
          Rechazar {item.label}
        </Button>
      )}
    </div>
  );
  return (
    <section aria-labelledby="mesa-titulo">
      <h1 id="mesa-titulo">Mesa de control</h1>
      <div className="desk-filter">
        <label htmlFor="mesa-estado">Estado</label>{' '}
        <HTMLSelect
          id="mesa-estado"
          value={state ?? ''}
          onChange={(event) => onStateChange((event.currentTarget.value || null) as DeskState | null)}
          options={[
            { value: '', label: 'Todos' },
            ...DESK_STATES.map((value) => ({ value, label: DESK_STATE_LABELS[value] })),
          ]}
        />
      </div>
      {/* What the last decision did, or why the server refused it, until dismissed or the next gesture. */}
      <OutcomeCallout outcome={gestureOutcome(actions)} onDismiss={() => send({ type: 'outcome.dismiss' })} />
      <BackOfficeList
        label="Adelantos en la mesa de control"
        remote={list}
        columns={DESK_COLUMNS}
        rowKey={(item) => item.invoice_id}
        cardsBelow={1100}
        rowActions={rowActions}
        loading="Cargando la mesa de control"
        failed="No pudimos cargar la mesa de control"
        empty={{
          title: 'No hay adelantos en la mesa',
          description: 'Cuando un proveedor adelante una factura aparecerá aquí.',
        }}
        paging={{
          label: 'Páginas de la mesa',
          page,
          pageSize: PAGE_SIZE,
          noun: ['adelanto', 'adelantos'],
          onPage,
        }}
      />
      <Dialog
        isOpen={approving !== null}
        onClose={() => send({ type: 'action.cancel' })}
        title={`Aprobar el adelanto ${approving?.label ?? ''}`}
      >
        {approving && <ApproveConfirmation item={approvingItem} actions={actions} send={send} />}
      </Dialog>
      <Dialog
        isOpen={rejecting !== null}
        onClose={() => send({ type: 'action.cancel' })}
        title={`Rechazar el adelanto ${rejecting?.label ?? ''}`}
      >
        {rejecting && <RejectForm actions={actions} send={send} />}
      </Dialog>
    </section>
  );
}

/** Before money is cleared to leave: how much, to whom and to which account, then «Aprobar». */
function ApproveConfirmation({
  item,
  actions,
  send,
}: {
  item: DeskRow | null;
  actions: DeskActionsSnapshot;
  send: (event: BackOfficeActionEvent) => void;
}) {
  const busy = actions.hasTag('busy');
  const lost = actions.matches('answerLost');
  return (
    <>
      <DialogBody>
        {item && (
          <dl className="desk-confirmation">
            <dt>Monto de la factura</dt>
            <dd>
              {formatInvoiceAmount(deskItemAmounts(item))}
              {isConverted(deskItemAmounts(item)) && (
                <div className="desk-secondary">
                  Valor en pesos: {formatInvoiceMxnValue(deskItemAmounts(item))}
                </div>
              )}
            </dd>
            <dt>Recibe el proveedor</dt>
            <dd>
              {item.payout === null ? 'Se calcula al crear el lote' : formatMxn(parseMoney(item.payout))}
            </dd>
            <dt>Beneficiario</dt>
            <dd>
              {item.provider.name}
              <div className="desk-secondary">RFC {item.provider.rfc}</div>
            </dd>
            <dt>CLABE</dt>
            <dd>{item.provider.clabe === null ? 'Sin CLABE' : maskClabe(item.provider.clabe)}</dd>
            <dt>Comprador</dt>
            <dd>{item.corporate.name}</dd>
          </dl>
        )}
        <p className="desk-secondary">
          Al aprobarlo, el adelanto pasa a Dispersiones para incluirlo en un lote SPEI.
        </p>
        {lost && (
          <AnswerLostCallout
            message={actions.context.failure?.message}
            onRetry={() => send({ type: 'action.retry' })}
            onCancel={() => send({ type: 'action.cancel' })}
          />
        )}
      </DialogBody>
      {!lost && (
        <DialogFooter
          actions={
            <>
              <Button onClick={() => send({ type: 'action.cancel' })} disabled={busy}>
                Cancelar
              </Button>
              <Button
                intent="success"
                loading={busy}
                disabled={busy}
                onClick={() => send({ type: 'action.submit', input: null })}
              >
                Aprobar
              </Button>
            </>
          }
        />
      )}
    </>
  );
}

/** The reason the provider reads, checked by the struct the server validates with. */
function RejectForm({
  actions,
  send,
}: {
  actions: DeskActionsSnapshot;
  send: (event: BackOfficeActionEvent) => void;
}) {
  const busy = actions.hasTag('busy');
  const { register, handleSubmit, formState } = useForm<DeskRejectBody>({
    resolver: structResolver(DeskRejectBody),
    defaultValues: { reason: '' },
  });
  const { ref, ...field } = register('reason');
  const fieldError = formState.errors.reason?.message ?? actions.context.failure?.fields.reason?.[0];
  const lost = actions.matches('answerLost');
  return (
    <form
      onSubmit={handleSubmit((values) =>
        send({ type: 'action.submit', input: { reason: values.reason.trim() } }),
      )}
    >
      <DialogBody>
        <FormGroup
          label="Motivo (el proveedor lo recibe por correo)"
          labelFor="mesa-motivo"
          // Said before the first try: «Rechazar» needs the reason; an empty one gets the server's own message.
          helperText={<span id="mesa-motivo-ayuda">{fieldError ?? 'Obligatorio para rechazar.'}</span>}
          intent={fieldError ? 'danger' : 'none'}
        >
          <TextArea
            id="mesa-motivo"
            fill
            inputRef={ref}
            readOnly={busy || lost}
            aria-describedby="mesa-motivo-ayuda"
            aria-invalid={fieldError ? true : undefined}
            {...field}
          />
        </FormGroup>
        {lost && (
          <AnswerLostCallout
            message={actions.context.failure?.message}
            onRetry={() => send({ type: 'action.retry' })}
            onCancel={() => send({ type: 'action.cancel' })}
          />
        )}
      </DialogBody>
      {!lost && (
        <DialogFooter
          actions={
            <>
              <Button onClick={() => send({ type: 'action.cancel' })} disabled={busy}>
                Cancelar
              </Button>
              <Button type="submit" intent="danger" loading={busy} disabled={busy}>
                Rechazar
              </Button>
            </>
          }
        />
      )}
    </form>
  );
}

/** A collected advance's payment complement: 'REP recibido' with its folio fiscal and date, or 'REP pendiente'. */
function RepLine({ rep }: { rep: RepStatus }) {
  return (
    <div className="desk-rep">
      <Tag intent={rep.state === 'recibido' ? 'success' : 'warning'} minimal>
        {rep.label}
      </Tag>
      {rep.uuid && rep.issued_at && (
        <div className="desk-secondary desk-rep__uuid">
          {rep.uuid} del {displayDate(rep.issued_at.slice(0, 10))}
        </div>
      )}
    </div>
  );
}
