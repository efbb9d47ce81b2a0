import { Button, Callout, Checkbox, Spinner, Tag } from '@blueprintjs/core';
import { useEffect, useRef, useState } from 'react';
import type { SnapshotFrom } from 'xstate';
import { displayDateTime } from '../../../domain/calendar-date';
import { maskClabe } from '../../../domain/clabe';
import { formatMxn, parseMoney } from '../../../domain/money';
import type { Batch, BatchPage, ConfirmationResult, DeskPage } from '../../../domain/schemas/control-desk';
import { PAGE_SIZE } from '../../../domain/schemas/invoices';
import {
  RESULT_COLUMN_MEANINGS,
  RESULT_COLUMNS,
  RESULT_FILE_MAX_BYTES,
  RESULT_FILE_MAX_LINES,
  RESULT_FILE_SAMPLE,
  resultFileCsv,
  SPEI_ORDER_STATE_LABELS,
} from '../../../domain/spei';
import type {
  BackOfficeActionEvent,
  BackOfficeActionMachine,
  BackOfficeFailure,
} from '../../../machines/back-office-action';
import { formatDisplayDate } from '../../invoices/invoice-format';
import { CsvFileFormat } from '../csv-file-format';
import { AnswerLostCallout } from '../list/action-notices';
import { type BackOfficeColumn, BackOfficeList, type RemoteData, remoteList } from '../list/back-office-list';
import './disbursements-page.css';

export type DisbursementActionsSnapshot = SnapshotFrom<BackOfficeActionMachine>;

export interface DisbursementsPageProps {
  /** The approved advances to batch (the desk's 'approved' list). */
  ready: RemoteData<DeskPage>;
  batches: RemoteData<BatchPage>;
  page: number;
  onPage: (page: number) => void;
  /** The batch whose orders are open; null when none is. */
  openBatch: { id: number; remote: RemoteData<Batch> } | null;
  onOpenBatch: (id: number | null) => void;
  /** The disbursement-actions machine: what tesorería is doing (a batch, a layout, the bank's file) and its outcome. */
  actions: DisbursementActionsSnapshot;
  send: (event: BackOfficeActionEvent) => void;
}

const ORDER_STATE_INTENTS = { pendiente: 'none', liquidada: 'success', devuelta: 'danger' } as const;

type SpeiOrderRow = Batch['orders'][number];

const ORDER_COLUMNS: readonly BackOfficeColumn<SpeiOrderRow>[] = [
  { id: 'tracking-key', header: 'Clave de rastreo', cell: (order) => order.clave_rastreo },
  { id: 'numeric-reference', header: 'Referencia numérica', cell: (order) => order.referencia_numerica },
  {
    id: 'beneficiary',
    header: 'Beneficiario',
    cell: (order) => (
      <>
        {order.beneficiary_name}
        <div>{order.beneficiary_rfc}</div>
      </>
    ),
  },
  { id: 'clabe', header: 'CLABE', cell: (order) => order.beneficiary_clabe ?? '—' },
  { id: 'amount', header: 'Monto', cell: (order) => formatMxn(parseMoney(order.amount)) },
  {
    id: 'state',
    header: 'Estado',
    cell: (order) => (
      <>
        <Tag minimal intent={ORDER_STATE_INTENTS[order.state]}>
          {SPEI_ORDER_STATE_LABELS[order.state]}
        </Tag>
        {order.return_reason && <div>{order.return_reason}</div>}
        {order.confirmed_by && <div>Confirmó {order.confirmed_by}</div>}
      </>
    ),
  },
];

type ReadyItem = DeskPage['results'][number];
type BatchSummary = BatchPage['results'][number];

/** What the layout download says when done. */
export function layoutDownloaded(batchId: number): string {
  return `Layout del lote ${batchId} descargado.`;
}

/** How a result file went, in words: what it settled, returned and what was already confirmed. */
export function resultSummary(result: ConfirmationResult): string {
  const settled = result.results.filter((line) => line.applied && line.estado === 'liquidada').length;
  const returned = result.results.filter((line) => line.applied && line.estado === 'devuelta').length;
  return (
    `Resultado aplicado al lote ${result.batch_id}: ${settled} liquidada(s), ${returned} devuelta(s), ` +
    `${result.unchanged} ya confirmada(s) antes.`
  );
}

