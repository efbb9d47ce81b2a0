import { Button, Callout, ProgressBar } from '@blueprintjs/core';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { MAX_DOWNLOAD_INVOICES } from '../../domain/advanced-invoices';
import {
  type DownloadKind,
  downloadedMessage,
  type invoiceDownloadMachine,
} from '../../machines/invoice-download.machine';

// 'Descargar seleccionados' and what it shows while and after it runs, for every page that downloads through the
// invoice-download machine: the ZIP of advanced invoices (XML + PDF) or the account statement's report.

export const DOWNLOAD_SELECTED_TEXT = 'Descargar seleccionados';

type DownloadSnapshot = SnapshotFrom<typeof invoiceDownloadMachine>;
type DownloadSend = (event: EventFrom<typeof invoiceDownloadMachine>) => void;

function progressText(progress: number | null, kind: DownloadKind): string {
  if (progress === null) return kind === 'report' ? 'Preparando tu reporte…' : 'Preparando tus archivos…';
  return `Descargando… ${Math.round(progress * 100)} %`;
}

/** Enabled only when the machine accepts these ids (1 to its limit, no download running; spec §4, §5). */
export function DownloadSelectedButton(props: {
  state: DownloadSnapshot;
  send: DownloadSend;
  invoiceIds: readonly number[];
}) {
  const { state, send, invoiceIds } = props;
  return (
    <Button
      intent="primary"
      text={DOWNLOAD_SELECTED_TEXT}
      disabled={!state.can({ type: 'download.start', invoiceIds })}
      loading={state.matches('downloading')}
      onClick={() => send({ type: 'download.start', invoiceIds })}
    />
  );
}

/** The download's limit, the progress while downloading, and the success or failure notice. */
export function DownloadStatus(props: {
  state: DownloadSnapshot;
  send: DownloadSend;
  selectedCount: number;
  /** What is downloaded (the ZIP by default) and how many invoices one download may hold. */
  kind?: DownloadKind;
  maxInvoices?: number;
}) {
  const { state, send, selectedCount, kind = 'files', maxInvoices = MAX_DOWNLOAD_INVOICES } = props;
  const { progress, error, count } = state.context;
  return (
    <>
      {selectedCount > maxInvoices && (
        <p className="bp6-text-muted">
          Puedes descargar como máximo {maxInvoices.toLocaleString('en-US')} facturas a la vez; tienes{' '}
          {selectedCount.toLocaleString('en-US')} seleccionadas.
        </p>
      )}
      {state.matches('downloading') && (
        <div aria-live="polite">
          <ProgressBar
            intent="primary"
            value={progress ?? undefined}
            aria-label="Progreso de la descarga"
            aria-valuenow={progress === null ? undefined : Math.round(progress * 100)}
          />
          <p>{progressText(progress, kind)}</p>
        </div>
      )}
      {state.matches({ ready: 'done' }) && (
        <Callout intent="success" role="status">
          <p>{downloadedMessage(count, kind)}</p>
          <Button variant="minimal" text="Cerrar" onClick={() => send({ type: 'notice.dismiss' })} />
        </Callout>
      )}
      {state.matches({ ready: 'failed' }) && (
        <Callout intent="danger" role="alert">
          <p>{error}</p>
          <Button variant="minimal" text="Cerrar" onClick={() => send({ type: 'notice.dismiss' })} />
        </Callout>
      )}
    </>
  );
}
