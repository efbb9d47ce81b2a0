import {
  Button,
  Callout,
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
import './portfolio.css';
import { displayDate, displayDateTime } from '../../../domain/calendar-date';
import {
  COLLECTION_ACTION_LABELS,
  COLLECTION_ACTIONS,
  COLLECTION_LOG_ROLES,
  DELINQUENCY_MESSAGES,
} from '../../../domain/delinquency';
import { AGING_BUCKET_LABELS, AGING_BUCKETS } from '../../../domain/maturities';
import { formatMxn, parseMoney } from '../../../domain/money';
import { holdsAnyRole, type OperatorRole } from '../../../domain/operator-roles';
import {
  type AgingBuyer,
  type AgingInvoice,
  type AgingReport,
  type CollectionLog,
  CollectionLogBody,
  type CollectionLogEntry,
} from '../../../domain/schemas/delinquency';
import type { BackOfficeActionEvent, BackOfficeFailure } from '../../../machines/back-office-action';
import { DELINQUENT_LABEL } from '../../../machines/credit-programme.machine';
import type { portfolioActionsMachine } from '../../../machines/portfolio-actions.machine';
import { structResolver } from '../../common/struct-resolver';
import { TextField } from '../../common/text-field';
import { AnswerLostCallout, gestureOutcome, OutcomeCallout } from '../list/action-notices';
import { type BackOfficeColumn, BackOfficeList, loadedList, type RemoteData } from '../list/back-office-list';

// /operacion/cartera/ (issue 34, decision 0068): what buyers owe by age, from the collections (GET
// operator/aging/), the buyers whose programme is frozen for morosidad, one buyer's invoices with their
// moratory interest (shown, never charged) and its collection log. The form's call is the portfolio-actions
// machine's state, which the route runs (decision 0064).

export const PORTFOLIO_TEXTS = {
  title: 'Cartera',
  intro:
    'Lo que deben los compradores por antigüedad, calculado de los cobros registrados: al corriente y días ' +
    'después del vencimiento. El interés moratorio se muestra a la tasa de cada programa; no se cobra.',
  buyersTitle: 'Antigüedad por comprador',
  buyersEmpty: 'Ningún comprador debe adelantos.',
  loading: 'Cargando la cartera…',
  loadFailed: 'No pudimos cargar la cartera.',
  buyer: 'Comprador',
  allBuyers: 'Todos los compradores',
  invoicesTitle: (name: string) => `Facturas de ${name}`,
  invoicesEmpty: 'Este comprador no debe facturas adelantadas.',
  logTitle: 'Bitácora de cobranza',
  logEmpty: 'Aún no hay gestiones registradas.',
  logFailed: 'No pudimos cargar la bitácora.',
  record: 'Registrar gestión',
  recorded: 'Gestión registrada en la bitácora.',
  showInvoices: 'Ver facturas',
  total: 'Total',
  moratory: 'Interés moratorio',
  action: 'Acción',
  promisedOn: 'Fecha prometida de pago',
  note: 'Nota',
  cancel: 'Cancelar',
} as const;

export interface PortfolioActionsState {
  snapshot: SnapshotFrom<typeof portfolioActionsMachine>;
  send(event: BackOfficeActionEvent): void;
}

export interface PortfolioPageProps {
  /** The whole portfolio (totals and every buyer). */
  report: RemoteData<AgingReport>;
  /** The chosen buyer's report (its invoices), null without a buyer. */
  buyerReport: RemoteData<AgingReport> | null;
  corporateId: number | null;
  onCorporate(corporateId: number | null): void;
  log: RemoteData<CollectionLog> | null;
  roles: readonly OperatorRole[];
  actions: PortfolioActionsState;
}

const money = (amount: string) => formatMxn(parseMoney(amount));

const bucketColumns = <Row,>(buckets: (row: Row) => Record<string, string>): BackOfficeColumn<Row>[] =>
  AGING_BUCKETS.map((bucket) => ({
    id: bucket,
    header: AGING_BUCKET_LABELS[bucket],
    cell: (row: Row) => money(buckets(row)[bucket] ?? '0.00'),
  }));

function frozenTag(buyer: AgingBuyer) {
  return buyer.frozen_for === 'morosidad' ? (
    <Tag intent="danger" minimal>
      {DELINQUENT_LABEL}
    </Tag>
  ) : null;
}

const BUYER_COLUMNS: readonly BackOfficeColumn<AgingBuyer>[] = [
  {
    id: 'buyer',
    header: 'Comprador',
    rowHeader: true,
    cell: (buyer) => (
      <span className="portfolio-buyer">
        {buyer.corporate_name} {frozenTag(buyer)}
      </span>
    ),
  },
  ...bucketColumns<AgingBuyer>((buyer) => buyer.totals.buckets),
  { id: 'total', header: PORTFOLIO_TEXTS.total, cell: (buyer) => money(buyer.totals.outstanding) },
  {
    id: 'moratory',
    header: PORTFOLIO_TEXTS.moratory,
    cell: (buyer) => money(buyer.totals.moratory_interest),
  },
  {
    id: 'late',
    header: 'Máx. días de atraso',
    cell: (buyer) => String(buyer.max_days_past_due),
  },
];

const INVOICE_COLUMNS: readonly BackOfficeColumn<AgingInvoice>[] = [
  { id: 'invoice', header: 'Factura', rowHeader: true, cell: (invoice) => invoice.label },
  { id: 'provider', header: 'Proveedor', cell: (invoice) => invoice.provider_name },
  { id: 'due', header: 'Vence', cell: (invoice) => displayDate(invoice.due_on) },
  { id: 'late', header: 'Días de atraso', cell: (invoice) => String(invoice.days_past_due) },
  { id: 'bucket', header: 'Tramo', cell: (invoice) => AGING_BUCKET_LABELS[invoice.bucket] },
  { id: 'value', header: 'Valor', cell: (invoice) => money(invoice.value) },
  { id: 'collected', header: 'Cobrado', cell: (invoice) => money(invoice.collected) },
  { id: 'outstanding', header: 'Por cobrar', cell: (invoice) => money(invoice.outstanding) },
  { id: 'moratory', header: PORTFOLIO_TEXTS.moratory, cell: (invoice) => money(invoice.moratory_interest) },
];

const LOG_COLUMNS: readonly BackOfficeColumn<CollectionLogEntry>[] = [
  { id: 'when', header: 'Cuándo', cell: (entry) => displayDateTime(entry.recorded_at) },
  {
    id: 'action',
    header: PORTFOLIO_TEXTS.action,
    rowHeader: true,
    cell: (entry) => COLLECTION_ACTION_LABELS[entry.action],
  },
  {
    id: 'promised',
    header: 'Promete pagar',
    cell: (entry) => (entry.promised_on ? displayDate(entry.promised_on) : '—'),
  },
  { id: 'note', header: PORTFOLIO_TEXTS.note, cell: (entry) => entry.note || '—' },
  { id: 'who', header: 'Quién', cell: (entry) => entry.recorded_by_username },
];

function LogDialog({
  buyerName,
  busy,
  failure,
  onCancel,
  onRecord,
}: {
  buyerName: string;
  busy: boolean;
  failure: BackOfficeFailure | null;
  onCancel(): void;
  onRecord(body: CollectionLogBody): void;
}) {
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<CollectionLogBody>({
    resolver: structResolver(CollectionLogBody),
    defaultValues: { action: 'llamada', note: '', promised_on: null },
  });
  const action = watch('action');
  const noteError = errors.note?.message ?? failure?.fields.note?.[0];
  const note = register('note');
  return (
    <Dialog isOpen title={`${PORTFOLIO_TEXTS.record}: ${buyerName}`} onClose={onCancel}>
      <DialogBody>
        {failure?.message ? (
          <Callout intent="danger" role="alert">
            {failure.message}
          </Callout>
        ) : null}
        <FormGroup label={PORTFOLIO_TEXTS.action} labelFor="cartera-accion">
          <HTMLSelect
            id="cartera-accion"
            fill
            options={COLLECTION_ACTIONS.map((value) => ({ value, label: COLLECTION_ACTION_LABELS[value] }))}
            {...register('action')}
          />
        </FormGroup>
        {action === 'promesa_de_pago' ? (
          <TextField
            id="cartera-fecha-prometida"
            label={PORTFOLIO_TEXTS.promisedOn}
            type="date"
            error={errors.promised_on?.message ?? failure?.fields.promised_on?.[0]}
            registration={register('promised_on', { setValueAs: (value) => (value ? value : null) })}
          />
        ) : null}
        <FormGroup
          label={PORTFOLIO_TEXTS.note}
          labelFor="cartera-nota"
          intent={noteError ? 'danger' : 'none'}
          helperText={noteError}
        >
          <TextArea
            id="cartera-nota"
            fill
            inputRef={note.ref}
            name={note.name}
            onChange={note.onChange}
            onBlur={note.onBlur}
          />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={PORTFOLIO_TEXTS.cancel} disabled={busy} onClick={onCancel} />
            <Button
              intent="primary"
              text={PORTFOLIO_TEXTS.record}
              loading={busy}
              onClick={handleSubmit((values) =>
                onRecord(values.action === 'promesa_de_pago' ? values : { ...values, promised_on: null }),
              )}
            />
          </>
        }
      />
    </Dialog>
  );
}

