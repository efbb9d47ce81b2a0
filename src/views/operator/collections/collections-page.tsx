import { Button, Callout, FormGroup, InputGroup, Spinner, Tag } from '@blueprintjs/core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { SnapshotFrom } from 'xstate';
import {
  BANK_STATEMENT_COLUMN_MEANINGS,
  BANK_STATEMENT_COLUMNS,
  BANK_STATEMENT_MAX_BYTES,
  BANK_STATEMENT_MAX_LINES,
  BANK_STATEMENT_SAMPLE,
  bankStatementCsv,
  PAYMENT_KIND_LABELS,
  UNIDENTIFIED_APPROVAL_THRESHOLD,
} from '../../../domain/bank-statement';
import { formatMoneyAmount, formatMxn, parseMoney } from '../../../domain/money';
import type {
  BankStatementLineResult,
  BankStatementResult,
  BuyerCredit,
  BuyerCreditList,
  UnidentifiedPage,
  UnidentifiedPayment,
} from '../../../domain/schemas/bank-statement';
import type { BackOfficeActionEvent, BackOfficeActionMachine } from '../../../machines/back-office-action';
import {
  resolveUnidentifiedSnapshot,
  UNIDENTIFIED_STATE_LABELS,
} from '../../../machines/unidentified-payment.machine';
import { formatDisplayDate } from '../../invoices/invoice-format';
import { CsvFileFormat } from '../csv-file-format';
import { AnswerLostCallout } from '../list/action-notices';
import { type BackOfficeColumn, BackOfficeList, loadedList, type RemoteData } from '../list/back-office-list';
import '../disbursements/disbursements-page.css';
import './collections-page.css';

export type CollectionActionsSnapshot = SnapshotFrom<BackOfficeActionMachine>;

export interface CollectionsPageProps {
  queue: RemoteData<UnidentifiedPage>;
  credits: RemoteData<BuyerCreditList>;
  /** The last bank statement's answer in this session, or null. */
  lastStatement: BankStatementResult | null;
  actions: CollectionActionsSnapshot;
  send: (event: BackOfficeActionEvent) => void;
}

/** How a statement went, in the operator's words (the server's summary). */
export function statementSummary(result: BankStatementResult): string {
  return result.message;
}

const STATE_INTENTS = {
  pendiente: 'warning',
  propuesta: 'primary',
  aplicada: 'success',
  devuelta: 'none',
} as const;
const KIND_INTENTS = {
  exacta: 'success',
  parcial: 'primary',
  sobrepago: 'warning',
  no_identificada: 'danger',
  repetida: 'none',
} as const;

const QUEUE_COLUMNS: readonly BackOfficeColumn<UnidentifiedPayment>[] = [
  { id: 'clave', header: 'Clave de rastreo', cell: (row) => row.clave_rastreo, rowHeader: true },
  { id: 'fecha', header: 'Fecha', cell: (row) => formatDisplayDate(row.fecha) },
  { id: 'monto', header: 'Monto', cell: (row) => formatMxn(parseMoney(row.amount)) },
  {
    id: 'ordenante',
    header: 'Ordenante',
    cell: (row) => (
      <>
        {row.nombre_ordenante || '—'}
        <div className="dispersiones-secundario">{row.rfc_ordenante ?? 'Sin RFC'}</div>
      </>
    ),
  },
  { id: 'referencia', header: 'Referencia', cell: (row) => row.referencia || '—' },
  {
    id: 'estado',
    header: 'Estado',
    cell: (row) => (
      <>
        <Tag minimal intent={STATE_INTENTS[row.state]}>
          {UNIDENTIFIED_STATE_LABELS[row.state]}
        </Tag>
        {row.state === 'propuesta' && (
          <div className="dispersiones-secundario">
            A la factura {row.invoice_id}, propuso {row.proposed_by_username}
          </div>
        )}
        {row.state === 'pendiente' && row.needs_approval && (
          <div className="dispersiones-secundario">Requiere aprobación de otra persona</div>
        )}
        {row.reason && <div className="dispersiones-secundario">{row.reason}</div>}
      </>
    ),
  },
];

const CREDIT_COLUMNS: readonly BackOfficeColumn<BuyerCredit>[] = [
  { id: 'corporativo', header: 'Corporativo', cell: (row) => row.corporate_name, rowHeader: true },
  { id: 'rfc', header: 'RFC', cell: (row) => row.rfc ?? '—' },
  { id: 'saldo', header: 'Saldo a favor', cell: (row) => formatMxn(parseMoney(row.balance)) },
];

