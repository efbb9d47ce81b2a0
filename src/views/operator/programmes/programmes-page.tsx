import {
  Button,
  Callout,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  ProgressBar,
  Tag,
  TextArea,
  Tooltip,
} from '@blueprintjs/core';
import { type Resolver, useForm } from 'react-hook-form';
import type { SnapshotFrom } from 'xstate';
import './programmes.css';
import { displayDate } from '../../../domain/calendar-date';
import { ACTION_FAILED } from '../../../domain/call-failure';
import { DEFAULT_GRACE_DAYS, DEFAULT_MORATORY_RATE, DELINQUENCY_MESSAGES } from '../../../domain/delinquency';
import { formatMxn, parseMoney } from '../../../domain/money';
import { COLLECTION_ROLES, holdsAnyRole } from '../../../domain/operator-roles';
import {
  type CollectibleInvoice,
  type ProgrammeDetail,
  type ProgrammeLedgerEntry,
  ProgrammeReasonBody,
  type ProgrammeStateChange,
  type ProgrammeStateName,
  type ProgrammeSummary,
  ProposeProgrammeBody,
  type RecordCollectionBody,
} from '../../../domain/schemas/credit-programmes';
import type {
  BackOfficeActionEvent,
  BackOfficeFailure,
  BackOfficeIntent,
} from '../../../machines/back-office-action';
import {
  type CreditProgrammeEvent,
  DELINQUENT_LABEL,
  PROGRAMME_STATE_LABELS,
  type ProgrammeActor,
  programmeAccepts,
  type StoredProgramme,
} from '../../../machines/credit-programme.machine';
import type { programmeActionsMachine } from '../../../machines/programme-actions.machine';
import { structResolver } from '../../common/struct-resolver';
import { TextField } from '../../common/text-field';
import { gestureOutcome, OutcomeCallout } from '../list/action-notices';
import {
  type BackOfficeColumn,
  BackOfficeList,
  type ListPage,
  loadedList,
  type RemoteData,
} from '../list/back-office-list';
import { CollectionDialog } from './collection-dialog';

// /operacion/programas/: every corporate's credit programme (limit, reserved, used, available and a utilisation
// bar), the limits waiting for a second aprobador, the proposal dialog and a programme's ledger. Which buttons a
// row offers is the credit-programme machine's answer for this operator (decision 0052); the gesture under way
// and what came of it are the programme-actions machine's state, which the route runs (decision 0064).

const STATE_INTENTS: Record<ProgrammeStateName, 'none' | 'primary' | 'success' | 'warning' | 'danger'> = {
  borrador: 'none',
  pendiente: 'primary',
  activo: 'success',
  congelado: 'warning',
  vencido: 'danger',
};

const LEDGER_LABELS: Record<ProgrammeLedgerEntry['kind'], string> = {
  reserve: 'Reserva (adelanto solicitado)',
  use: 'Uso (adelanto dispersado)',
  cancel: 'Reserva liberada (adelanto no dispersado)',
  release: 'Liberación (pago del corporativo)',
};

export const PROGRAMME_TEXTS = {
  title: 'Programas de crédito',
  intro:
    'Límite de cada corporativo: los adelantos reservan, la dispersión usa y el pago del corporativo libera. ' +
    'Un límite nuevo o un aumento entra en vigor cuando lo aprueba un Aprobador distinto de quien lo propuso.',
  loading: 'Cargando programas…',
  empty: 'Aún no hay programas de crédito. Propón el límite de un corporativo para empezar.',
  loadFailed: 'No pudimos cargar los programas.',
  retry: 'Reintentar',
  propose: 'Proponer límite',
  approve: 'Aprobar',
  freeze: 'Congelar',
  unfreeze: 'Descongelar',
  detail: 'Ver movimientos',
  ownProposal: 'Tú propusiste este límite: debe aprobarlo otro Aprobador.',
  notAprobador: 'Solo un operador Aprobador puede aprobar límites.',
  pendingTitle: 'Límites pendientes de aprobación',
  noPending: 'No hay límites pendientes de aprobación.',
  ledgerEmpty: 'Este programa aún no tiene movimientos.',
  collectibleTitle: 'Por cobrar al corporativo',
  collectibleEmpty: 'Ninguna factura adelantada espera el pago del corporativo.',
  collectibleNotTreasury: 'Registra los cobros un operador de Tesorería.',
  detailFailed: 'No pudimos cargar los movimientos del programa.',
} as const;

