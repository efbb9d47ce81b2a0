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
} from '@blueprintjs/core';
import { useForm } from 'react-hook-form';
import type { SnapshotFrom } from 'xstate';
import './exposure.css';
import { ACTION_FAILED } from '../../../domain/call-failure';
import { CAP_KIND_LABELS, CAP_SCOPE_LABELS, type CapScope } from '../../../domain/concentration';
import { formatMxn, parseMoney } from '../../../domain/money';
import type { CapView, ExposureAnswer, ExposureRow, ProposeCapBody } from '../../../domain/schemas/exposure';
import type { BackOfficeActionEvent, BackOfficeFailure } from '../../../machines/back-office-action';
import { type CapActor, capAccepts } from '../../../machines/concentration-cap.machine';
import type { exposureActionsMachine } from '../../../machines/exposure-actions.machine';
import { TextField } from '../../common/text-field';
import { gestureOutcome, OutcomeCallout } from '../list/action-notices';
import { type BackOfficeColumn, BackOfficeList, loadedList, type RemoteData } from '../list/back-office-list';

// /operacion/exposicion/ (issue 34, decision 0069): Flujo's exposure by buyer, economic group and supplier with
// the cap in force on each, the programmes' utilisation, the maturity ladder as bars, and the caps with their
// four-eyes gestures. Which buttons a cap offers is the concentration-cap machine's answer for this operator;
// the gesture under way is the exposure-actions machine's state, which the route runs (decision 0064).

export const EXPOSURE_TEXTS = {
  title: 'Exposición y concentración',
  intro:
    'Saldo insoluto (adelantos dispersados menos cobros) y reservado (adelantos solicitados) de Flujo. Un tope de ' +
    'concentración limita a un comprador, un grupo económico o un proveedor; entra en vigor cuando lo aprueba un ' +
    'Aprobador distinto de quien lo propuso, y cada «Adelantar pago» y la mesa de control lo verifican.',
  loading: 'Cargando exposición…',
  loadFailed: 'No pudimos cargar la exposición.',
  propose: 'Proponer tope',
  approve: 'Aprobar',
  reject: 'Rechazar',
  ownProposal: 'Tú propusiste este tope: debe aprobarlo otro Aprobador.',
} as const;

export const EXPOSURE_OUTCOMES = {
  propose: 'Tope enviado a aprobación.',
  approve: (subject: string) => `Tope de ${subject} aprobado: ya está vigente.`,
  reject: (subject: string) => `Tope de ${subject} rechazado.`,
} as const;

export type ExposureAction = 'propose' | 'approve' | 'reject';

export interface ExposureActionsState {
  snapshot: SnapshotFrom<typeof exposureActionsMachine>;
  send(event: BackOfficeActionEvent): void;
}

export interface SubjectOption {
  scope: CapScope;
  /** The company's id, or the group's name. */
  key: number | string;
  name: string;
}

export interface ExposurePageProps {
  report: RemoteData<ExposureAnswer>;
  caps: RemoteData<{ results: readonly CapView[]; viewer: { id: number; roles: CapActor['roles'] } }>;
  actions: ExposureActionsState;
}

const money = (amount: string) => formatMxn(parseMoney(amount));

function Utilisation({ percentage, label }: { percentage: number; label: string }) {
  const fraction = Math.min(1, percentage / 100);
  return (
    <div className="exposure-utilisation">
      <ProgressBar
        value={fraction}
        animate={false}
        stripes={false}
        intent={fraction >= 0.9 ? 'danger' : fraction >= 0.7 ? 'warning' : 'success'}
        aria-label={`${label} ${percentage.toFixed(2)} %`}
      />
      <span>{percentage.toFixed(2)} %</span>
    </div>
  );
}

function subjectColumns(header: string): readonly BackOfficeColumn<ExposureRow>[] {
  return [
    { id: 'name', header, cell: (row) => row.name, rowHeader: true },
    { id: 'outstanding', header: 'Saldo insoluto', cell: (row) => money(row.outstanding) },
    { id: 'reserved', header: 'Reservado', cell: (row) => money(row.reserved) },
    { id: 'share', header: 'Participación', cell: (row) => `${row.share_percentage.toFixed(2)} %` },
    {
      id: 'cap',
      header: 'Tope vigente',
      cell: (row) =>
        row.cap === null ? (
          'Sin tope'
        ) : (
          <>
            {row.cap.limit_text}
            {row.cap.exceeded ? (
              <Tag intent="danger" minimal className="exposure-tag">
                Rebasado
              </Tag>
            ) : null}
          </>
        ),
    },
    {
      id: 'utilisation',
      header: 'Uso del tope',
      cell: (row) =>
        row.cap === null ? (
          '—'
        ) : (
          <Utilisation percentage={row.cap.utilisation_percentage} label="Uso del tope" />
        ),
    },
  ];
}