const LINE_COLUMNS: readonly BackOfficeColumn<BankStatementLineResult>[] = [
  { id: 'linea', header: 'Línea', cell: (row) => row.line },
  { id: 'clave', header: 'Clave de rastreo', cell: (row) => row.clave_rastreo, rowHeader: true },
  { id: 'monto', header: 'Monto', cell: (row) => formatMxn(parseMoney(row.monto)) },
  {
    id: 'resultado',
    header: 'Resultado',
    cell: (row) => (
      <>
        <Tag minimal intent={KIND_INTENTS[row.kind]}>
          {PAYMENT_KIND_LABELS[row.kind]}
        </Tag>
        <div className="dispersiones-secundario">{row.message}</div>
      </>
    ),
  },
  {
    id: 'facturas',
    header: 'Facturas',
    cell: (row) => (row.invoice_ids.length > 0 ? row.invoice_ids.join(', ') : '—'),
  },
];

/**
 * /operacion/cobranza/: the bank's statement of incoming SPEI (its format and a sample on the page), what the last
 * one did line by line, the unidentified payments with the gestures their machine allows, and each buyer's saldo
 * a favor. The gestures are the collection-actions machine's; the values typed in a form are the page's own.
 */
export function CollectionsPage({ queue, credits, lastStatement, actions, send }: CollectionsPageProps) {
  const busy = actions.hasTag('busy');
  const intent = actions.context.intent;
  const editing = actions.matches('editing') ? intent : null;
  const failure =
    actions.matches({ ready: 'refused' }) || actions.matches('editing') ? actions.context.failure : null;
  const notice = actions.matches({ ready: 'succeeded' }) ? actions.context.outcome : null;
  const input = useRef<HTMLInputElement>(null);
  const choosing = actions.matches('editing') && intent?.action === 'upload';
  useEffect(() => {
    const element = input.current;
    if (!element || !choosing) return;
    const cancel = () => send({ type: 'action.cancel' });
    element.addEventListener('cancel', cancel);
    return () => element.removeEventListener('cancel', cancel);
  }, [choosing, send]);
  const uploadIntent = { action: 'upload', id: null, label: 'estado de cuenta', input: null };

  const queueActions = (row: UnidentifiedPayment) => {
    const snapshot = resolveUnidentifiedSnapshot(row.state);
    const canAssign = snapshot.can({ type: 'payment.assign', amount: parseMoney(row.amount) });
    const canDecide = snapshot.can({ type: 'payment.reject', reason: 'motivo' });
    const label = `pago ${row.clave_rastreo}`;
    return (
      <div className="dispersiones-acciones">
        {canAssign && (
          <Button
            disabled={busy}
            onClick={() =>
              send({ type: 'action.open', intent: { action: 'assign', id: row.id, label, input: null } })
            }
          >
            {row.needs_approval ? 'Proponer' : 'Asignar'} {row.clave_rastreo}
          </Button>
        )}
        {canDecide && (
          <>
            <Button
              intent="primary"
              disabled={busy}
              onClick={() =>
                send({ type: 'action.run', intent: { action: 'approve', id: row.id, label, input: null } })
              }
            >
              Aprobar {row.clave_rastreo}
            </Button>
            <Button
              disabled={busy}
              onClick={() =>
                send({ type: 'action.open', intent: { action: 'reject', id: row.id, label, input: null } })
              }
            >
              Rechazar {row.clave_rastreo}
            </Button>
          </>
        )}
      </div>
    );
  };

  return (
    <section aria-labelledby="cobranza-titulo" className="disbursements-page">
      <h1 id="cobranza-titulo">Cobranza</h1>
      {failure?.message && !editing && (
        <Callout intent="danger" role="alert" title={failure.detail ?? undefined}>
          {(failure.reasons ?? []).length > 0 ? (
            <ul aria-label="Errores del archivo">
              {failure.reasons?.map((error, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the list never reorders.
                <li key={index}>{error}</li>
              ))}
            </ul>
          ) : (
            failure.detail === null && failure.message
          )}
        </Callout>
      )}
      {actions.matches('answerLost') && (
        <AnswerLostCallout
          message={actions.context.failure?.message}
          onRetry={() => send({ type: 'action.retry' })}
          onCancel={() => send({ type: 'action.cancel' })}
        />
      )}
      {notice && (
        <Callout intent="success" role="status">
          {notice}
        </Callout>
      )}

      <section aria-labelledby="cobranza-estado">
        <h2 id="cobranza-estado">Estado de cuenta del banco</h2>
        <div className="dispersiones-acciones">
          <label htmlFor="cobranza-archivo">Cargar estado de cuenta (CSV)</label>
          <input
            ref={input}
            id="cobranza-archivo"
            type="file"
            accept=".csv,text/csv"
            aria-describedby="cobranza-archivo-formato"
            disabled={busy}
            onClick={() => send({ type: 'action.open', intent: uploadIntent })}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              event.currentTarget.value = '';
              if (!file) return;
              if (!choosing) send({ type: 'action.open', intent: uploadIntent });
              send({ type: 'action.submit', input: file });
            }}
          />
          {busy && <Spinner aria-label="Procesando" size={20} />}
        </div>
        <p id="cobranza-archivo-formato">
          Cada pago se aplica por su referencia y, si no nombra un lote, por el RFC del ordenante y una
          factura con ese saldo exacto. Una clave de rastreo se aplica una sola vez. Sus columnas y un archivo
          de ejemplo están en <a href="#cobranza-formato">Formato del estado de cuenta</a>.
        </p>
        {lastStatement && (
          <>
            <ul className="cobranza-conteos" aria-label="Resultado del último archivo">
              <li>
                <Tag intent="success">Exactas {lastStatement.counts.exactas}</Tag>
              </li>
              <li>
                <Tag intent="primary">Parciales {lastStatement.counts.parciales}</Tag>
              </li>
              <li>
                <Tag intent="warning">Sobrepagos {lastStatement.counts.sobrepagos}</Tag>
              </li>
              <li>
                <Tag intent="danger">No identificadas {lastStatement.counts.no_identificadas}</Tag>
              </li>
              <li>
                <Tag>Repetidas {lastStatement.counts.repetidas}</Tag>
              </li>
            </ul>
            <BackOfficeList
              label="Líneas del último estado de cuenta"
              remote={loadedList(lastStatement.lines)}
              columns={LINE_COLUMNS}
              rowKey={(row) => row.line}
              loading="Cargando"
              failed="No pudimos leer el resultado"
              empty={{ title: 'El archivo no tenía pagos.', level: 3 }}
            />
          </>
        )}
      </section>

      <section aria-labelledby="cobranza-cola">
        <h2 id="cobranza-cola">Pagos no identificados</h2>
        <p>
          Hasta {formatMxn(UNIDENTIFIED_APPROVAL_THRESHOLD)} una persona asigna el pago a una factura; arriba
          de ese monto se propone y otro aprobador lo aprueba.
        </p>
        <BackOfficeList
          label="Pagos no identificados"
          remote={queue}
          columns={QUEUE_COLUMNS}
          rowKey={(row) => row.id}
          rowActions={queueActions}
          loading="Cargando los pagos no identificados"
          failed="No pudimos cargar los pagos no identificados"
          empty={{ title: 'No hay pagos por identificar', level: 3 }}
          cardsBelow={1100}
        />
        {editing && (editing.action === 'assign' || editing.action === 'reject') && (
          <QueueForm key={`${editing.action}-${editing.id}`} actions={actions} send={send} />
        )}
      </section>

      <section aria-labelledby="cobranza-saldos">
        <h2 id="cobranza-saldos">Saldos a favor</h2>
        <BackOfficeList
          label="Saldos a favor por corporativo"
          remote={credits}
          columns={CREDIT_COLUMNS}
          rowKey={(row) => row.corporate_id}
          rowActions={(row) => (
            <Button
              disabled={busy}
              onClick={() =>
                send({
                  type: 'action.open',
                  intent: {
                    action: 'applyCredit',
                    id: row.corporate_id,
                    label: row.corporate_name,
                    input: null,
                  },
                })
              }
            >
              Aplicar saldo de {row.corporate_name}
            </Button>
          )}
          loading="Cargando los saldos a favor"
          failed="No pudimos cargar los saldos a favor"
          empty={{ title: 'Ningún corporativo tiene saldo a favor', level: 3 }}
        />
        {editing?.action === 'applyCredit' && <CreditForm key={editing.id} actions={actions} send={send} />}
      </section>

      <StatementFormat />
    </section>
  );
}