/** The page's gestures: the programme-actions machine's `intent.action`. */
export type ProgrammeAction = 'propose' | 'approve' | 'freeze' | 'unfreeze' | 'collect';

/** What the page says when a gesture succeeds (a collection says what the server released). */
export const PROGRAMME_OUTCOMES = {
  propose: 'Límite enviado a aprobación.',
  approve: (corporateName: string) => `Límite de ${corporateName} aprobado.`,
  freeze: 'Programa congelado.',
  unfreeze: 'Programa descongelado.',
} as const;

/** Each gesture's dialog title (also the answer-lost dialog's). */
const ACTION_TITLES: Record<ProgrammeAction, string> = {
  propose: PROGRAMME_TEXTS.propose,
  approve: PROGRAMME_TEXTS.approve,
  freeze: PROGRAMME_TEXTS.freeze,
  unfreeze: PROGRAMME_TEXTS.unfreeze,
  collect: 'Registrar cobro',
};

export const REASON_REQUIRED = 'Escribe el motivo.';

export interface CorporateOption {
  id: number;
  name: string;
}

/** The programme-actions machine as the route runs it: its snapshot and how to send it the operator's gestures. */
export interface ProgrammeActionsState {
  snapshot: SnapshotFrom<typeof programmeActionsMachine>;
  send(event: BackOfficeActionEvent): void;
}

export interface ProgrammesPageProps {
  list: RemoteData<ListPage<ProgrammeSummary>>;
  operator: ProgrammeActor;
  corporates: readonly CorporateOption[];
  selectedId: number | null;
  /** Opens (or, with null, closes) a programme's ledger panel. */
  onSelect(programmeId: number | null): void;
  detail: RemoteData<ProgrammeDetail> | null;
  actions: ProgrammeActionsState;
}

function money(amount: string): string {
  return formatMxn(parseMoney(amount));
}

/** The stored programme the machine reads, from the list's row. */
function storedOf(programme: ProgrammeSummary): StoredProgramme {
  const state = programme.state === 'pendiente' ? 'borrador' : programme.state;
  return {
    state,
    proposerId: programme.pending_proposal?.proposed_by ?? null,
    endsOn: programme.ends_on,
    frozenFor: programme.frozen_for,
  };
}

/** The state a row shows: a freeze for late payment is named as such (the machine's 'delinquent' label). */
function programmeStateLabel(programme: ProgrammeSummary): string {
  return programme.frozen_for === 'morosidad' ? DELINQUENT_LABEL : PROGRAMME_STATE_LABELS[programme.state];
}

function accepts(programme: ProgrammeSummary, event: CreditProgrammeEvent): boolean {
  return programmeAccepts(storedOf(programme), event);
}

/** Why Aprobar is disabled for this operator, or null when it may approve. */
export function approveBlockedReason(programme: ProgrammeSummary, operator: ProgrammeActor): string | null {
  if (accepts(programme, { type: 'programme.approve', actor: operator })) return null;
  if (programme.pending_proposal?.proposed_by === operator.userId) return PROGRAMME_TEXTS.ownProposal;
  return PROGRAMME_TEXTS.notAprobador;
}

function intentOf(action: ProgrammeAction, id: number | null, label: string): BackOfficeIntent {
  return { action, id, label, input: null };
}

function UtilisationBar({ programme }: { programme: ProgrammeSummary }) {
  const fraction = Math.min(1, programme.utilisation_percentage / 100);
  return (
    <div className="programme-utilisation">
      <ProgressBar
        value={fraction}
        animate={false}
        stripes={false}
        intent={fraction >= 0.9 ? 'danger' : fraction >= 0.7 ? 'warning' : 'success'}
        aria-label={`Utilización ${programme.utilisation_percentage.toFixed(2)} %`}
      />
      <span>{programme.utilisation_percentage.toFixed(2)} %</span>
    </div>
  );
}