const BUYER_COLUMNS = subjectColumns('Comprador');
const GROUP_COLUMNS = subjectColumns('Grupo económico');
const SUPPLIER_COLUMNS = subjectColumns('Proveedor');

type ProgrammeRow = ExposureAnswer['programmes'][number];
const PROGRAMME_COLUMNS: readonly BackOfficeColumn<ProgrammeRow>[] = [
  { id: 'corporate', header: 'Corporativo', cell: (row) => row.corporate_name, rowHeader: true },
  { id: 'limit', header: 'Límite', cell: (row) => money(row.limit) },
  { id: 'reserved', header: 'Reservado', cell: (row) => money(row.reserved) },
  { id: 'used', header: 'Usado', cell: (row) => money(row.used) },
  {
    id: 'utilisation',
    header: 'Utilización',
    cell: (row) => <Utilisation percentage={row.utilisation_percentage} label="Utilización" />,
  },
];

const CAP_COLUMNS: readonly BackOfficeColumn<CapView>[] = [
  { id: 'subject', header: 'Sujeto', cell: (cap) => cap.subject, rowHeader: true },
  { id: 'scope', header: 'Tipo', cell: (cap) => CAP_SCOPE_LABELS[cap.scope] },
  { id: 'limit', header: 'Tope', cell: (cap) => cap.limit_text },
  {
    id: 'status',
    header: 'Estado',
    cell: (cap) => (
      <Tag minimal intent={cap.status === 'vigente' ? 'success' : 'primary'}>
        {cap.status_label}
      </Tag>
    ),
  },
  { id: 'proposer', header: 'Propuso', cell: (cap) => cap.proposed_by_username },
  { id: 'decider', header: 'Aprobó', cell: (cap) => cap.decided_by_username ?? '—' },
];

/** The maturity ladder as horizontal bars, each labelled with its amount (the bars compare, the text reads). */
function Ladder({ ladder }: { ladder: ExposureAnswer['ladder'] }) {
  const largest = Math.max(1, ...ladder.map((rung) => parseMoney(rung.outstanding)));
  return (
    <figure className="exposure-ladder" aria-labelledby="escalera-titulo">
      <figcaption id="escalera-titulo">Escalera de vencimientos del saldo insoluto</figcaption>
      <ul>
        {ladder.map((rung) => {
          const amount = parseMoney(rung.outstanding);
          return (
            <li key={rung.bucket} className={`exposure-ladder__rung exposure-ladder__rung--${rung.bucket}`}>
              <span className="exposure-ladder__label">{rung.label}</span>
              <span className="exposure-ladder__track" aria-hidden="true">
                <span className="exposure-ladder__bar" style={{ width: `${(amount / largest) * 100}%` }} />
              </span>
              <span className="exposure-ladder__amount">
                {formatMxn(amount)}
                <small>
                  {rung.invoices} {rung.invoices === 1 ? 'factura' : 'facturas'}
                </small>
              </span>
            </li>
          );
        })}
      </ul>
    </figure>
  );
}