function Totals({ report }: { report: AgingReport }) {
  return (
    <dl className="portfolio-totals" aria-label="Totales de la cartera">
      {AGING_BUCKETS.map((bucket) => (
        <div key={bucket}>
          <dt>{AGING_BUCKET_LABELS[bucket]}</dt>
          <dd>{money(report.totals.buckets[bucket] ?? '0.00')}</dd>
        </div>
      ))}
      <div>
        <dt>{PORTFOLIO_TEXTS.total}</dt>
        <dd>{money(report.totals.outstanding)}</dd>
      </div>
      <div>
        <dt>{PORTFOLIO_TEXTS.moratory}</dt>
        <dd>{money(report.totals.moratory_interest)}</dd>
      </div>
    </dl>
  );
}

export function PortfolioPage(props: PortfolioPageProps) {
  const { report, buyerReport, corporateId, actions } = props;
  const { snapshot, send } = actions;
  const data = report.status === 'success' ? report.data : undefined;
  const buyers = data?.buyers ?? [];
  const frozen = buyers.filter((buyer) => buyer.frozen_for === 'morosidad');
  const chosen = buyerReport?.status === 'success' ? buyerReport.data?.buyers[0] : undefined;
  const chosenName =
    chosen?.corporate_name ??
    buyers.find((buyer) => buyer.corporate_id === corporateId)?.corporate_name ??
    '';
  const mayRecord = holdsAnyRole(props.roles, COLLECTION_LOG_ROLES);
  const editing =
    snapshot.matches('editing') || (snapshot.hasTag('busy') && snapshot.context.intent?.input != null);
  const answerLost = snapshot.matches('answerLost');
  return (
    <div className="portfolio-page">
      <h1>{PORTFOLIO_TEXTS.title}</h1>
      <p>{PORTFOLIO_TEXTS.intro}</p>
      {frozen.length > 0 ? (
        <Callout intent="warning" title={DELINQUENT_LABEL}>
          {DELINQUENCY_MESSAGES.frozenBanner} {frozen.map((buyer) => buyer.corporate_name).join(', ')}.
        </Callout>
      ) : null}
      <div aria-live="polite">
        <OutcomeCallout
          outcome={gestureOutcome(snapshot, PORTFOLIO_TEXTS.recorded)}
          onDismiss={() => send({ type: 'outcome.dismiss' })}
        />
      </div>
      {data ? <Totals report={data} /> : null}
      <FormGroup label={PORTFOLIO_TEXTS.buyer} labelFor="cartera-comprador" inline>
        <HTMLSelect
          id="cartera-comprador"
          value={corporateId ?? ''}
          onChange={(event) => props.onCorporate(event.target.value ? Number(event.target.value) : null)}
          options={[
            { value: '', label: PORTFOLIO_TEXTS.allBuyers },
            ...buyers.map((buyer) => ({ value: buyer.corporate_id, label: buyer.corporate_name })),
          ]}
        />
      </FormGroup>
      <section aria-labelledby="cartera-compradores">
        <h2 id="cartera-compradores">{PORTFOLIO_TEXTS.buyersTitle}</h2>
        <BackOfficeList
          label={PORTFOLIO_TEXTS.buyersTitle}
          remote={data ? loadedList(buyers, report.retry) : { ...report, data: undefined }}
          columns={BUYER_COLUMNS}
          rowKey={(buyer) => buyer.corporate_id}
          cardsBelow={1100}
          rowActions={(buyer) => (
            <Button
              small
              text={PORTFOLIO_TEXTS.showInvoices}
              onClick={() => props.onCorporate(buyer.corporate_id)}
            />
          )}
          loading={PORTFOLIO_TEXTS.loading}
          failed={PORTFOLIO_TEXTS.loadFailed}
          empty={{ title: PORTFOLIO_TEXTS.buyersEmpty, level: 3 }}
        />
      </section>
      {corporateId !== null && buyerReport ? (
        <>
          <section aria-labelledby="cartera-facturas">
            <h2 id="cartera-facturas">{PORTFOLIO_TEXTS.invoicesTitle(chosenName)}</h2>
            {chosen ? (
              <p>
                {chosen.grace_days === null
                  ? 'Sin programa de crédito.'
                  : `${chosen.grace_days} días de gracia; moratorio ${chosen.moratory_rate} % anual.`}{' '}
                {frozenTag(chosen)}
              </p>
            ) : null}
            <BackOfficeList
              label={PORTFOLIO_TEXTS.invoicesTitle(chosenName)}
              remote={
                buyerReport.status === 'success' && buyerReport.data
                  ? loadedList(buyerReport.data.invoices.results, buyerReport.retry)
                  : { ...buyerReport, data: undefined }
              }
              columns={INVOICE_COLUMNS}
              rowKey={(invoice) => invoice.invoice_id}
              cardsBelow={1100}
              loading={PORTFOLIO_TEXTS.loading}
              failed={PORTFOLIO_TEXTS.loadFailed}
              empty={{ title: PORTFOLIO_TEXTS.invoicesEmpty, level: 3 }}
            />
          </section>
          <section aria-labelledby="cartera-bitacora">
            <div className="portfolio-log-header">
              <h2 id="cartera-bitacora">{PORTFOLIO_TEXTS.logTitle}</h2>
              {mayRecord ? (
                <Button
                  intent="primary"
                  text={PORTFOLIO_TEXTS.record}
                  onClick={() =>
                    send({
                      type: 'action.open',
                      intent: { action: 'log', id: corporateId, label: chosenName, input: null },
                    })
                  }
                />
              ) : null}
            </div>
            {answerLost ? (
              <AnswerLostCallout
                message={snapshot.context.failure?.message}
                onRetry={() => send({ type: 'action.retry' })}
                onCancel={() => send({ type: 'action.cancel' })}
              />
            ) : null}
            {props.log ? (
              <BackOfficeList
                label={PORTFOLIO_TEXTS.logTitle}
                remote={
                  props.log.status === 'success' && props.log.data
                    ? loadedList(props.log.data.results, props.log.retry)
                    : { ...props.log, data: undefined }
                }
                columns={LOG_COLUMNS}
                rowKey={(entry) => entry.id}
                loading={PORTFOLIO_TEXTS.loading}
                failed={PORTFOLIO_TEXTS.logFailed}
                empty={{ title: PORTFOLIO_TEXTS.logEmpty, level: 3 }}
              />
            ) : null}
          </section>
        </>
      ) : null}
      {editing ? (
        <LogDialog
          buyerName={snapshot.context.intent?.label ?? chosenName}
          busy={snapshot.hasTag('busy')}
          failure={snapshot.context.failure}
          onCancel={() => send({ type: 'action.cancel' })}
          onRecord={(body) => send({ type: 'action.submit', input: body })}
        />
      ) : null}
    </div>
  );
}