/** A refusal's text above a form, when the server said more than its fields. */
function FailureCallout({ failure }: { failure: BackOfficeFailure | null }) {
  return failure?.message ? (
    <Callout intent="danger" role="alert">
      {failure.message}
    </Callout>
  ) : null;
}

// The struct's rule, with the dialog's own words for a blank reason.
const reasonStruct = structResolver(ProgrammeReasonBody);
const reasonResolver: Resolver<ProgrammeReasonBody> = (values, context, options) =>
  values.reason.trim() === ''
    ? Promise.resolve({ values: {}, errors: { reason: { type: 'required', message: REASON_REQUIRED } } })
    : reasonStruct(values, context, options);

function ReasonDialog({
  title,
  busy,
  failure,
  onCancel,
  onConfirm,
}: {
  title: string;
  busy: boolean;
  failure: BackOfficeFailure | null;
  onCancel(): void;
  onConfirm(reason: string): void;
}) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ProgrammeReasonBody>({ resolver: reasonResolver, defaultValues: { reason: '' } });
  const error = errors.reason?.message ?? failure?.fields.reason?.[0] ?? failure?.message ?? undefined;
  const reason = register('reason');
  return (
    <Dialog isOpen title={title} onClose={onCancel}>
      <DialogBody>
        <FormGroup
          label="Motivo"
          labelFor="programa-motivo"
          intent={error ? 'danger' : 'none'}
          helperText={error}
        >
          <TextArea
            id="programa-motivo"
            fill
            inputRef={reason.ref}
            name={reason.name}
            onChange={reason.onChange}
            onBlur={reason.onBlur}
            aria-invalid={error ? true : undefined}
          />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancelar" disabled={busy} onClick={onCancel} />
            <Button
              intent="primary"
              text={title}
              loading={busy}
              onClick={handleSubmit((values) => onConfirm(values.reason.trim()))}
            />
          </>
        }
      />
    </Dialog>
  );
}

type ProposeField = 'limit' | 'starts_on' | 'ends_on' | 'grace_days' | 'moratory_rate';

/** '5 días de gracia'. */
function graceText(days: number): string {
  return days === 1 ? '1 día de gracia' : `${days} días de gracia`;
}

function ProposeDialog({
  corporates,
  initialCorporateId,
  busy,
  failure,
  onCancel,
  onPropose,
}: {
  corporates: readonly CorporateOption[];
  initialCorporateId: number | null;
  busy: boolean;
  failure: BackOfficeFailure | null;
  onCancel(): void;
  onPropose(body: ProposeProgrammeBody): void;
}) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ProposeProgrammeBody>({
    resolver: structResolver(ProposeProgrammeBody),
    defaultValues: {
      corporate_id: initialCorporateId ?? corporates[0]?.id ?? 0,
      limit: '',
      starts_on: '',
      ends_on: '',
      grace_days: DEFAULT_GRACE_DAYS,
      moratory_rate: DEFAULT_MORATORY_RATE,
    },
  });
  const messageOf = (name: ProposeField | 'corporate_id'): string | undefined =>
    errors[name]?.message ?? failure?.fields[name]?.[0];
  const field = (name: ProposeField, label: string, type: string, placeholder?: string) => (
    <TextField
      id={`programa-${name}`}
      label={label}
      type={type}
      placeholder={placeholder}
      error={messageOf(name)}
      registration={name === 'grace_days' ? register(name, { valueAsNumber: true }) : register(name)}
    />
  );
  const corporateError = messageOf('corporate_id');
  return (
    <Dialog isOpen title={PROGRAMME_TEXTS.propose} onClose={onCancel}>
      <DialogBody>
        <FailureCallout failure={failure} />
        <FormGroup
          label="Corporativo"
          labelFor="programa-corporativo"
          intent={corporateError ? 'danger' : 'none'}
          helperText={corporateError}
        >
          <HTMLSelect
            id="programa-corporativo"
            fill
            options={corporates.map((corporate) => ({ value: corporate.id, label: corporate.name }))}
            {...register('corporate_id', { valueAsNumber: true })}
          />
        </FormGroup>
        {field('limit', 'Límite (MXN)', 'text', '1000000.00')}
        {field('starts_on', 'Fecha de inicio', 'date')}
        {field('ends_on', 'Fecha de fin', 'date')}
        {field('grace_days', 'Días de gracia tras el vencimiento', 'number')}
        {field('moratory_rate', 'Tasa moratoria anual (%)', 'text', DEFAULT_MORATORY_RATE)}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancelar" disabled={busy} onClick={onCancel} />
            <Button
              intent="primary"
              text="Enviar a aprobación"
              loading={busy}
              onClick={handleSubmit((values) => onPropose(values))}
            />
          </>
        }
      />
    </Dialog>
  );
}