function ProposeCapDialog({
  subjects,
  busy,
  failure,
  onCancel,
  onPropose,
}: {
  subjects: readonly SubjectOption[];
  busy: boolean;
  failure: BackOfficeFailure | null;
  onCancel(): void;
  onPropose(body: ProposeCapBody): void;
}) {
  const { register, handleSubmit, watch, formState } = useForm<{
    subject: string;
    kind: 'amount' | 'percent';
    value: string;
  }>({
    defaultValues: { subject: '0', kind: 'amount', value: '' },
  });
  const kind = watch('kind');
  const valueError = formState.errors.value?.message ?? failure?.fields.value?.[0];
  const submit = handleSubmit((values) => {
    const subject = subjects[Number(values.subject)] ?? subjects[0];
    if (!subject) return;
    onPropose({
      scope: subject.scope,
      kind: values.kind,
      value: values.value.trim(),
      ...(subject.scope === 'group' ? { group: String(subject.key) } : { company_id: Number(subject.key) }),
    });
  });
  return (
    <Dialog isOpen title={EXPOSURE_TEXTS.propose} onClose={onCancel}>
      <DialogBody>
        {failure?.message ? (
          <Callout intent="danger" role="alert">
            {failure.message}
          </Callout>
        ) : null}
        <FormGroup label="Comprador, grupo o proveedor" labelFor="tope-sujeto">
          <HTMLSelect
            id="tope-sujeto"
            fill
            options={subjects.map((subject, index) => ({
              value: String(index),
              label: `${CAP_SCOPE_LABELS[subject.scope]}: ${subject.name}`,
            }))}
            {...register('subject')}
          />
        </FormGroup>
        <FormGroup label="Tipo de tope" labelFor="tope-tipo">
          <HTMLSelect
            id="tope-tipo"
            fill
            options={(['amount', 'percent'] as const).map((value) => ({
              value,
              label: CAP_KIND_LABELS[value],
            }))}
            {...register('kind')}
          />
        </FormGroup>
        <TextField
          id="tope-valor"
          label={kind === 'percent' ? 'Porcentaje máximo (%)' : 'Monto máximo (MXN)'}
          type="text"
          placeholder={kind === 'percent' ? '25' : '5000000.00'}
          error={valueError}
          registration={register('value')}
        />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancelar" disabled={busy} onClick={onCancel} />
            <Button intent="primary" text="Enviar a aprobación" loading={busy} onClick={submit} />
          </>
        }
      />
    </Dialog>
  );
}

function GestureDialogs({
  actions,
  subjects,
}: {
  actions: ExposureActionsState;
  subjects: readonly SubjectOption[];
}) {
  const { snapshot, send } = actions;
  const { intent, failure } = snapshot.context;
  if (!intent) return null;
  const cancel = () => send({ type: 'action.cancel' });
  const busy = snapshot.hasTag('busy');
  if (snapshot.matches('answerLost') || (intent.action !== 'propose' && snapshot.matches('editing'))) {
    const reasons = [failure?.message, ...Object.values(failure?.fields ?? {}).flat()].filter(Boolean);
    const retry = snapshot.matches('answerLost');
    return (
      <Dialog isOpen title={EXPOSURE_TEXTS[intent.action as ExposureAction]} onClose={cancel}>
        <DialogBody>
          <Callout intent="danger" role="alert">
            {reasons.length > 0 ? reasons.join(' ') : ACTION_FAILED}
          </Callout>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancelar" onClick={cancel} />
              <Button
                intent="primary"
                text={retry ? 'Reintentar' : 'Confirmar'}
                onClick={() =>
                  send(retry ? { type: 'action.retry' } : { type: 'action.submit', input: intent.input })
                }
              />
            </>
          }
        />
      </Dialog>
    );
  }
  if (intent.action !== 'propose' || !(snapshot.matches('editing') || (busy && intent.input !== null)))
    return null;
  return (
    <ProposeCapDialog
      subjects={subjects}
      busy={busy}
      failure={failure}
      onCancel={cancel}
      onPropose={(body) => send({ type: 'action.submit', input: body })}
    />
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="exposure-figure">
      <span>{label}</span>
      <strong>{value}</strong>
    </div>
  );
}

