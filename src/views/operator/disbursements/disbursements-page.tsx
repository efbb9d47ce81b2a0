import { Button, Callout, Checkbox, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import type { Batch, BatchPage, ConfirmationResult, DeskPage } from '../../../domain/schemas/control-desk';
import { PAGE_SIZE } from '../../../domain/schemas/invoices';
import { formatAmount, formatDisplayDate, formatDisplayDateTime } from '../../invoices/invoice-format';
import { OperatorPager } from '../operator-pager';

export type LoadStatus = 'pending' | 'error' | 'success';

/** The bank's result upload: its summary, or the server's refusal with one message per bad line. */
export type UploadOutcome =
  | { ok: true; result: ConfirmationResult }
  | { ok: false; message: string; errors: readonly string[] };

export interface DisbursementsPageProps {
  ready: { status: LoadStatus; page: DeskPage | undefined; onRetry: () => void };
  batches: {
    status: LoadStatus;
    page: BatchPage | undefined;
    pageNumber: number;
    onPage: (page: number) => void;
    onRetry: () => void;
  };
  /** The batch whose orders are open, with its load state; null when none is. */
  openBatch: { id: number; status: LoadStatus; batch: Batch | undefined; onRetry: () => void } | null;
  onOpenBatch: (id: number | null) => void;
  /** Each resolves to the server's refusal in Spanish, or null when done. */
  onCreateBatch: (invoiceIds: number[]) => Promise<string | null>;
  onDownloadLayout: (batchId: number) => Promise<string | null>;
  onUploadResult: (batchId: number, file: File) => Promise<UploadOutcome>;
}

const ORDER_STATE_LABELS = { pendiente: 'Pendiente', liquidada: 'Liquidada', devuelta: 'Devuelta' } as const;
const ORDER_STATE_INTENTS = { pendiente: 'none', liquidada: 'success', devuelta: 'danger' } as const;

type BatchSummary = BatchPage['results'][number];

/** NonIdealState's title is an h4; under the sections' h2 the outline needs an h3 (axe heading-order). */
function EmptyState({ title, description }: { title: string; description: string }) {
  return (
    <NonIdealState>
      <h3>{title}</h3>
      <p>{description}</p>
    </NonIdealState>
  );
}

function batchStateLabel(batch: BatchSummary): string {
  if (batch.pending === batch.orders) return 'Pendiente de resultado';
  if (batch.pending === 0) return 'Confirmado';
  return 'Confirmado en parte';
}

/** How a result file went, in words: what it settled, returned and what was already confirmed. */
function resultSummary(result: ConfirmationResult): string {
  const settled = result.results.filter((line) => line.applied && line.estado === 'liquidada').length;
  const returned = result.results.filter((line) => line.applied && line.estado === 'devuelta').length;
  return (
    `Resultado aplicado al lote ${result.batch_id}: ${settled} liquidada(s), ${returned} devuelta(s), ` +
    `${result.unchanged} ya confirmada(s) antes.`
  );
}

/**
 * /operacion/dispersiones/: the approved advances to batch into SPEI orders, and the batches with their
 * orders, the layout for the bank's portal and the bank's result file.
 */
export function DisbursementsPage({
  ready,
  batches,
  openBatch,
  onOpenBatch,
  onCreateBatch,
  onDownloadLayout,
  onUploadResult,
}: DisbursementsPageProps) {
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [upload, setUpload] = useState<UploadOutcome | null>(null);
  const readyItems = ready.page?.results ?? [];
  // Only what is still listed counts: a batched item leaves the list when it reloads.
  const chosen = readyItems.filter((item) => selected.has(item.invoice_id)).map((item) => item.invoice_id);

  const toggle = (id: number, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  /** Runs a call; its refusal shows as an alert, its success (when it has one) as a status notice. */
  const act = async (work: () => Promise<string | null>, done: string | null = null) => {
    setBusy(true);
    setNotice(null);
    const refusal = await work();
    setBusy(false);
    setMessage(refusal);
    if (refusal === null) setNotice(done);
    return refusal;
  };

  return (
    <section aria-labelledby="dispersiones-titulo" className="disbursements-page">
      <h1 id="dispersiones-titulo">Dispersiones</h1>
      {message && (
        <Callout intent="danger" role="alert">
          {message}
        </Callout>
      )}
      {notice && (
        <Callout intent="success" role="status">
          {notice}
        </Callout>
      )}

      <section aria-labelledby="dispersiones-listos">
        <h2 id="dispersiones-listos">Listos para dispersar</h2>
        {ready.status === 'pending' && <Spinner aria-label="Cargando los adelantos aprobados" size={32} />}
        {ready.status === 'error' && (
          <Callout intent="danger" role="alert" title="No pudimos cargar los adelantos aprobados">
            <Button onClick={ready.onRetry}>Reintentar</Button>
          </Callout>
        )}
        {ready.status === 'success' && readyItems.length === 0 && (
          <EmptyState
            title="No hay adelantos aprobados por dispersar"
            description="Cuando la mesa de control apruebe un adelanto aparecerá aquí."
          />
        )}
        {ready.status === 'success' && readyItems.length > 0 && (
          <>
            <HTMLTable aria-label="Adelantos aprobados por dispersar" striped>
              <thead>
                <tr>
                  <th scope="col">Seleccionar</th>
                  <th scope="col">Folio</th>
                  <th scope="col">Proveedor</th>
                  <th scope="col">RFC</th>
                  <th scope="col">CLABE</th>
                  <th scope="col">Monto de la factura</th>
                  <th scope="col">Fecha de pago</th>
                </tr>
              </thead>
              <tbody>
                {readyItems.map((item) => (
                  <tr key={item.invoice_id}>
                    <td>
                      <Checkbox
                        aria-label={`Seleccionar ${item.label}`}
                        checked={selected.has(item.invoice_id)}
                        onChange={(event) => toggle(item.invoice_id, event.currentTarget.checked)}
                      />
                    </td>
                    <td>{item.label}</td>
                    <td>{item.provider.name}</td>
                    <td>{item.provider.rfc}</td>
                    <td>{item.provider.clabe ?? 'Sin CLABE'}</td>
                    <td>{formatAmount(item.amount)} MXN</td>
                    <td>{formatDisplayDate(item.payment_date)}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
            <Button
              intent="primary"
              disabled={busy || chosen.length === 0}
              aria-describedby={chosen.length === 0 ? 'dispersiones-sin-seleccion' : undefined}
              onClick={() =>
                void act(() => onCreateBatch(chosen), 'Lote creado.').then((refusal) => {
                  if (refusal === null) setSelected(new Set());
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
        {batches.status === 'pending' && <Spinner aria-label="Cargando los lotes" size={32} />}
        {batches.status === 'error' && (
          <Callout intent="danger" role="alert" title="No pudimos cargar los lotes">
            <Button onClick={batches.onRetry}>Reintentar</Button>
          </Callout>
        )}
        {batches.status === 'success' && batches.page?.results.length === 0 && (
          <EmptyState title="Aún no hay lotes" description="Crea un lote con los adelantos aprobados." />
        )}
        {batches.status === 'success' && batches.page && batches.page.results.length > 0 && (
          <HTMLTable aria-label="Lotes SPEI" striped>
            <thead>
              <tr>
                <th scope="col">Lote</th>
                <th scope="col">Fecha</th>
                <th scope="col">Creado por</th>
                <th scope="col">Órdenes</th>
                <th scope="col">Monto total</th>
                <th scope="col">Estado</th>
                <th scope="col">Acciones</th>
              </tr>
            </thead>
            <tbody>
              {batches.page.results.map((batch) => (
                <tr key={batch.id}>
                  <td>{batch.id}</td>
                  <td>
                    <time dateTime={batch.created_at}>{formatDisplayDateTime(batch.created_at)}</time>
                  </td>
                  <td>{batch.created_by}</td>
                  <td>{batch.orders}</td>
                  <td>{formatAmount(batch.total)} MXN</td>
                  <td>
                    {batchStateLabel(batch)}
                    <div>
                      {batch.settled} liquidada(s), {batch.returned} devuelta(s), {batch.pending} pendiente(s)
                    </div>
                  </td>
                  <td>
                    <Button
                      aria-expanded={openBatch?.id === batch.id}
                      onClick={() => {
                        setUpload(null);
                        onOpenBatch(openBatch?.id === batch.id ? null : batch.id);
                      }}
                    >
                      {openBatch?.id === batch.id ? 'Ocultar' : 'Ver'} órdenes del lote {batch.id}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
        {batches.status === 'success' && batches.page && batches.page.count > batches.page.results.length && (
          <OperatorPager
            label="Páginas de lotes"
            page={batches.pageNumber}
            count={batches.page.count}
            noun={['lote', 'lotes']}
            pageSize={PAGE_SIZE}
            hasPrevious={batches.page.previous !== null}
            hasNext={batches.page.next !== null}
            onPage={batches.onPage}
          />
        )}
      </section>

      {openBatch && (
        <BatchDetail
          openBatch={openBatch}
          busy={busy}
          upload={upload}
          onDownload={() =>
            void act(() => onDownloadLayout(openBatch.id), `Layout del lote ${openBatch.id} descargado.`)
          }
          onUpload={(file) => {
            setBusy(true);
            setUpload(null);
            void onUploadResult(openBatch.id, file).then((outcome) => {
              setBusy(false);
              setUpload(outcome);
            });
          }}
        />
      )}
    </section>
  );
}

function BatchDetail({
  openBatch,
  busy,
  upload,
  onDownload,
  onUpload,
}: {
  openBatch: NonNullable<DisbursementsPageProps['openBatch']>;
  busy: boolean;
  upload: UploadOutcome | null;
  onDownload: () => void;
  onUpload: (file: File) => void;
}) {
  const inputId = `dispersiones-resultado-${openBatch.id}`;
  return (
    <section aria-labelledby="dispersiones-lote-titulo">
      <h2 id="dispersiones-lote-titulo">Órdenes SPEI del lote {openBatch.id}</h2>
      {openBatch.status === 'pending' && <Spinner aria-label="Cargando las órdenes del lote" size={32} />}
      {openBatch.status === 'error' && (
        <Callout intent="danger" role="alert" title="No pudimos cargar las órdenes del lote">
          <Button onClick={openBatch.onRetry}>Reintentar</Button>
        </Callout>
      )}
      {openBatch.status === 'success' && openBatch.batch && (
        <>
          <HTMLTable aria-label={`Órdenes SPEI del lote ${openBatch.id}`} striped>
            <thead>
              <tr>
                <th scope="col">Clave de rastreo</th>
                <th scope="col">Referencia numérica</th>
                <th scope="col">Beneficiario</th>
                <th scope="col">CLABE</th>
                <th scope="col">Monto</th>
                <th scope="col">Estado</th>
              </tr>
            </thead>
            <tbody>
              {openBatch.batch.orders.map((order) => (
                <tr key={order.id}>
                  <td>{order.clave_rastreo}</td>
                  <td>{order.referencia_numerica}</td>
                  <td>
                    {order.beneficiary_name}
                    <div>{order.beneficiary_rfc}</div>
                  </td>
                  <td>{order.beneficiary_clabe ?? '—'}</td>
                  <td>{formatAmount(order.amount)} MXN</td>
                  <td>
                    <Tag minimal intent={ORDER_STATE_INTENTS[order.state]}>
                      {ORDER_STATE_LABELS[order.state]}
                    </Tag>
                    {order.return_reason && <div>{order.return_reason}</div>}
                    {order.confirmed_by && <div>Confirmó {order.confirmed_by}</div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <div className="dispersiones-acciones">
            <Button icon="download" disabled={busy} onClick={onDownload}>
              Descargar layout
            </Button>{' '}
            <label htmlFor={inputId}>Cargar resultado del banco (CSV)</label>{' '}
            <input
              id={inputId}
              type="file"
              accept=".csv,text/csv"
              aria-describedby={`${inputId}-quien`}
              disabled={busy}
              onChange={(event) => {
                const file = event.currentTarget.files?.[0];
                // Cleared so the same file can be chosen again after fixing it.
                event.currentTarget.value = '';
                if (file) onUpload(file);
              }}
            />
          </div>
          <p id={`${inputId}-quien`}>
            El resultado lo carga otra persona de tesorería o un aprobador, no quien creó el lote.
          </p>
          {busy && <Spinner aria-label="Procesando" size={20} />}
          {upload?.ok === true && (
            <Callout intent="success" role="status">
              {resultSummary(upload.result)}
            </Callout>
          )}
          {upload?.ok === false && (
            <Callout intent="danger" role="alert" title={upload.message}>
              {upload.errors.length > 0 && (
                <ul aria-label="Errores del archivo">
                  {upload.errors.map((error, index) => (
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