/**
 * A gesture the machine holds in a dialog without a form of its own: the answer was lost (retry with the same
 * key, or cancel), or the server refused a one-click gesture at its fields (confirm again, or cancel).
 */
function GestureDialog({
  title,
  failure,
  confirm,
  onConfirm,
  onCancel,
}: {
  title: string;
  failure: BackOfficeFailure | null;
  confirm: string;
  onConfirm(): void;
  onCancel(): void;
}) {
  const reasons = [failure?.message, ...Object.values(failure?.fields ?? {}).flat()].filter(
    (text): text is string => typeof text === 'string' && text !== '',
  );
  return (
    <Dialog isOpen title={title} onClose={onCancel}>
      <DialogBody>
        <Callout intent="danger" role="alert">
          {reasons.length > 0 ? reasons.join(' ') : ACTION_FAILED}
        </Callout>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancelar" onClick={onCancel} />
            <Button intent="primary" text={confirm} onClick={onConfirm} />
          </>
        }
      />
    </Dialog>
  );
}

const LEDGER_COLUMNS: readonly BackOfficeColumn<ProgrammeLedgerEntry>[] = [
  { id: 'date', header: 'Fecha', cell: (entry) => displayDate(entry.at.slice(0, 10)) },
  { id: 'invoice', header: 'Factura', cell: (entry) => entry.invoice_label },
  { id: 'kind', header: 'Movimiento', cell: (entry) => LEDGER_LABELS[entry.kind] },
  { id: 'amount', header: 'Monto', cell: (entry) => money(entry.amount) },
  { id: 'reference', header: 'Referencia', cell: (entry) => entry.reference ?? '—' },
];

const COLLECTIBLE_COLUMNS: readonly BackOfficeColumn<CollectibleInvoice>[] = [
  { id: 'invoice', header: 'Factura', cell: (invoice) => invoice.invoice_label },
  { id: 'provider', header: 'Proveedor', cell: (invoice) => invoice.provider_name },
  { id: 'used', header: 'Usado', cell: (invoice) => money(invoice.used) },
];

// The corporate names its row (its header cell, the card's title below 1100 px); the cells after it are data.
const PROGRAMME_COLUMNS: readonly BackOfficeColumn<ProgrammeSummary>[] = [
  { id: 'corporate', header: 'Corporativo', cell: (programme) => programme.corporate_name, rowHeader: true },
  {
    id: 'state',
    header: 'Estado',
    cell: (programme) => (
      <Tag intent={STATE_INTENTS[programme.state]} minimal>
        {programmeStateLabel(programme)}
      </Tag>
    ),
  },
  // The term sits under the limit it bounds: a column of its own left the gestures off-screen at 1280 px.
  {
    id: 'limit',
    header: 'Límite y vigencia',
    cell: (programme) => (
      <>
        {money(programme.limit)}
        <span className="programme-term">
          {programme.starts_on && programme.ends_on
            ? `${displayDate(programme.starts_on)} a ${displayDate(programme.ends_on)}`
            : 'Sin vigencia'}
        </span>
        <span className="programme-term">
          {graceText(programme.grace_days)}, moratorio {programme.moratory_rate} % anual
        </span>
      </>
    ),
  },
  { id: 'reserved', header: 'Reservado', cell: (programme) => money(programme.reserved) },
  { id: 'used', header: 'Usado', cell: (programme) => money(programme.used) },
  { id: 'available', header: 'Disponible', cell: (programme) => money(programme.available) },
  { id: 'utilisation', header: 'Utilización', cell: (programme) => <UtilisationBar programme={programme} /> },
];

