import { Button, Callout, Dialog, DialogBody, Spinner } from '@blueprintjs/core';
import { useEffect, useRef, useState } from 'react';

/**
 * The document's PDF inside the page: the route fetches it with the bearer token (an <iframe src> could not
 * send it) and the viewer shows it from a blob: URL, revoked when it closes. NOTE: server/app.ts's CSP allows
 * frame-src and object-src 'self' blob: for this.
 */
export function PdfViewer(props: {
  title: string | null;
  documentId: number | null;
  load: (documentId: number) => Promise<Blob>;
  onClose: () => void;
}) {
  const [attempt, setAttempt] = useState(0);
  return (
    <Dialog
      isOpen={props.documentId !== null}
      onClose={props.onClose}
      title={props.title ?? 'Documento'}
      style={{ width: 1000 }}
    >
      <DialogBody>
        {props.documentId !== null && (
          // A new key per document and per retry: each mount loads once.
          <PdfFrame
            key={`${props.documentId}-${attempt}`}
            title={props.title ?? 'Documento'}
            documentId={props.documentId}
            load={props.load}
            onRetry={() => setAttempt((n) => n + 1)}
          />
        )}
      </DialogBody>
    </Dialog>
  );
}

function PdfFrame(props: {
  title: string;
  documentId: number;
  load: (documentId: number) => Promise<Blob>;
  onRetry: () => void;
}) {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  // The first load function is the one used: the route hands a new one on every render.
  const load = useRef(props.load);
  const { documentId } = props;

  useEffect(() => {
    let objectUrl: string | null = null;
    let cancelled = false;
    load.current(documentId).then(
      (blob) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      },
      () => {
        if (!cancelled) setFailed(true);
      },
    );
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [documentId]);

  if (failed) {
    return (
      <Callout intent="danger" role="alert" title="No pudimos abrir el documento">
        <Button text="Reintentar" onClick={props.onRetry} />
      </Callout>
    );
  }
  if (!url) return <Spinner aria-label="Cargando el documento" />;
  return <iframe title={props.title} src={url} style={{ width: '100%', height: '70vh', border: 0 }} />;
}
