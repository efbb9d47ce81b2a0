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
  Spinner,
  Tag,
  TextArea,
} from '@blueprintjs/core';
import { Controller, type Resolver, type ResolverResult, useForm } from 'react-hook-form';
import { displayDateTime } from '../../../domain/calendar-date';
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
import { corporateIntent } from '../../../machines/corporate-actions.machine';
import { onboardingRefusal, resolveOnboardingSnapshot } from '../../../machines/corporate-onboarding.machine';
import { TextField } from '../../common/text-field';
import { type BackOfficeColumn, BackOfficeList, loadedList, type RemoteData } from '../list/back-office-list';
import {
  ActionNotice,
  type CorporateActionsSend,
  type CorporateActionsSnapshot,
  dialogFailure,
  gestureInProgress,
} from './corporate-actions-view';
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

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toLocaleString('es-MX', { maximumFractionDigits: 2 })} MB`;
}

/** Today's date in the browser, 'YYYY-MM-DD' (the server judges expiries on its own business day). */
function localToday(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

type Admin = Detail['admins'][number];

const USER_COLUMNS: readonly BackOfficeColumn<Admin>[] = [
  { id: 'name', header: 'Nombre', cell: (user) => `${user.first_name} ${user.last_name}` },
  { id: 'email', header: 'Correo', cell: (user) => user.email },
  {
    id: 'password',
    header: 'Contraseña',
    cell: (user) => (user.has_password ? 'Elegida' : 'Invitación pendiente'),
  },
];

/** A row of the file: one of the eight kinds, with its document when one was uploaded. */
interface FileRow {
  kind: CorporateDocumentKind;
  doc: CorporateDocument | undefined;
}

const FILE_COLUMNS: readonly BackOfficeColumn<FileRow>[] = [
  { id: 'kind', header: 'Documento', rowHeader: true, cell: ({ kind }) => CORPORATE_DOCUMENT_LABELS[kind] },
  {
    id: 'status',
    header: 'Estado',
    cell: ({ doc }) => (
      <>
        {doc ? (
          <Tag intent={STATUS_INTENTS[doc.status]}>{DOCUMENT_STATUS_LABELS[doc.status]}</Tag>
        ) : (
          <Tag minimal>Sin cargar</Tag>
        )}
        {doc?.expires_on && <div>Vence: {doc.expires_on}</div>}
        {doc?.reason && <div>Motivo: {doc.reason}</div>}
      </>
    ),
  },
  {
    id: 'file',
    header: 'Archivo',
    cell: ({ doc }) =>
      doc ? (
        <>
          <div>{doc.file_name}</div>
          <div>
            {megabytes(doc.size_bytes)} · SHA-256 <code title={doc.sha256}>{doc.sha256.slice(0, 12)}…</code>
          </div>
          {doc.clabe && <div>CLABE {doc.clabe}</div>}
          <div>
            Subió {doc.uploaded_by}, {displayDateTime(doc.uploaded_at)}
          </div>
        </>
      ) : (
        '—'
      ),
  },
  {
    id: 'review',
    header: 'Revisión',
    cell: ({ doc }) =>
      doc?.reviewed_by
        ? doc.reviewed_at
          ? `${doc.reviewed_by}, ${displayDateTime(doc.reviewed_at)}`
          : doc.reviewed_by
        : '—',
  },
];

/** /operacion/corporativos/$corporateId: the company, its users, its eight documents and its activation. */
export function CorporateDetailPage(props: {
  detail: RemoteData<Detail>;
  snapshot: CorporateActionsSnapshot;
  send: CorporateActionsSend;
  /** The document whose PDF is open (the URL's `documento`), its PDF as a blob: URL, and how to open or close one. */
  openDocument: number | null;
  pdf: RemoteData<string>;
  onOpenDocument(documentId: number | null): void;
}) {
  const { snapshot, send } = props;
  const detail = props.detail.data;

  if (props.detail.status === 'pending') return <Spinner aria-label="Cargando el corporativo" />;
  if (props.detail.status === 'error' || !detail) {
    return (
      <Callout intent="danger" role="alert" title="No pudimos cargar el corporativo">
        <Button text="Reintentar" onClick={props.detail.retry} />
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
  const onboarding = resolveOnboardingSnapshot(corporate);
  const activation = { type: 'corporate.activate', actor: { userId: detail.viewer_id } } as const;
  const canActivate = onboarding.can(activation) && detail.missing_kinds.length === 0;
  const ownCorporate = detail.created_by_id !== null && detail.created_by_id === detail.viewer_id;
  const canReject = onboarding.can({ type: 'corporate.reject', reason: 'motivo' });
  const canSuspend = onboarding.can({ type: 'corporate.suspend', reason: 'motivo' });
  const canReactivate = onboarding.can({ type: 'corporate.reactivate' }) && detail.missing_kinds.length === 0;
  const canUpload = onboarding.can({ type: 'document.upload', kind: 'poderes' });
  const byKind = new Map(detail.documents.map((d) => [d.kind, d]));
  const viewing = detail.documents.find((d) => d.id === props.openDocument) ?? null;
  const busy = snapshot.hasTag('busy') || snapshot.matches('answerLost');
  const gesture = gestureInProgress(snapshot);
  const open = (intent: ReturnType<typeof corporateIntent>) => send({ type: 'action.open', intent });
  const run = (intent: ReturnType<typeof corporateIntent>) => send({ type: 'action.run', intent });

  const satLabel = isSatStatusCode(detail.sat_status)
    ? SAT_STATUS_LABELS[detail.sat_status]
    : String(detail.sat_status);

  const fileActions = ({ kind, doc }: FileRow) => (
    <div className="flujo-operator-actions">
      {doc && (
        <Button
          small
          text="Ver"
          onClick={() => props.onOpenDocument(doc.id)}
          aria-label={`Ver ${CORPORATE_DOCUMENT_LABELS[kind]}`}
        />
      )}
      {canUpload && (
        <Button
          small
          text={doc ? 'Reemplazar' : 'Subir'}
          aria-label={`${doc ? 'Reemplazar' : 'Subir'} ${CORPORATE_DOCUMENT_LABELS[kind]}`}
          onClick={() =>
            open(corporateIntent({ action: 'upload', kind }, `Subir: ${CORPORATE_DOCUMENT_LABELS[kind]}`))
          }
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
            onClick={() =>
              open(
                corporateIntent(
                  { action: 'decide', documentId: doc.id, kind, status },
                  `${DECISION_LABELS[status]}: ${CORPORATE_DOCUMENT_LABELS[kind]}`,
                ),
              )
            }
          />
        ))}
    </div>
  );

  return (
    <section aria-labelledby="corporativo-titulo" className="flujo-operator-page">
      <header className="flujo-operator-page-header">
        <H1 id="corporativo-titulo">{detail.name}</H1>
        <Tag large intent={ONBOARDING_STATE_INTENTS[detail.state]}>
          {ONBOARDING_STATE_LABELS[detail.state]}
        </Tag>
      </header>
      <ActionNotice snapshot={snapshot} send={send} />
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
        <dt className="flujo-corporate-group-label">Grupo económico</dt>
        <dd className="flujo-corporate-group">
          <span>{detail.economic_group ?? 'Sin grupo'}</span>
          <Button
            small
            text={detail.economic_group ? 'Cambiar grupo' : 'Asignar grupo'}
            aria-label={detail.economic_group ? 'Cambiar grupo económico' : 'Asignar grupo económico'}
            disabled={busy}
            onClick={() => open(corporateIntent({ action: 'group' }, detail.name))}
          />
        </dd>
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
      <BackOfficeList
        label="Usuarios del corporativo"
        remote={loadedList(detail.admins)}
        columns={USER_COLUMNS}
        rowKey={(user) => user.id}
        loading="Cargando los usuarios"
        failed="No pudimos cargar los usuarios"
        empty={{ title: 'Sin usuarios' }}
      />

      <H2>Expediente</H2>
      <BackOfficeList
        label="Expediente"
        remote={loadedList(CORPORATE_DOCUMENT_KINDS.map((kind) => ({ kind, doc: byKind.get(kind) })))}
        columns={FILE_COLUMNS}
        rowKey={(row) => row.kind}
        rowActions={fileActions}
        loading="Cargando el expediente"
        failed="No pudimos cargar el expediente"
        empty={{ title: 'Sin documentos' }}
      />

      <div className="flujo-operator-actions">
        {detail.state === 'suspendido' ? (
          <Button
            intent="success"
            text="Reactivar corporativo"
            disabled={!canReactivate || busy}
            aria-describedby="activar-motivo"
            onClick={() => run(corporateIntent({ action: 'reactivate' }, detail.name))}
          />
        ) : (
          <Button
            intent="success"
            text="Activar corporativo"
            disabled={!canActivate || busy}
            aria-describedby="activar-motivo"
            onClick={() => run(corporateIntent({ action: 'activate' }, detail.name))}
          />
        )}
        {canReject && (
          <Button
            intent="danger"
            text="Rechazar corporativo"
            onClick={() => open(corporateIntent({ action: 'reject' }, detail.name))}
          />
        )}
        {canSuspend && (
          <Button
            intent="warning"
            text="Suspender corporativo"
            onClick={() => open(corporateIntent({ action: 'suspend' }, detail.name))}
          />
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

      <Dialog
        isOpen={gesture?.action === 'upload'}
        onClose={() => send({ type: 'action.cancel' })}
        title={snapshot.context.intent?.label ?? ''}
      >
        {gesture?.action === 'upload' && <UploadForm kind={gesture.kind} snapshot={snapshot} send={send} />}
      </Dialog>
      <Dialog
        isOpen={gesture?.action === 'decide'}
        onClose={() => send({ type: 'action.cancel' })}
        title={snapshot.context.intent?.label ?? ''}
      >
        {gesture?.action === 'decide' && (
          <DecisionForm status={gesture.status} snapshot={snapshot} send={send} />
        )}
      </Dialog>
      <ReasonDialog
        isOpen={gesture?.action === 'reject'}
        title="Rechazar corporativo"
        submitText="Rechazar"
        id="rechazo-motivo"
        snapshot={snapshot}
        send={send}
      />
      <ReasonDialog
        isOpen={gesture?.action === 'suspend'}
        title="Suspender corporativo"
        submitText="Suspender"
        id="suspension-motivo"
        snapshot={snapshot}
        send={send}
      />
      <Dialog
        isOpen={gesture?.action === 'group'}
        onClose={() => send({ type: 'action.cancel' })}
        title="Grupo económico"
      >
        {gesture?.action === 'group' && (
          <GroupForm current={detail.economic_group} snapshot={snapshot} send={send} />
        )}
      </Dialog>
      <PdfViewer
        title={viewing ? CORPORATE_DOCUMENT_LABELS[viewing.kind] : null}
        open={props.openDocument !== null}
        pdf={props.pdf}
        onClose={() => props.onOpenDocument(null)}
      />
    </section>
  );
}

/** The dialog's form is sent, or sent again with the same key after a lost answer. */
function submitOrRetry(snapshot: CorporateActionsSnapshot, send: CorporateActionsSend, input: unknown) {
  send(snapshot.matches('answerLost') ? { type: 'action.retry' } : { type: 'action.submit', input });
}

type UploadValues = {
  file: File | null;
  clabe: string;
};

const uploadResolver: Resolver<UploadValues> = async (values): Promise<ResolverResult<UploadValues>> => {
  if (values.file) return { values, errors: {} };
  return { values: {}, errors: { file: { type: 'required', message: 'Elige el archivo PDF.' } } };
};

function UploadForm(props: {
  kind: CorporateDocumentKind;
  snapshot: CorporateActionsSnapshot;
  send: CorporateActionsSend;
}) {
  const { kind, snapshot, send } = props;
  const { control, register, handleSubmit, formState } = useForm<UploadValues>({
    defaultValues: { file: null, clabe: '' },
    resolver: uploadResolver,
  });
  const fields = snapshot.matches('editing')
    ? Object.values(snapshot.context.failure?.fields ?? {}).flat()
    : [];
  const error =
    formState.errors.file?.message ?? (fields.length > 0 ? fields.join(' ') : dialogFailure(snapshot));
  const clabe = register('clabe');
  return (
    <form
      noValidate
      aria-label="Subir documento"
      onSubmit={handleSubmit(({ file, clabe }) =>
        submitOrRetry(snapshot, send, kind === CLABE_DOCUMENT_KIND ? { file, clabe } : { file }),
      )}
    >
      <DialogBody>
        {error && (
          <Callout intent="danger" role="alert">
            {error}
          </Callout>
        )}
        <FormGroup label="Archivo (PDF, máximo 10 MB)" labelFor="documento-archivo">
          <Controller
            control={control}
            name="file"
            render={({ field }) => (
              <FileInput
                fill
                text={field.value?.name ?? 'Elige un PDF…'}
                buttonText="Examinar"
                inputProps={{ id: 'documento-archivo', accept: 'application/pdf,.pdf' }}
                onInputChange={(event) =>
                  field.onChange((event.target as HTMLInputElement).files?.[0] ?? null)
                }
              />
            )}
          />
        </FormGroup>
        {kind === CLABE_DOCUMENT_KIND && (
          <TextField
            id="documento-clabe"
            label="CLABE del estado de cuenta"
            inputMode="numeric"
            registration={clabe}
          />
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancelar" onClick={() => send({ type: 'action.cancel' })} />
            <Button type="submit" intent="primary" text="Subir" loading={snapshot.hasTag('busy')} />
          </>
        }
      />
    </form>
  );
}

interface DecisionValues {
  reason: string;
  expires_on: string;
}

function DecisionForm(props: {
  status: DocumentDecision;
  snapshot: CorporateActionsSnapshot;
  send: CorporateActionsSend;
}) {
  const { status, snapshot, send } = props;
  const { register, handleSubmit } = useForm<DecisionValues>({
    defaultValues: { reason: '', expires_on: '' },
  });
  const errors = snapshot.matches('editing') ? (snapshot.context.failure?.fields ?? {}) : {};
  const failure = Object.keys(errors).length > 0 ? null : dialogFailure(snapshot);
  const reason = register('reason');
  const expiresOn = register('expires_on');
  return (
    <form
      noValidate
      aria-label="Decisión sobre el documento"
      onSubmit={handleSubmit((values) =>
        submitOrRetry(snapshot, send, {
          status,
          ...(values.reason.trim() ? { reason: values.reason.trim() } : {}),
          ...(values.expires_on ? { expires_on: values.expires_on } : {}),
        }),
      )}
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
              inputRef={reason.ref}
              name={reason.name}
              onChange={reason.onChange}
              onBlur={reason.onBlur}
            />
          </FormGroup>
        )}
        {status !== 'rechazado' && (
          <TextField
            id="decision-vence"
            label={status === 'vencido' ? 'Fecha de vencimiento' : 'Vence el (opcional)'}
            type="date"
            error={errors.expires_on?.[0]}
            registration={expiresOn}
          />
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancelar" onClick={() => send({ type: 'action.cancel' })} />
            <Button
              type="submit"
              intent="primary"
              text="Registrar decisión"
              loading={snapshot.hasTag('busy')}
            />
          </>
        }
      />
    </form>
  );
}

/**
 * The corporate's economic group (decision 0069): its exposure adds up with the group's. Empty takes it away;
 * the server trims the name and answers its own per-field message.
 */
function GroupForm(props: {
  current: string | null;
  snapshot: CorporateActionsSnapshot;
  send: CorporateActionsSend;
}) {
  const { snapshot, send } = props;
  const { register, handleSubmit } = useForm<{ economic_group: string }>({
    defaultValues: { economic_group: props.current ?? '' },
  });
  const fields = snapshot.matches('editing') ? (snapshot.context.failure?.fields ?? {}) : {};
  const fieldError = fields.economic_group?.[0];
  const failure = Object.keys(fields).length > 0 ? null : dialogFailure(snapshot);
  const group = register('economic_group');
  return (
    <form
      noValidate
      aria-label="Grupo económico"
      onSubmit={handleSubmit((values) =>
        submitOrRetry(snapshot, send, {
          economic_group: values.economic_group.trim() === '' ? null : values.economic_group,
        }),
      )}
    >
      <DialogBody>
        {failure && (
          <Callout intent="danger" role="alert">
            {failure}
          </Callout>
        )}
        <TextField
          id="grupo-economico"
          label="Grupo económico"
          helper="Vacío para quitarlo. Su exposición se suma con la del grupo y le aplican los topes del grupo."
          error={fieldError ?? Object.values(fields).flat()[0]}
          registration={group}
        />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancelar" onClick={() => send({ type: 'action.cancel' })} />
            <Button type="submit" intent="primary" text="Guardar" loading={snapshot.hasTag('busy')} />
          </>
        }
      />
    </form>
  );
}

/** A decision on the whole corporate that needs a reason: rejecting it or suspending it. */
function ReasonDialog(props: {
  isOpen: boolean;
  title: string;
  submitText: string;
  id: string;
  snapshot: CorporateActionsSnapshot;
  send: CorporateActionsSend;
}) {
  return (
    <Dialog isOpen={props.isOpen} onClose={() => props.send({ type: 'action.cancel' })} title={props.title}>
      {props.isOpen && <ReasonForm {...props} />}
    </Dialog>
  );
}

function ReasonForm(props: {
  title: string;
  submitText: string;
  id: string;
  snapshot: CorporateActionsSnapshot;
  send: CorporateActionsSend;
}) {
  const { snapshot, send } = props;
  const { register, handleSubmit } = useForm<{ reason: string }>({ defaultValues: { reason: '' } });
  const fields = snapshot.matches('editing') ? (snapshot.context.failure?.fields ?? {}) : {};
  const error = fields.reason?.[0] ?? Object.values(fields).flat()[0] ?? dialogFailure(snapshot);
  const reason = register('reason');
  return (
    <form
      noValidate
      aria-label={props.title}
      onSubmit={handleSubmit((values) => submitOrRetry(snapshot, send, { reason: values.reason }))}
    >
      <DialogBody>
        <FormGroup label="Motivo" labelFor={props.id} intent={error ? 'danger' : 'none'} helperText={error}>
          <TextArea
            id={props.id}
            fill
            inputRef={reason.ref}
            name={reason.name}
            onChange={reason.onChange}
            onBlur={reason.onBlur}
          />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancelar" onClick={() => send({ type: 'action.cancel' })} />
            <Button type="submit" intent="danger" text={props.submitText} loading={snapshot.hasTag('busy')} />
          </>
        }
      />
    </form>
  );
}