function batchStateLabel(batch: BatchSummary): string {
  if (batch.pending === batch.orders) return 'Pendiente de resultado';
  if (batch.pending === 0) return 'Confirmado';
  return 'Confirmado en parte';
}

const READY_COLUMNS: readonly BackOfficeColumn<ReadyItem>[] = [
  { id: 'label', header: 'Folio', cell: (item) => item.label },
  { id: 'provider', header: 'Proveedor', cell: (item) => item.provider.name },
  { id: 'rfc', header: 'RFC', cell: (item) => item.provider.rfc },
  // Enough to recognise the account; the batch's orders show it whole, as the layout carries it.
  {
    id: 'clabe',
    header: 'CLABE',
    cell: (item) => (item.provider.clabe ? maskClabe(item.provider.clabe) : 'Sin CLABE'),
  },
  {
    // What leaves: the payout the SPEI order will carry; the invoice's amount beside it.
    id: 'payout',
    header: 'Monto a dispersar',
    cell: (item) => (
      <>
        {item.payout === null ? 'Se calcula al crear el lote' : formatMxn(parseMoney(item.payout))}
        <div className="dispersiones-secundario">Factura {formatMxn(parseMoney(item.amount))}</div>
      </>
    ),
  },
  { id: 'payment', header: 'Fecha de pago', cell: (item) => formatDisplayDate(item.payment_date) },
];

const BATCH_COLUMNS: readonly BackOfficeColumn<BatchSummary>[] = [
  { id: 'id', header: 'Lote', cell: (batch) => batch.id },
  {
    id: 'date',
    header: 'Fecha',
    cell: (batch) => <time dateTime={batch.created_at}>{displayDateTime(batch.created_at)}</time>,
  },
  { id: 'by', header: 'Creado por', cell: (batch) => batch.created_by },
  { id: 'orders', header: 'Órdenes', cell: (batch) => batch.orders },
  { id: 'total', header: 'Monto total', cell: (batch) => formatMxn(parseMoney(batch.total)) },
  {
    id: 'state',
    header: 'Estado',
    cell: (batch) => (
      <>
        {batchStateLabel(batch)}
        <div>
          {batch.settled} liquidada(s), {batch.returned} devuelta(s), {batch.pending} pendiente(s)
        </div>
      </>
    ),
  },
];

/** Where an outcome shows: the bank's file in its batch's panel, the rest at the top of the page. */
interface Outcome {
  notice: string | null;
  failure: BackOfficeFailure | null;
  lost: boolean;
}

function outcomeOf(actions: DisbursementActionsSnapshot): Outcome {
  const { outcome, failure } = actions.context;
  return {
    notice: actions.matches({ ready: 'succeeded' }) ? outcome : null,
    failure: actions.matches({ ready: 'refused' }) ? failure : null,
    lost: actions.matches('answerLost'),
  };
}

/**
 * /operacion/dispersiones/: the approved advances to batch into SPEI orders, and the batches with their
 * orders, the layout for the bank's portal and the bank's result file. The gestures are the disbursement-actions
 * machine's; which advances are ticked for the next batch is the page's own (presentation) state.
 */
