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
import { DESK_STATES, type DeskState } from '../../../domain/control-desk';
import { formatMxn, parseMoney } from '../../../domain/money';
import { type DeskPage as DeskPageBody, DeskRejectBody } from '../../../domain/schemas/control-desk';
import { PAGE_SIZE } from '../../../domain/schemas/invoices';
import type { BackOfficeActionEvent, BackOfficeActionMachine } from '../../../machines/back-office-action';
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

const DESK_COLUMNS: readonly BackOfficeColumn<DeskRow>[] = [
  { id: 'label', header: 'Factura', cell: (item) => item.label },
  { id: 'provider', header: 'Proveedor', cell: (item) => item.provider.name },
  { id: 'corporate', header: 'Comprador', cell: (item) => item.corporate.name },
  { id: 'amount', header: 'Monto', cell: (item) => formatMxn(parseMoney(item.amount)) },
  {
    id: 'state',
    header: 'Estado',
    cell: (item) => (
      <>
        {item.state_label}
        {item.reason && <div>{item.reason}</div>}
      </>
    ),
  },
  {
    id: 'checks',
    header: 'Verificaciones',
    cell: (item) => (
      <ul aria-label={`Verificaciones de ${item.label}`} className="desk-checks">
        {item.checks.map((check) => (
          <li key={check.id}>
            <Tag intent={check.ok ? 'success' : 'danger'} minimal>
              {check.ok ? 'Pasa' : 'Falla'}: {check.label}
            </Tag>{' '}
            {!check.ok && <span>{check.reason}</span>}
          </li>
        ))}
      </ul>
    ),
  },
];

const intentOf = (item: DeskRow, action: 'approve' | 'reject') => ({
  action,
  id: item.invoice_id,
  label: item.label,
  input: null,
});

/**
 * /operacion/mesa/: every advance in process with its checks, each a pass/fail tag with its reason in words
 * (not only colour), filtered by desk state through the URL. The aprobador's gestures are the desk-actions
 * machine's: the view renders its state and sends its events.
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
  const rejecting = intent?.action === 'reject' && !actions.matches('ready') ? intent : null;
  const lost = actions.matches('answerLost') && !rejecting;
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
            onClick={() => send({ type: 'action.run', intent: intentOf(item, 'approve') })}
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
      {/* The row moves on success; a refusal says why (no dismissal: the next gesture replaces it). */}
      <OutcomeCallout outcome={gestureOutcome(actions, null)} />
      {lost && (
        <AnswerLostCallout
          message={actions.context.failure?.message}
          onRetry={() => send({ type: 'action.retry' })}
          onCancel={() => send({ type: 'action.cancel' })}
        />
      )}
      <BackOfficeList
        label="Adelantos en la mesa de control"
        remote={list}
        columns={DESK_COLUMNS}
        rowKey={(item) => item.invoice_id}
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
        isOpen={rejecting !== null}
        onClose={() => send({ type: 'action.cancel' })}
        title={`Rechazar el adelanto ${rejecting?.label ?? ''}`}
      >
        {rejecting && <RejectForm actions={actions} send={send} />}
      </Dialog>
    </section>
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
  const { register, handleSubmit, watch, formState } = useForm<DeskRejectBody>({
    resolver: structResolver(DeskRejectBody),
    defaultValues: { reason: '' },
  });
  const reason = watch('reason');
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
          helperText={fieldError}
          intent={fieldError ? 'danger' : 'none'}
        >
          <TextArea id="mesa-motivo" fill inputRef={ref} readOnly={busy || lost} {...field} />
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
              <Button type="submit" intent="danger" disabled={busy || reason.trim() === ''}>
                Rechazar
              </Button>
            </>
          }
        />
      )}
    </form>
  );
}
