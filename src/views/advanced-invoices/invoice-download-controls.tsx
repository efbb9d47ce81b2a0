import { Button, Callout, ProgressBar } from '@blueprintjs/core';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { MAX_DOWNLOAD_INVOICES } from '../../domain/advanced-invoices';
import { downloadedMessage, type invoiceDownloadMachine } from '../../machines/invoice-download.machine';

// 'Descargar seleccionados' and what it shows while and after it runs, for every page that downloads the
// ZIP of advanced invoices (XML + PDF) through the invoice-download machine.

export const DOWNLOAD_SELECTED_TEXT = 'Descargar seleccionados';

type DownloadSnapshot = SnapshotFrom<typeof invoiceDownloadMachine>;
type DownloadSend = (event: EventFrom<typeof invoiceDownloadMachine>) => void;

function progressText(progress: number | null): string {
  return progress === null ? 'Preparando tus archivos…' : `Descargando… ${Math.round(progress * 100)} %`;
}

/** Enabled only when the machine accepts these ids (1 to 100, no download running; spec §4, §5). */
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

/** The 100-invoice limit, the progress while downloading, and the success or failure notice. */
export function DownloadStatus(props: {
  state: DownloadSnapshot;
  send: DownloadSend;
  selectedCount: number;
}) {
  const { state, send, selectedCount } = props;
  const { progress, error, count } = state.context;
  return (
    <>
      {selectedCount > MAX_DOWNLOAD_INVOICES && (
        <p className="bp6-text-muted">
          Puedes descargar como máximo {MAX_DOWNLOAD_INVOICES} facturas a la vez; tienes {selectedCount}{' '}
          seleccionadas.
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
          <p>{progressText(progress)}</p>
        </div>
      )}
      {state.matches({ ready: 'done' }) && (
        <Callout intent="success" role="status">
          <p>{downloadedMessage(count)}</p>
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