export function DisbursementsPage({
  ready,
  batches,
  page,
  onPage,
  openBatch,
  onOpenBatch,
  actions,
  send,
}: DisbursementsPageProps) {
  // Presentation: the boxes ticked for the next batch; the machine receives them with «Crear lote».
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const busy = actions.hasTag('busy');
  const intent = actions.context.intent;
  const uploading = intent?.action === 'upload';
  const outcome = outcomeOf(actions);
  const readyItems = ready.data?.results ?? [];
  // Only what is still listed counts: a batched item leaves the list when it reloads.
  const chosen = readyItems.filter((item) => selected.has(item.invoice_id)).map((item) => item.invoice_id);
  // A new batch takes the ticked advances with it.
  const created = intent?.action === 'createBatch' && actions.matches({ ready: 'succeeded' });
  useEffect(() => {
    if (created) setSelected(new Set());
  }, [created]);

  const toggle = (id: number, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const selectColumn: BackOfficeColumn<ReadyItem> = {
    id: 'select',
    header: 'Seleccionar',
    cell: (item) => (
      <Checkbox
        aria-label={`Seleccionar ${item.label}`}
        checked={selected.has(item.invoice_id)}
        onChange={(event) => toggle(item.invoice_id, event.currentTarget.checked)}
      />
    ),
  };

  return (
    <section aria-labelledby="dispersiones-titulo" className="disbursements-page">
      <h1 id="dispersiones-titulo">Dispersiones</h1>
      {!uploading && outcome.failure?.message && (
        <Callout intent="danger" role="alert">
          {outcome.failure.message}
        </Callout>
      )}
      {!uploading && outcome.lost && (
        <AnswerLostCallout
          message={actions.context.failure?.message}
          onRetry={() => send({ type: 'action.retry' })}
          onCancel={() => send({ type: 'action.cancel' })}
        />
      )}
      {!uploading && outcome.notice && (
        <Callout intent="success" role="status">
          {outcome.notice}
        </Callout>
      )}

      <section aria-labelledby="dispersiones-listos">
        <h2 id="dispersiones-listos">Listos para dispersar</h2>
        <BackOfficeList
          label="Adelantos aprobados por dispersar"
          remote={ready}
          columns={[selectColumn, ...READY_COLUMNS]}
          rowKey={(item) => item.invoice_id}
          loading="Cargando los adelantos aprobados"
          failed="No pudimos cargar los adelantos aprobados"
          empty={{
            title: 'No hay adelantos aprobados por dispersar',
            description: 'Cuando la mesa de control apruebe un adelanto aparecerá aquí.',
            level: 3,
          }}
        />
        {ready.status === 'success' && readyItems.length > 0 && (
          <>
            <Button
              intent="primary"
              disabled={busy || chosen.length === 0}
              aria-describedby={chosen.length === 0 ? 'dispersiones-sin-seleccion' : undefined}
              onClick={() =>
                send({
                  type: 'action.run',
                  intent: { action: 'createBatch', id: null, label: 'Lote nuevo', input: chosen },
                })
              }
            >
              Crear lote
            </Button>
            {chosen.length === 0 && (
              <p id="dispersiones-sin-seleccion">Selecciona al menos un adelanto aprobado.</p>
            )}
          </>
        )}
      </section>

      <section aria-labelledby="dispersiones-lotes">
        <h2 id="dispersiones-lotes">Lotes</h2>
        <BackOfficeList
          label="Lotes SPEI"
          remote={batches}
          columns={BATCH_COLUMNS}
          rowKey={(batch) => batch.id}
          rowActions={(batch) => (
            <Button
              aria-expanded={openBatch?.id === batch.id}
              onClick={() => onOpenBatch(openBatch?.id === batch.id ? null : batch.id)}
            >
              {openBatch?.id === batch.id ? 'Ocultar' : 'Ver'} órdenes del lote {batch.id}
            </Button>
          )}
          loading="Cargando los lotes"
          failed="No pudimos cargar los lotes"
          empty={{
            title: 'Aún no hay lotes',
            description: 'Crea un lote con los adelantos aprobados.',
            level: 3,
          }}
          paging={{ label: 'Páginas de lotes', page, pageSize: PAGE_SIZE, noun: ['lote', 'lotes'], onPage }}
        />
      </section>

      {openBatch && (
        <BatchDetail
          openBatch={openBatch}
          busy={busy}
          actions={actions}
          upload={uploading && intent?.id === openBatch.id ? outcome : null}
          send={send}
        />
      )}

      <ResultFileFormat />
    </section>
  );
}

/**
 * The bank's result file, documented where it is loaded (issue 33): its columns and a sample, both written from
 * the domain's own definition (src/domain/spei.ts), the one the server reads the file with.
 */
function ResultFileFormat() {
  const example = RESULT_FILE_SAMPLE.at(-1);
  const examples: Record<(typeof RESULT_COLUMNS)[number], string> = {
    clave_rastreo: example?.trackingKey ?? '',
    estado: RESULT_FILE_SAMPLE.map((line) => line.estado).join(' / '),
    motivo: example?.motivo ?? '',
  };
  return (
    <CsvFileFormat
      id="dispersiones-formato"
      title="Formato del resultado del banco"
      intro={
        <>
          Un CSV (UTF-8) con encabezado <code>{RESULT_COLUMNS.join(',')}</code> y una línea por orden del
          lote, hasta {RESULT_FILE_MAX_LINES.toLocaleString('en-US')} líneas y {RESULT_FILE_MAX_BYTES / 1024}{' '}
          KB. Una línea con error rechaza todo el archivo y no se aplica ninguna.
        </>
      }
      label="Columnas del resultado del banco"
      columns={RESULT_COLUMNS}
      meanings={RESULT_COLUMN_MEANINGS}
      examples={examples}
      sampleCsv={resultFileCsv(RESULT_FILE_SAMPLE)}
      sampleName="resultado-banco-ejemplo.csv"
    />
  );
}

function BatchDetail({
  openBatch,
  busy,
  actions,
  upload,
  send,
}: {
  openBatch: NonNullable<DisbursementsPageProps['openBatch']>;
  busy: boolean;
  actions: DisbursementActionsSnapshot;
  /** The bank's file's outcome for this batch, if the last gesture was one. */
  upload: Outcome | null;
  send: (event: BackOfficeActionEvent) => void;
}) {
  const { id, remote } = openBatch;
  const inputId = `dispersiones-resultado-${id}`;
  const input = useRef<HTMLInputElement>(null);
  const choosing = actions.matches('editing');
  // Closing the browser's file chooser without a file ends the gesture.
  useEffect(() => {
    const element = input.current;
    if (!element || !choosing) return;
    const cancel = () => send({ type: 'action.cancel' });
    element.addEventListener('cancel', cancel);
    return () => element.removeEventListener('cancel', cancel);
  }, [choosing, send]);
  const uploadIntent = { action: 'upload', id, label: `lote ${id}`, input: null };
  return (
    <section aria-labelledby="dispersiones-lote-titulo">
      <h2 id="dispersiones-lote-titulo">Órdenes SPEI del lote {id}</h2>
      <BackOfficeList
        label={`Órdenes SPEI del lote ${id}`}
        remote={remoteList(remote, (batch) => batch.orders)}
        columns={ORDER_COLUMNS}
        rowKey={(order) => order.id}
        loading="Cargando las órdenes del lote"
        failed="No pudimos cargar las órdenes del lote"
        empty={{ title: 'El lote no tiene órdenes.', level: 3 }}
      />
      {remote.status === 'success' && remote.data && (
        <>
          <div className="dispersiones-acciones">
            <Button
              icon="download"
              disabled={busy}
              onClick={() =>
                send({
                  type: 'action.run',
                  intent: { action: 'download', id, label: `lote ${id}`, input: null },
                })
              }
            >
              Descargar layout
            </Button>{' '}
            <label htmlFor={inputId}>Cargar resultado del banco (CSV)</label>{' '}
            <input
              ref={input}
              id={inputId}
              type="file"
              accept=".csv,text/csv"
              aria-describedby={`${inputId}-quien ${inputId}-formato`}
              disabled={busy}
              // Opening the file chooser is the gesture's form; choosing a file sends it.
              onClick={() => send({ type: 'action.open', intent: uploadIntent })}
              onChange={(event) => {
                const file = event.currentTarget.files?.[0];
                // Cleared so the same file can be chosen again after fixing it.
                event.currentTarget.value = '';
                if (!file) return;
                if (!choosing) send({ type: 'action.open', intent: uploadIntent });
                send({ type: 'action.submit', input: file });
              }}
            />
          </div>
          <p id={`${inputId}-quien`}>
            El resultado lo carga otra persona de tesorería o un aprobador, no quien creó el lote.
          </p>
          <p id={`${inputId}-formato`}>
            Sus columnas y un archivo de ejemplo están en{' '}
            <a href="#dispersiones-formato">Formato del resultado del banco</a>.
          </p>
          {busy && <Spinner aria-label="Procesando" size={20} />}
          {upload?.notice && (
            <Callout intent="success" role="status">
              {upload.notice}
            </Callout>
          )}
          {upload?.lost && (
            <AnswerLostCallout
              message={actions.context.failure?.message}
              onRetry={() => send({ type: 'action.retry' })}
              onCancel={() => send({ type: 'action.cancel' })}
            />
          )}
          {upload?.failure && (
            <Callout
              intent="danger"
              role="alert"
              title={upload.failure.detail ?? upload.failure.message ?? undefined}
            >
              {(upload.failure.reasons ?? []).length > 0 && (
                <ul aria-label="Errores del archivo">
                  {upload.failure.reasons?.map((error, index) => (
                    // Two lines may fail the same way: the position keeps keys unique.
                    // biome-ignore lint/suspicious/noArrayIndexKey: the list never reorders.
                    <li key={index}>{error}</li>
                  ))}
                </ul>
              )}
            </Callout>
          )}
        </>
      )}
    </section>
  );
}
