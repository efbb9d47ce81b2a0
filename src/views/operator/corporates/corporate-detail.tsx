import {
  Button,
  Callout,
  Dialog,
  DialogBody,
  DialogFooter,
  FileInput,
  FormGroup,
  H1,
  H2,
  HTMLTable,
  InputGroup,
  Spinner,
  Tag,
  TextArea,
} from '@blueprintjs/core';
import { useState } from 'react';
import {
  CLABE_DOCUMENT_KIND,
  CORPORATE_DOCUMENT_KINDS,
  CORPORATE_DOCUMENT_LABELS,
  CORPORATE_MESSAGES,
  type CorporateDocumentKind,
  DOCUMENT_STATUS_LABELS,
  type DocumentDecision,
  type DocumentStatus,
  ONBOARDING_STATE_LABELS,
} from '../../../domain/corporate-file';
import { formatMxn, parseMoney } from '../../../domain/money';
import { isSatStatusCode, SAT_STATUS_LABELS } from '../../../domain/sat-status';
import type {
  CorporateDocument,
  CorporateDetail as Detail,
} from '../../../domain/schemas/operator-corporates';
import { onboardingRefusal, resolveOnboardingSnapshot } from '../../../machines/corporate-onboarding.machine';
import type { ActionResult } from './action-result';
import { ONBOARDING_STATE_INTENTS } from './corporates-list';
import { PdfViewer } from './pdf-viewer';
import './corporates.css';
import { efosStandingText } from '../../../domain/efos';

const STATUS_INTENTS: Readonly<Record<DocumentStatus, 'none' | 'success' | 'danger' | 'warning'>> = {
  pendiente: 'none',
  aprobado: 'success',
  rechazado: 'danger',
  vencido: 'warning',
};

const DECISION_LABELS: Readonly<Record<DocumentDecision, string>> = {
  aprobado: 'Aprobar',
  rechazado: 'Rechazar',
  vencido: 'Marcar vencido',
};