function fieldError(actions: CollectionActionsSnapshot, name: string): string | undefined {
  return actions.context.failure?.fields[name]?.join(' ');
}

/** «Asignar» (the invoice) or «Rechazar» (the reason) of one queued payment. */
function QueueForm({
  actions,
  send,
}: {
  actions: CollectionActionsSnapshot;
  send: (event: BackOfficeActionEvent) => void;
}) {
  const intent = actions.context.intent;
  const [value, setValue] = useState('');
  if (!intent) return null;
  const assign = intent.action === 'assign';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send({ type: 'action.submit', input: assign ? { invoice_id: Number(value) } : { reason: value } });
  };
  const field = assign ? 'invoice_id' : 'reason';
  const error = fieldError(actions, field);
  return (
    <form
      className="cobranza-formulario"
      onSubmit={submit}
      aria-label={`${assign ? 'Asignar' : 'Rechazar'} ${intent.label}`}
    >
      <FormGroup
        label={assign ? 'Id de la factura' : 'Motivo del rechazo'}
        labelFor="cobranza-campo"
        helperText={error}
        intent={error ? 'danger' : 'none'}
      >
        <InputGroup
          id="cobranza-campo"
          value={value}
          inputMode={assign ? 'numeric' : undefined}
          onChange={(event) => setValue(event.currentTarget.value)}
        />
      </FormGroup>
      <Button type="submit" intent="primary">
        {assign ? 'Asignar' : 'Rechazar'}
      </Button>{' '}
      <Button onClick={() => send({ type: 'action.cancel' })}>Cancelar</Button>
    </form>
  );
}