const PENDING_COLUMNS: readonly BackOfficeColumn<ProgrammeSummary>[] = [
  { id: 'corporate', header: 'Corporativo', cell: (programme) => programme.corporate_name },
  {
    id: 'limit',
    header: 'Límite propuesto',
    cell: (programme) => (programme.pending_proposal ? money(programme.pending_proposal.limit) : '—'),
  },
  {
    id: 'term',
    header: 'Vigencia',
    cell: ({ pending_proposal: proposal }) =>
      proposal
        ? `${displayDate(proposal.starts_on)} a ${displayDate(proposal.ends_on)}; ${graceText(proposal.grace_days)}, moratorio ${proposal.moratory_rate} % anual`
        : '—',
  },
  {
    id: 'proposer',
    header: 'Propuso',
    cell: (programme) => programme.pending_proposal?.proposed_by_username ?? '—',
  },
];

/** A stored state in the operator's words (a state this screen does not know reads as stored). */
const stateLabel = (state: string) => PROGRAMME_STATE_LABELS[state as ProgrammeStateName] ?? state;

const STATE_CHANGE_COLUMNS: readonly BackOfficeColumn<ProgrammeStateChange>[] = [
  { id: 'date', header: 'Fecha', cell: (change) => displayDate(change.at.slice(0, 10)) },
  { id: 'from', header: 'De', cell: (change) => stateLabel(change.from_state) },
  { id: 'to', header: 'A', cell: (change) => stateLabel(change.to_state) },
  { id: 'reason', header: 'Motivo', cell: (change) => change.reason ?? '—' },
  { id: 'operator', header: 'Operador', cell: (change) => change.actor_username ?? '—' },
];

function DetailPanel({
  detail,
  canCollect,
  onCollect,
  onClose,
}: {
  detail: RemoteData<ProgrammeDetail>;
  canCollect: boolean;
  onCollect(invoice: CollectibleInvoice): void;
  onClose(): void;
}) {
  const data = detail.status === 'success' ? detail.data : undefined;
  const ledger: RemoteData<ListPage<ProgrammeLedgerEntry>> = {
    status: detail.status,
    data: detail.data ? { results: detail.data.ledger } : undefined,
    retry: detail.retry,
  };
  return (
    <section className="programme-detail" aria-labelledby="programa-detalle-titulo">
      <div className="programme-detail-header">
        <h2 id="programa-detalle-titulo">{data ? data.programme.corporate_name : 'Movimientos'}</h2>
        <Button text="Cerrar" onClick={onClose} />
      </div>
      {data ? (
        <>
          <h3>{PROGRAMME_TEXTS.collectibleTitle}</h3>
          {data.collectible.length > 0 && !canCollect ? (
            <p>{PROGRAMME_TEXTS.collectibleNotTreasury}</p>
          ) : null}
          <BackOfficeList
            label={PROGRAMME_TEXTS.collectibleTitle}
            remote={loadedList(data.collectible, detail.retry)}
            columns={COLLECTIBLE_COLUMNS}
            rowKey={(invoice) => invoice.invoice_id}
            rowActions={
              canCollect
                ? (invoice) => (
                    <Button
                      small
                      intent="primary"
                      aria-label={`Registrar cobro de la factura ${invoice.invoice_label}`}
                      text="Registrar cobro"
                      onClick={() => onCollect(invoice)}
                    />
                  )
                : undefined
            }
            loading="Cargando movimientos"
            failed={PROGRAMME_TEXTS.detailFailed}
            empty={{ title: PROGRAMME_TEXTS.collectibleEmpty }}
          />
          <h3>Movimientos</h3>
        </>
      ) : null}
      <BackOfficeList
        label="Movimientos del programa"
        remote={ledger}
        columns={LEDGER_COLUMNS}
        rowKey={(entry) => entry.id}
        loading="Cargando movimientos"
        failed={PROGRAMME_TEXTS.detailFailed}
        empty={{ title: PROGRAMME_TEXTS.ledgerEmpty }}
      />
      {data && data.state_changes.length > 0 ? (
        <>
          <h3>Cambios de estado</h3>
          <BackOfficeList
            label="Cambios de estado del programa"
            remote={loadedList(data.state_changes, detail.retry)}
            columns={STATE_CHANGE_COLUMNS}
            rowKey={(change) => `${change.at}-${change.to_state}`}
            loading="Cargando movimientos"
            failed={PROGRAMME_TEXTS.detailFailed}
            empty={{ title: '' }}
          />
        </>
      ) : null}
    </section>
  );
}

