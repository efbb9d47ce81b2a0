import { Button, Callout, Dialog, DialogBody, Spinner } from '@blueprintjs/core';
import type { RemoteData } from '../list/back-office-list';

/**
 * The document's PDF inside the page: the route fetches it with the bearer token (an <iframe src> could not
 * send it) and hands its blob: URL in, revoked when the viewer closes. NOTE: server/app.ts's CSP allows
 * frame-src and object-src 'self' blob: for this.
 */
export function PdfViewer(props: {
  title: string | null;
  open: boolean;
  pdf: RemoteData<string>;
  onClose: () => void;
}) {
  const title = props.title ?? 'Documento';
  const { pdf } = props;
  return (
    <Dialog isOpen={props.open} onClose={props.onClose} title={title} style={{ width: 1000 }}>
      <DialogBody>
        {pdf.status === 'pending' && <Spinner aria-label="Cargando el documento" />}
        {pdf.status === 'error' && (
          <Callout intent="danger" role="alert" title="No pudimos abrir el documento">
            <Button text="Reintentar" onClick={pdf.retry} />
          </Callout>
        )}
        {pdf.status === 'success' && pdf.data && (
          <iframe title={title} src={pdf.data} style={{ width: '100%', height: '70vh', border: 0 }} />
        )}
      </DialogBody>
    </Dialog>
  );
}