export function ExposurePage({ report, caps, actions }: ExposurePageProps) {
  const { snapshot, send } = actions;
  const viewer: CapActor = { userId: caps.data?.viewer.id ?? 0, roles: caps.data?.viewer.roles ?? [] };
  const canPropose = viewer.roles.includes('analista') || viewer.roles.includes('aprobador');
  const data = report.status === 'success' ? report.data : undefined;
  const subjects: SubjectOption[] = data
    ? [
        ...data.buyers.map((row) => ({ scope: 'buyer' as const, key: row.company_id ?? 0, name: row.name })),
        ...data.groups.map((row) => ({ scope: 'group' as const, key: row.name, name: row.name })),
        ...data.suppliers.map((row) => ({
          scope: 'supplier' as const,
          key: row.company_id ?? 0,
          name: row.name,
        })),
      ]
    : [];
  const capActor = (cap: CapView) => ({ status: cap.status, proposerId: cap.proposed_by });
  const section = (
    id: string,
    title: string,
    rows: readonly ExposureRow[],
    columns: readonly BackOfficeColumn<ExposureRow>[],
    empty: string,
  ) => (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <BackOfficeList
        label={title}
        remote={loadedList(rows, report.retry)}
        columns={columns}
        rowKey={(row) => `${row.company_id ?? ''}-${row.name}`}
        cardsBelow={1100}
        loading={EXPOSURE_TEXTS.loading}
        failed={EXPOSURE_TEXTS.loadFailed}
        empty={{ title: empty, level: 3 }}
      />
    </section>
  );
  return (
    <div className="exposure-page">
      <div className="exposure-header">
        <h1>{EXPOSURE_TEXTS.title}</h1>
        {canPropose ? (
          <Button
            intent="primary"
            text={EXPOSURE_TEXTS.propose}
            disabled={subjects.length === 0}
            onClick={() =>
              send({ type: 'action.open', intent: { action: 'propose', id: null, label: '', input: null } })
            }
          />
        ) : null}
      </div>
      <p>{EXPOSURE_TEXTS.intro}</p>
      <div aria-live="polite">
        <OutcomeCallout
          outcome={gestureOutcome(snapshot)}
          onDismiss={() => send({ type: 'outcome.dismiss' })}
        />
      </div>
      <GestureDialogs actions={actions} subjects={subjects} />
      {report.status === 'pending' || report.status === 'error' || !data ? (
        <BackOfficeList
          label={EXPOSURE_TEXTS.title}
          remote={{ ...report, data: undefined }}
          columns={[]}
          rowKey={() => 0}
          loading={EXPOSURE_TEXTS.loading}
          failed={EXPOSURE_TEXTS.loadFailed}
          empty={{ title: '' }}
        />
      ) : (
        <>
          <div className="exposure-figures">
            <Figure label="Exposición total" value={money(data.total_exposure)} />
            <Figure label="Saldo insoluto" value={money(data.total_outstanding)} />
            <Figure label="Reservado" value={money(data.total_reserved)} />
          </div>
          <Ladder ladder={data.ladder} />
          {section(
            'exposicion-compradores',
            'Por comprador',
            data.buyers,
            BUYER_COLUMNS,
            'Ningún comprador tiene saldo ni reservas.',
          )}
          {section(
            'exposicion-grupos',
            'Por grupo económico',
            data.groups,
            GROUP_COLUMNS,
            'Ningún corporativo tiene grupo económico en su expediente.',
          )}
          {section(
            'exposicion-proveedores',
            'Por proveedor',
            data.suppliers,
            SUPPLIER_COLUMNS,
            'Ningún proveedor tiene saldo ni reservas.',
          )}
          <section aria-labelledby="exposicion-programas">
            <h2 id="exposicion-programas">Utilización de los programas</h2>
            <BackOfficeList
              label="Utilización de los programas"
              remote={loadedList(data.programmes, report.retry)}
              columns={PROGRAMME_COLUMNS}
              rowKey={(row) => row.programme_id}
              loading={EXPOSURE_TEXTS.loading}
              failed={EXPOSURE_TEXTS.loadFailed}
              empty={{ title: 'Aún no hay programas de crédito.', level: 3 }}
            />
          </section>
        </>
      )}
      <section aria-labelledby="exposicion-topes">
        <h2 id="exposicion-topes">Topes de concentración</h2>
        <BackOfficeList
          label="Topes de concentración"
          remote={{ ...caps, data: caps.data ? { results: caps.data.results } : undefined }}
          columns={CAP_COLUMNS}
          rowKey={(cap) => cap.id}
          cardsBelow={1100}
          rowActions={(cap) => {
            const mayApprove = capAccepts(capActor(cap), { type: 'cap.approve', actor: viewer });
            const mayReject = capAccepts(capActor(cap), { type: 'cap.reject', actor: viewer });
            if (cap.status !== 'propuesto') return null;
            const own = cap.proposed_by === viewer.userId && viewer.roles.includes('aprobador');
            const intent = (action: ExposureAction) => ({
              action,
              id: cap.id,
              label: cap.subject,
              input: null,
            });
            return (
              <div className="exposure-actions">
                {mayApprove ? (
                  <Button
                    small
                    intent="primary"
                    text={EXPOSURE_TEXTS.approve}
                    onClick={() => send({ type: 'action.run', intent: intent('approve') })}
                  />
                ) : own ? (
                  <span className="exposure-note">{EXPOSURE_TEXTS.ownProposal}</span>
                ) : null}
                {mayReject ? (
                  <Button
                    small
                    text={EXPOSURE_TEXTS.reject}
                    onClick={() => send({ type: 'action.run', intent: intent('reject') })}
                  />
                ) : null}
              </div>
            );
          }}
          loading="Cargando topes…"
          failed="No pudimos cargar los topes."
          empty={{ title: 'Aún no hay topes de concentración.', level: 3 }}
        />
      </section>
    </div>
  );
}