/** The dialog of the gesture under way, if it has one: its form, or the answer-lost / confirm-again dialog. */
function GestureDialogs({
  actions,
  corporates,
  collectible,
}: {
  actions: ProgrammeActionsState;
  corporates: readonly CorporateOption[];
  collectible: readonly CollectibleInvoice[];
}) {
  const { snapshot, send } = actions;
  const { intent, failure } = snapshot.context;
  if (!intent) return null;
  const action = intent.action as ProgrammeAction;
  const cancel = () => send({ type: 'action.cancel' });
  if (snapshot.matches('answerLost')) {
    return (
      <GestureDialog
        title={ACTION_TITLES[action]}
        failure={failure}
        confirm={PROGRAMME_TEXTS.retry}
        onConfirm={() => send({ type: 'action.retry' })}
        onCancel={cancel}
      />
    );
  }
  const editing = snapshot.matches('editing');
  // A form stays on screen while it is sent, so its values survive a refusal at its fields.
  const busy = snapshot.hasTag('busy');
  if (!editing && !(busy && intent.input !== null)) return null;
  const submit = (input: unknown) => send({ type: 'action.submit', input });
  const invoice = collectible.find((candidate) => candidate.invoice_id === intent.id);
  switch (action) {
    case 'propose':
      return (
        <ProposeDialog
          corporates={corporates}
          initialCorporateId={intent.id}
          busy={busy}
          failure={failure}
          onCancel={cancel}
          onPropose={submit}
        />
      );
    case 'freeze':
    case 'unfreeze':
      return (
        <ReasonDialog
          title={ACTION_TITLES[action]}
          busy={busy}
          failure={failure}
          onCancel={cancel}
          onConfirm={(reason) => submit({ reason })}
        />
      );
    case 'collect':
      if (invoice) {
        return (
          <CollectionDialog
            invoice={invoice}
            busy={busy}
            failure={failure}
            onCancel={cancel}
            onRecord={(body: RecordCollectionBody) => submit(body)}
          />
        );
      }
      break;
    case 'approve':
      break;
  }
  return (
    <GestureDialog
      title={ACTION_TITLES[action]}
      failure={failure}
      confirm={ACTION_TITLES[action]}
      onConfirm={() => submit(intent.input)}
      onCancel={cancel}
    />
  );
}