export interface CorporateDetailActions {
  upload: (input: { kind: CorporateDocumentKind; file: File; clabe?: string }) => Promise<ActionResult>;
  decide: (
    documentId: number,
    body: { status: DocumentDecision; reason?: string; expires_on?: string },
  ) => Promise<ActionResult>;
  activate: () => Promise<ActionResult>;
  reject: (reason: string) => Promise<ActionResult>;
  suspend: (reason: string) => Promise<ActionResult>;
  reactivate: () => Promise<ActionResult>;
  loadPdf: (documentId: number) => Promise<Blob>;
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toLocaleString('es-MX', { maximumFractionDigits: 2 })} MB`;
}

/** Today's date in the browser, 'YYYY-MM-DD' (the server judges expiries on its own business day). */
function localToday(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** /operacion/corporativos/$corporateId: the company, its users, its eight documents and its activation. */
export function CorporateDetailPage(props: {
  detail: Detail | undefined;
  isPending: boolean;
  isError: boolean;
  onRetry: () => void;
  actions: CorporateDetailActions;
}) {
  const { detail } = props;
  const [viewing, setViewing] = useState<CorporateDocument | null>(null);
  const [uploading, setUploading] = useState<CorporateDocumentKind | null>(null);
  const [deciding, setDeciding] = useState<{ doc: CorporateDocument; status: DocumentDecision } | null>(null);
  const [rejecting, setRejecting] = useState(false);
  const [suspending, setSuspending] = useState(false);
  const [message, setMessage] = useState<{ intent: 'success' | 'danger'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  if (props.isPending) return <Spinner aria-label="Cargando el corporativo" />;
  if (props.isError || !detail) {
    return (
      <Callout intent="danger" role="alert" title="No pudimos cargar el corporativo">
        <Button text="Reintentar" onClick={props.onRetry} />
      </Callout>
    );
  }

  // The machine decides what may be done; the screen only asks it (and shows its Spanish reason).
  const corporate = {
    state: detail.state,
    documents: detail.documents.map((d) => ({ kind: d.kind, status: d.status, expires_on: d.expires_on })),
    today: localToday(),
    creatorId: detail.created_by_id,
  };
  const snapshot = resolveOnboardingSnapshot(corporate);
  const activation = { type: 'corporate.activate', actor: { userId: detail.viewer_id } } as const;
  const canActivate = snapshot.can(activation) && detail.missing_kinds.length === 0;
  const ownCorporate = detail.created_by_id !== null && detail.created_by_id === detail.viewer_id;
  const canReject = snapshot.can({ type: 'corporate.reject', reason: 'motivo' });
  const canSuspend = snapshot.can({ type: 'corporate.suspend', reason: 'motivo' });
  const canReactivate = snapshot.can({ type: 'corporate.reactivate' }) && detail.missing_kinds.length === 0;
  const canUpload = snapshot.can({ type: 'document.upload', kind: 'poderes' });
  const byKind = new Map(detail.documents.map((d) => [d.kind, d]));

  const run = async (action: () => Promise<ActionResult>, success: string) => {
    setBusy(true);
    const result = await action();
    setBusy(false);
    setMessage(result.ok ? { intent: 'success', text: success } : { intent: 'danger', text: result.message });
    return result;
  };

  const satLabel = isSatStatusCode(detail.sat_status)
    ? SAT_STATUS_LABELS[detail.sat_status]
    : String(detail.sat_status);

  return (
    <section aria-labelledby="corporativo-titulo" className="flujo-operator-page">
      <header className="flujo-operator-page-header">
        <H1 id="corporativo-titulo">{detail.name}</H1>
        <Tag large intent={ONBOARDING_STATE_INTENTS[detail.state]}>
          {ONBOARDING_STATE_LABELS[detail.state]}
        </Tag>
      </header>
      {message && (
        <Callout intent={message.intent} role={message.intent === 'danger' ? 'alert' : 'status'}>
          {message.text}
        </Callout>
      )}
      <dl className="flujo-operator-facts">
        <dt>RFC</dt>
        <dd>{detail.rfc ?? '—'}</dd>
        <dt>Vinculación SAT</dt>
        <dd>{satLabel}</dd>
        {detail.state_reason && (
          <>
            <dt>Motivo</dt>
            <dd>{detail.state_reason}</dd>
          </>
        )}
        <dt>Lista 69-B del SAT</dt>
        <dd>{efosStandingText(detail.efos)}</dd>
        <dt>Programa de crédito</dt>
        <dd>
          {detail.programme
            ? `Límite ${formatMxn(parseMoney(detail.programme.limit))} · disponible ${formatMxn(parseMoney(detail.programme.available))} (${detail.programme.state})`
            : 'Sin programa'}
        </dd>
      </dl>

      <H2>Usuarios</H2>
      <HTMLTable aria-label="Usuarios del corporativo" compact>
        <thead>
          <tr>
            <th scope="col">Nombre</th>
            <th scope="col">Correo</th>
            <th scope="col">Contraseña</th>
          </tr>
        </thead>
        <tbody>
          {detail.admins.map((user) => (
            <tr key={user.id}>
              <td>
                {user.first_name} {user.last_name}
              </td>
              <td>{user.email}</td>
              <td>{user.has_password ? 'Elegida' : 'Invitación pendiente'}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>

      <H2>Expediente</H2>
      <HTMLTable aria-label="Expediente" striped className="flujo-operator-table">
        <thead>
          <tr>
            <th scope="col">Documento</th>
            <th scope="col">Estado</th>
            <th scope="col">Archivo</th>
            <th scope="col">Revisión</th>
            <th scope="col">Acciones</th>
          </tr>
        </thead>
        <tbody>
          {CORPORATE_DOCUMENT_KINDS.map((kind) => {
            const doc = byKind.get(kind);
            return (
              <tr key={kind}>
                <th scope="row">{CORPORATE_DOCUMENT_LABELS[kind]}</th>
                <td>
                  {doc ? (
                    <Tag intent={STATUS_INTENTS[doc.status]}>{DOCUMENT_STATUS_LABELS[doc.status]}</Tag>
                  ) : (
                    <Tag minimal>Sin cargar</Tag>
                  )}
                  {doc?.expires_on && <div>Vence: {doc.expires_on}</div>}
                  {doc?.reason && <div>Motivo: {doc.reason}</div>}
                </td>
                <td>
                  {doc ? (
                    <>
                      <div>{doc.file_name}</div>
                      <div>
                        {megabytes(doc.size_bytes)} · SHA-256{' '}
                        <code title={doc.sha256}>{doc.sha256.slice(0, 12)}…</code>
                      </div>
                      {doc.clabe && <div>CLABE {doc.clabe}</div>}
                      <div>
                        Subió {doc.uploaded_by}, {new Date(doc.uploaded_at).toLocaleString('es-MX')}
                      </div>
                    </>
                  ) : (
                    '—'
                  )}
                </td>
                <td>
                  {doc?.reviewed_by
                    ? `${doc.reviewed_by}, ${new Date(doc.reviewed_at ?? '').toLocaleString('es-MX')}`
                    : '—'}
                </td>
                <td>
                  <div className="flujo-operator-actions">
                    {doc && (
                      <Button
                        small
                        text="Ver"
                        onClick={() => setViewing(doc)}
                        aria-label={`Ver ${CORPORATE_DOCUMENT_LABELS[kind]}`}
                      />
                    )}
                    {canUpload && (
                      <Button
                        small
                        text={doc ? 'Reemplazar' : 'Subir'}
                        aria-label={`${doc ? 'Reemplazar' : 'Subir'} ${CORPORATE_DOCUMENT_LABELS[kind]}`}
                        onClick={() => setUploading(kind)}
                      />
                    )}
                    {doc &&
                      canUpload &&
                      (['aprobado', 'rechazado', 'vencido'] as const).map((status) => (
                        <Button
                          key={status}
                          small
                          text={DECISION_LABELS[status]}
                          aria-label={`${DECISION_LABELS[status]} ${CORPORATE_DOCUMENT_LABELS[kind]}`}
                          onClick={() => setDeciding({ doc, status })}
                        />
                      ))}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>

      <div className="flujo-operator-actions">
        {detail.state === 'suspendido' ? (
          <Button
            intent="success"
            text="Reactivar corporativo"
            disabled={!canReactivate || busy}
            aria-describedby="activar-motivo"
            onClick={() => run(props.actions.reactivate, 'El corporativo quedó activo.')}
          />
        ) : (
          <Button
            intent="success"
            text="Activar corporativo"
            disabled={!canActivate || busy}
            aria-describedby="activar-motivo"
            onClick={() => run(props.actions.activate, 'El corporativo quedó activo.')}
          />
        )}
        {canReject && (
          <Button intent="danger" text="Rechazar corporativo" onClick={() => setRejecting(true)} />
        )}
        {canSuspend && (
          <Button intent="warning" text="Suspender corporativo" onClick={() => setSuspending(true)} />
        )}
        {detail.state === 'suspendido'
          ? !canReactivate && (
              <p id="activar-motivo" className="flujo-operator-hint">
                {onboardingRefusal(corporate, 'corporate.reactivate')}
              </p>
            )
          : !canActivate && (
              <p id="activar-motivo" className="flujo-operator-hint">
                {ownCorporate && detail.state === 'en_revision' && detail.missing_kinds.length === 0
                  ? CORPORATE_MESSAGES.selfActivation
                  : onboardingRefusal(corporate, 'corporate.activate')}
              </p>
            )}
      </div>

      <UploadDialog
        kind={uploading}
        onClose={() => setUploading(null)}
        onSubmit={async (input) => {
          const result = await run(
            () => props.actions.upload(input),
            'Documento cargado; queda pendiente de revisión.',
          );
          if (result.ok) setUploading(null);
          return result;
        }}
      />
      <DecisionDialog
        target={deciding}
        onClose={() => setDeciding(null)}
        onSubmit={async (body) => {
          if (!deciding) return { ok: true };
          const result = await run(() => props.actions.decide(deciding.doc.id, body), 'Decisión registrada.');
          if (result.ok) setDeciding(null);
          return result;
        }}
      />
      <ReasonDialog
        isOpen={rejecting}
        title="Rechazar corporativo"
        submitText="Rechazar"
        id="rechazo-motivo"
        onClose={() => setRejecting(false)}
        onSubmit={async (reason) => {
          const result = await run(() => props.actions.reject(reason), 'El corporativo quedó rechazado.');
          if (result.ok) setRejecting(false);
          return result;
        }}
      />
      <ReasonDialog
        isOpen={suspending}
        title="Suspender corporativo"
        submitText="Suspender"
        id="suspension-motivo"
        onClose={() => setSuspending(false)}
        onSubmit={async (reason) => {
          const result = await run(() => props.actions.suspend(reason), 'El corporativo quedó suspendido.');
          if (result.ok) setSuspending(false);
          return result;
        }}
      />
      <PdfViewer
        title={viewing ? CORPORATE_DOCUMENT_LABELS[viewing.kind] : null}
        documentId={viewing?.id ?? null}
        load={props.actions.loadPdf}
        onClose={() => setViewing(null)}
      />
    </section>
  );
}

function UploadDialog(props: {
  kind: CorporateDocumentKind | null;
  onClose: () => void;
  onSubmit: (input: { kind: CorporateDocumentKind; file: File; clabe?: string }) => Promise<ActionResult>;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [clabe, setClabe] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const kind = props.kind;
  const close = () => {
    setFile(null);
    setClabe('');
    setError(null);
    props.onClose();
  };
  return (
    <Dialog
      isOpen={kind !== null}
      onClose={close}
      title={kind ? `Subir: ${CORPORATE_DOCUMENT_LABELS[kind]}` : ''}
    >
      <form
        noValidate
        aria-label="Subir documento"
        onSubmit={async (event) => {
          event.preventDefault();
          if (!kind) return;
          if (!file) {
            setError('Elige el archivo PDF.');
            return;
          }
          setBusy(true);
          const result = await props.onSubmit(
            kind === CLABE_DOCUMENT_KIND ? { kind, file, clabe } : { kind, file },
          );
          setBusy(false);
          if (result.ok) close();
          else setError(result.fields ? Object.values(result.fields).flat().join(' ') : result.message);
        }}
      >
        <DialogBody>
          {error && (
            <Callout intent="danger" role="alert">
              {error}
            </Callout>
          )}
          <FormGroup label="Archivo (PDF, máximo 10 MB)" labelFor="documento-archivo">
            <FileInput
              fill
              text={file?.name ?? 'Elige un PDF…'}
              buttonText="Examinar"
              inputProps={{ id: 'documento-archivo', accept: 'application/pdf,.pdf' }}
              onInputChange={(event) => setFile((event.target as HTMLInputElement).files?.[0] ?? null)}
            />
          </FormGroup>
          {kind === CLABE_DOCUMENT_KIND && (
            <FormGroup label="CLABE del estado de cuenta" labelFor="documento-clabe">
              <InputGroup id="documento-clabe" inputMode="numeric" value={clabe} onValueChange={setClabe} />
            </FormGroup>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancelar" onClick={close} />
              <Button type="submit" intent="primary" text="Subir" loading={busy} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}

function DecisionDialog(props: {
  target: { doc: CorporateDocument; status: DocumentDecision } | null;
  onClose: () => void;
  onSubmit: (body: {
    status: DocumentDecision;
    reason?: string;
    expires_on?: string;
  }) => Promise<ActionResult>;
}) {
  const [reason, setReason] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const target = props.target;
  const close = () => {
    setReason('');
    setExpiresOn('');
    setErrors({});
    setFailure(null);
    props.onClose();
  };
  const status = target?.status;
  return (
    <Dialog
      isOpen={target !== null}
      onClose={close}
      title={target ? `${DECISION_LABELS[target.status]}: ${CORPORATE_DOCUMENT_LABELS[target.doc.kind]}` : ''}
    >
      <form
        noValidate
        aria-label="Decisión sobre el documento"
        onSubmit={async (event) => {
          event.preventDefault();
          if (!status) return;
          setBusy(true);
          const result = await props.onSubmit({
            status,
            ...(reason.trim() ? { reason: reason.trim() } : {}),
            ...(expiresOn ? { expires_on: expiresOn } : {}),
          });
          setBusy(false);
          if (result.ok) close();
          else {
            setErrors(result.fields ?? {});
            setFailure(result.fields ? null : result.message);
          }
        }}
      >
        <DialogBody>
          {failure && (
            <Callout intent="danger" role="alert">
              {failure}
            </Callout>
          )}
          {status === 'rechazado' && (
            <FormGroup
              label="Motivo del rechazo"
              labelFor="decision-motivo"
              intent={errors.reason ? 'danger' : 'none'}
              helperText={errors.reason?.[0]}
            >
              <TextArea
                id="decision-motivo"
                fill
                value={reason}
                onChange={(e) => setReason(e.target.value)}
              />
            </FormGroup>
          )}
          {status !== 'rechazado' && (
            <FormGroup
              label={status === 'vencido' ? 'Fecha de vencimiento' : 'Vence el (opcional)'}
              labelFor="decision-vence"
              intent={errors.expires_on ? 'danger' : 'none'}
              helperText={errors.expires_on?.[0]}
            >
              <InputGroup id="decision-vence" type="date" value={expiresOn} onValueChange={setExpiresOn} />
            </FormGroup>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancelar" onClick={close} />
              <Button type="submit" intent="primary" text="Registrar decisión" loading={busy} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}

/** A decision on the whole corporate that needs a reason: rejecting it or suspending it. */
function ReasonDialog(props: {
  isOpen: boolean;
  title: string;
  submitText: string;
  id: string;
  onClose: () => void;
  onSubmit: (reason: string) => Promise<ActionResult>;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setReason('');
    setError(null);
    props.onClose();
  };
  return (
    <Dialog isOpen={props.isOpen} onClose={close} title={props.title}>
      <form
        noValidate
        aria-label={props.title}
        onSubmit={async (event) => {
          event.preventDefault();
          const result = await props.onSubmit(reason);
          if (!result.ok) setError(result.fields?.reason?.[0] ?? result.message);
        }}
      >
        <DialogBody>
          <FormGroup label="Motivo" labelFor={props.id} intent={error ? 'danger' : 'none'} helperText={error}>
            <TextArea id={props.id} fill value={reason} onChange={(e) => setReason(e.target.value)} />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancelar" onClick={close} />
              <Button type="submit" intent="danger" text={props.submitText} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