/** «Aplicar saldo a favor»: the invoice and the amount. */
function CreditForm({
  actions,
  send,
}: {
  actions: CollectionActionsSnapshot;
  send: (event: BackOfficeActionEvent) => void;
}) {
  const [invoice, setInvoice] = useState('');
  const [amount, setAmount] = useState('');
  const intent = actions.context.intent;
  if (!intent) return null;
  const invoiceError = fieldError(actions, 'invoice_id');
  const amountError = fieldError(actions, 'amount');
  return (
    <form
      className="cobranza-formulario"
      aria-label={`Aplicar saldo a favor de ${intent.label}`}
      onSubmit={(event) => {
        event.preventDefault();
        send({ type: 'action.submit', input: { invoice_id: Number(invoice), amount } });
      }}
    >
      <FormGroup
        label="Id de la factura"
        labelFor="cobranza-factura"
        helperText={invoiceError}
        intent={invoiceError ? 'danger' : 'none'}
      >
        <InputGroup
          id="cobranza-factura"
          inputMode="numeric"
          value={invoice}
          onChange={(event) => setInvoice(event.currentTarget.value)}
        />
      </FormGroup>
      <FormGroup
        label="Monto (MXN)"
        labelFor="cobranza-monto"
        helperText={amountError}
        intent={amountError ? 'danger' : 'none'}
      >
        <InputGroup
          id="cobranza-monto"
          inputMode="decimal"
          value={amount}
          onChange={(event) => setAmount(event.currentTarget.value)}
        />
      </FormGroup>
      <Button type="submit" intent="primary">
        Aplicar saldo a favor
      </Button>{' '}
      <Button onClick={() => send({ type: 'action.cancel' })}>Cancelar</Button>
    </form>
  );
}

/** The bank's statement, documented where it is loaded: columns and sample from src/domain/bank-statement.ts. */
function StatementFormat() {
  const example = BANK_STATEMENT_SAMPLE[0];
  const examples: Record<(typeof BANK_STATEMENT_COLUMNS)[number], string> = {
    fecha: example?.fecha ?? '',
    clave_rastreo: example?.claveRastreo ?? '',
    monto: example ? formatMoneyAmount(example.amount) : '',
    rfc_ordenante: example?.rfcOrdenante ?? '',
    nombre_ordenante: example?.nombreOrdenante ?? '',
    referencia: example?.referencia ?? '',
    concepto: example?.concepto ?? '',
  };
  return (
    <CsvFileFormat
      id="cobranza-formato"
      title="Formato del estado de cuenta"
      intro={
        <>
          Un CSV (UTF-8) con encabezado <code>{BANK_STATEMENT_COLUMNS.join(',')}</code> y una línea por SPEI
          recibido, hasta {BANK_STATEMENT_MAX_LINES.toLocaleString('en-US')} líneas y{' '}
          {BANK_STATEMENT_MAX_BYTES / 1024 / 1024} MB. Una línea con error rechaza todo el archivo y no se
          aplica ningún pago.
        </>
      }
      label="Columnas del estado de cuenta"
      columns={BANK_STATEMENT_COLUMNS}
      meanings={BANK_STATEMENT_COLUMN_MEANINGS}
      examples={examples}
      sampleCsv={bankStatementCsv(BANK_STATEMENT_SAMPLE)}
      sampleName="estado-de-cuenta-ejemplo.csv"
    />
  );
}