export function ProgrammesPage(props: ProgrammesPageProps) {
  const { list, operator, actions } = props;
  const { snapshot, send } = actions;
  const canPropose = operator.roles.includes('analista') || operator.roles.includes('aprobador');
  const programmes = list.status === 'success' ? (list.data?.results ?? []) : [];
  const pending = programmes.filter((programme) => programme.pending_proposal !== null);
  const busyOn = (action: ProgrammeAction, id: number) =>
    snapshot.hasTag('busy') &&
    snapshot.context.intent?.action === action &&
    snapshot.context.intent.id === id;
  const open = (action: ProgrammeAction, id: number | null, label: string) =>
    send({ type: 'action.open', intent: intentOf(action, id, label) });
  const detail = props.detail?.status === 'success' ? props.detail.data : undefined;

  const programmesList = (
    <BackOfficeList
      label="Programas de crédito"
      remote={list}
      columns={PROGRAMME_COLUMNS}
      rowKey={(programme) => programme.id}
      cardsBelow={1100}
      rowActions={(programme) => (
        <div className="programme-actions">
          <Button small text={PROGRAMME_TEXTS.detail} onClick={() => props.onSelect(programme.id)} />
          {canPropose && programme.pending_proposal === null ? (
            <Button
              small
              text="Proponer aumento"
              onClick={() => open('propose', programme.corporate_id, programme.corporate_name)}
            />
          ) : null}
          {accepts(programme, { type: 'programme.freeze', actor: operator, reason: '·' }) ? (
            <Button
              small
              intent="warning"
              text={PROGRAMME_TEXTS.freeze}
              onClick={() => open('freeze', programme.id, programme.corporate_name)}
            />
          ) : null}
          {/* Offered for a freeze for morosidad too: the server says whether the overdue is collected. */}
          {accepts(programme, {
            type: 'programme.unfreeze',
            actor: operator,
            reason: '·',
            overdueCollected: true,
          }) ? (
            <Button
              small
              text={PROGRAMME_TEXTS.unfreeze}
              onClick={() => open('unfreeze', programme.id, programme.corporate_name)}
            />
          ) : null}
        </div>
      )}
      loading={PROGRAMME_TEXTS.loading}
      failed={PROGRAMME_TEXTS.loadFailed}
      empty={{ title: PROGRAMME_TEXTS.empty }}
    />
  );

  return (
    // The operator shell holds the page's <main>.
    <div className="programmes-page">
      <div className="programmes-header">
        <h1 id="programas-titulo">{PROGRAMME_TEXTS.title}</h1>
        {canPropose ? (
          <Button
            intent="primary"
            text={PROGRAMME_TEXTS.propose}
            disabled={props.corporates.length === 0}
            onClick={() => open('propose', null, '')}
          />
        ) : null}
      </div>
      <p>{PROGRAMME_TEXTS.intro}</p>
      {programmes.some((programme) => programme.frozen_for === 'morosidad') ? (
        <Callout intent="warning" title={DELINQUENT_LABEL}>
          {DELINQUENCY_MESSAGES.frozenBanner}{' '}
          {programmes
            .filter((programme) => programme.frozen_for === 'morosidad')
            .map((programme) => programme.corporate_name)
            .join(', ')}
          .
        </Callout>
      ) : null}
      <div aria-live="polite">
        <OutcomeCallout
          outcome={gestureOutcome(actions.snapshot)}
          onDismiss={() => actions.send({ type: 'outcome.dismiss' })}
        />
      </div>

      {programmes.length > 0 ? (
        <>
          <section aria-labelledby="programas-pendientes">
            <h2 id="programas-pendientes">{PROGRAMME_TEXTS.pendingTitle}</h2>
            {/* Under an h2, a sentence rather than the list screen's empty state (its title is an h4). */}
            {pending.length === 0 ? (
              <p>{PROGRAMME_TEXTS.noPending}</p>
            ) : (
              <BackOfficeList
                label={PROGRAMME_TEXTS.pendingTitle}
                remote={loadedList(pending, list.retry)}
                columns={PENDING_COLUMNS}
                rowKey={(programme) => programme.id}
                rowActions={(programme) => {
                  const blocked = approveBlockedReason(programme, operator);
                  const button = (
                    <Button
                      intent="success"
                      text={PROGRAMME_TEXTS.approve}
                      disabled={blocked !== null}
                      aria-describedby={blocked ? `aprobar-motivo-${programme.id}` : undefined}
                      loading={busyOn('approve', programme.id)}
                      onClick={() =>
                        send({
                          type: 'action.run',
                          intent: intentOf('approve', programme.id, programme.corporate_name),
                        })
                      }
                    />
                  );
                  return blocked ? (
                    <>
                      <Tooltip content={blocked}>{button}</Tooltip>
                      <span id={`aprobar-motivo-${programme.id}`} className="programme-blocked">
                        {blocked}
                      </span>
                    </>
                  ) : (
                    button
                  );
                }}
                loading={PROGRAMME_TEXTS.loading}
                failed={PROGRAMME_TEXTS.loadFailed}
                empty={{ title: PROGRAMME_TEXTS.noPending }}
              />
            )}
          </section>

          <section aria-labelledby="programas-lista">
            <h2 id="programas-lista">Programas</h2>
            {programmesList}
          </section>
        </>
      ) : (
        programmesList
      )}

      {props.detail && props.selectedId !== null ? (
        <DetailPanel
          detail={props.detail}
          canCollect={holdsAnyRole(operator.roles, COLLECTION_ROLES)}
          onCollect={(invoice) => open('collect', invoice.invoice_id, invoice.invoice_label)}
          onClose={() => props.onSelect(null)}
        />
      ) : null}

      <GestureDialogs
        actions={actions}
        corporates={props.corporates}
        collectible={detail?.collectible ?? []}
      />
    </div>
  );
}
