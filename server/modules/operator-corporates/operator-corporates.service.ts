import { createHash } from 'node:crypto';
import { transition } from 'xstate';
import type { IsoDate } from '../../../src/domain/calendar-date';
import { checkClabe } from '../../../src/domain/clabe';
import {
  CLABE_DOCUMENT_KIND,
  CORPORATE_MESSAGES,
  type CorporateDocumentKind,
  effectiveDocumentStatus,
  type FileDocument,
  isCorporateDocumentKind,
  looksLikePdf,
  missingDocumentKinds,
  type OnboardingState,
} from '../../../src/domain/corporate-file';
import type {
  CorporateCreated,
  CorporateDetail,
  CorporateDocument,
  CorporateProgramme,
  CreateCorporateBody,
  DocumentDecisionBody,
} from '../../../src/domain/schemas/operator-corporates';
import {
  type CorporateOnboardingEvent,
  corporateOnboardingMachine,
  ONBOARDING_VALUE_TO_STATE,
  onboardingRefusal,
  resolveOnboardingSnapshot,
} from '../../../src/machines/corporate-onboarding.machine';
import type { Db } from '../../db/database';
import { inTransaction } from '../../db/transaction';
import { FieldErrors } from '../../http/errors';
import type { Mailer } from '../../mail/mailer';
import { uniqueViolationField } from '../accounts/accounts.service';
import {
  companyUsers,
  findCompanyForOnboarding,
  findCorporateOnboarding,
  insertCorporateCompany,
  insertInvitedUser,
  isUsernameOrEmailTaken,
  listCorporates,
  promoteToCorporate,
  setOnboardingState,
  usernameOf,
} from '../accounts/corporate-account.repository';
import { issueResetLink } from '../accounts/password-reset.service';
import { efosStandingOf } from '../efos/efos.repository';
import {
  currentDocuments,
  decideDocument,
  documentContent,
  findCurrentDocument,
  replaceDocument,
} from './corporate-documents.repository';

/** The invitation's link lives three days: time for a company's admin to find the mail (the reset's stays 60 min). */
export const INVITATION_LINK_HOURS = 72;

/** A refusal with a Spanish message; the app's error handler answers it as {detail} with its status. */
export class CorporateRequestError extends Error {
  constructor(
    readonly statusCode: 403 | 404 | 409 | 415,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The RFC is an existing provider's and the body did not confirm its promotion: the route answers 409
 * {confirm_promotion: [message naming the provider]} so the form can ask and send it again.
 */
export class PromotionUnconfirmed extends Error {
  readonly statusCode = 409;
  constructor(readonly providerName: string) {
    super(CORPORATE_MESSAGES.confirmPromotion(providerName));
  }
  body(): Record<string, string[]> {
    return { confirm_promotion: [this.message] };
  }
}

export interface OperatorCorporatesDeps {
  db: Db;
  mailer: Mailer;
  now: () => Date;
  appBaseUrl: string;
  /** The corporate's programme figures (the foundation's programmeBalances), or null when it has none. */
  programmeOf: (db: Db, corporateId: number) => Promise<CorporateProgramme | null>;
}

function invitationMail(firstName: string, companyName: string, link: string): string {
  return [
    `Hola ${firstName}:`,
    '',
    `Flujo dio de alta a ${companyName} como corporativo. Eres su primer usuario.`,
    'Para elegir tu contraseña y entrar, abre este enlace:',
    '',
    link,
    '',
    `El enlace funciona una sola vez y vence en ${INVITATION_LINK_HOURS} horas.`,
    'Tu usuario es tu correo electrónico.',
    '',
    'Equipo Flujo',
  ].join('\n');
}

/**
 * POST /api/operator/corporates/: a new corporate in borrador (or an existing provider promoted, its SAT link
 * and invoices kept, its users left on the provider side) and its first user, invited by e-mail to set a
 * password with a 72-hour reset link. The analista who creates it is recorded: another aprobador activates it.
 * 409 when the RFC is a corporate already, or a provider's whose promotion the body did not confirm; 400
 * {admin.email} when the e-mail has an account.
 */
export async function createCorporate(
  deps: OperatorCorporatesDeps,
  body: CreateCorporateBody,
  operatorUserId: number,
): Promise<CorporateCreated> {
  const email = body.admin.email.toLowerCase();
  const created = await inTransaction(deps.db, async (trx) => {
    const existing = await findCompanyForOnboarding(trx, body.rfc, { lock: true });
    if (existing?.is_corporate) throw new CorporateRequestError(409, CORPORATE_MESSAGES.alreadyCorporate);
    // Promotion changes who the provider is to Flujo: the operator must say it knows which company it is.
    if (existing && body.confirm_promotion !== true) throw new PromotionUnconfirmed(existing.name);
    // The admin signs in with the e-mail as user name: one thing to remember.
    if (await isUsernameOrEmailTaken(trx, email, email)) {
      throw new FieldErrors({ 'admin.email': [CORPORATE_MESSAGES.emailTaken] });
    }
    const at = deps.now();
    let companyId: number;
    if (existing) {
      companyId = existing.id;
      await promoteToCorporate(trx, companyId, { at, createdBy: operatorUserId });
    } else {
      companyId = await insertCorporateCompany(trx, {
        rfc: body.rfc,
        name: body.name,
        at,
        createdBy: operatorUserId,
      });
    }
    const userId = await insertInvitedUser(trx, companyId, {
      username: email,
      email,
      firstName: body.admin.name,
      lastName: body.admin.last_name,
    });
    const link = await issueResetLink(deps, trx, userId, INVITATION_LINK_HOURS * 60);
    return {
      companyId,
      userId,
      link,
      name: existing?.name ?? body.name,
      promoted: existing !== undefined,
    };
  }).catch((error: unknown) => {
    throw concurrentCreationRefusal(error);
  });
  await deps.mailer.send({
    to: email,
    subject: `Invitación a Flujo: ${created.name}`,
    text: invitationMail(body.admin.name, created.name, created.link),
  });
  return {
    id: created.companyId,
    rfc: body.rfc,
    name: created.name,
    state: 'borrador',
    promoted: created.promoted,
    admin_user_id: created.userId,
  };
}

/**
 * Two onboardings of the same new RFC or e-mail at once: the loser's INSERT meets the unique index (the locked
 * read saw no row yet). Answered as if it had come second: 409 for the RFC, 400 for the e-mail.
 */
function concurrentCreationRefusal(error: unknown): unknown {
  const field = uniqueViolationField(error);
  if (field !== null) return new FieldErrors({ 'admin.email': [CORPORATE_MESSAGES.emailTaken] });
  const { code, constraint, message } = (error ?? {}) as {
    code?: unknown;
    constraint?: unknown;
    message?: unknown;
  };
  if (
    code === '23505' &&
    `${String(constraint ?? '')} ${String(message ?? '')}`.includes('companies_rfc_key')
  ) {
    return new CorporateRequestError(409, CORPORATE_MESSAGES.alreadyCorporate);
  }
  return error;
}

export interface CorporateListQuery {
  search: string | null;
  state: OnboardingState | null;
  page: number;
  pageSize: number;
}

export async function corporatesPage(db: Db, query: CorporateListQuery) {
  const { rows, count } = await listCorporates(db, {
    search: query.search,
    state: query.state,
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  return {
    count,
    results: rows.map((row) => ({ id: row.id, rfc: row.rfc, name: row.name, state: row.onboarding_state })),
  };
}

function fileOf(
  documents: readonly { kind: string; status: string; expires_on: string | null }[],
): FileDocument[] {
  return documents.flatMap((d) =>
    isCorporateDocumentKind(d.kind)
      ? [{ kind: d.kind, status: d.status as FileDocument['status'], expires_on: d.expires_on }]
      : [],
  );
}

async function requireCorporate(db: Db, corporateId: number, lock = false) {
  const corporate = await findCorporateOnboarding(db, corporateId, { lock });
  if (!corporate) throw new CorporateRequestError(404, CORPORATE_MESSAGES.notFound);
  return corporate;
}

/** GET /api/operator/corporates/{id}/: the company, its users, its file, its programme and who created it. */
export async function corporateDetail(
  deps: Pick<OperatorCorporatesDeps, 'db' | 'programmeOf'>,
  corporateId: number,
  viewerId: number,
  today: IsoDate,
): Promise<CorporateDetail> {
  const corporate = await requireCorporate(deps.db, corporateId);
  const [users, documents, programme, createdBy] = await Promise.all([
    companyUsers(deps.db, corporateId),
    currentDocuments(deps.db, corporateId),
    deps.programmeOf(deps.db, corporateId),
    usernameOf(deps.db, corporate.onboarding_created_by),
  ]);
  const results: CorporateDocument[] = documents.map((d) => ({
    id: d.id,
    kind: d.kind as CorporateDocumentKind,
    file_name: d.file_name,
    size_bytes: d.size_bytes,
    sha256: d.sha256,
    clabe: d.clabe,
    status: effectiveDocumentStatus(
      { status: d.status as FileDocument['status'], expires_on: d.expires_on },
      today,
    ),
    reason: d.reason,
    expires_on: d.expires_on,
    uploaded_by: d.uploaded_by,
    uploaded_at: d.uploaded_at,
    reviewed_by: d.reviewed_by,
    reviewed_at: d.reviewed_at,
  }));
  return {
    id: corporate.id,
    rfc: corporate.rfc,
    name: corporate.name,
    state: corporate.onboarding_state,
    state_reason: corporate.onboarding_reason,
    sat_status: corporate.sat_status,
    admins: users,
    documents: results,
    missing_kinds: missingDocumentKinds(fileOf(documents), today),
    programme,
    efos: await efosStandingOf(deps.db, corporate.rfc),
    created_by_id: corporate.onboarding_created_by,
    created_by: createdBy,
    economic_group: corporate.economic_group,
    viewer_id: viewerId,
  };
}

/**
 * Applies an onboarding event to a locked corporate: the machine decides (409 with its Spanish refusal
 * otherwise), `write` stores what the event does, and the corporate's new state is stored when it moved.
 */
async function applyOnboardingEvent(
  trx: Db,
  corporate: { id: number; onboarding_state: OnboardingState; onboarding_created_by: number | null },
  today: IsoDate,
  event: CorporateOnboardingEvent,
  change: { reason: string | null; at: Date; activatedBy?: number },
): Promise<OnboardingState> {
  const documents = fileOf(await currentDocuments(trx, corporate.id));
  const current = {
    state: corporate.onboarding_state,
    documents,
    today,
    creatorId: corporate.onboarding_created_by,
  };
  const snapshot = resolveOnboardingSnapshot(current);
  if (!snapshot.can(event)) throw new CorporateRequestError(409, onboardingRefusal(current, event.type));
  const [next] = transition(corporateOnboardingMachine, snapshot, event);
  const state = ONBOARDING_VALUE_TO_STATE[String(next.value)] ?? corporate.onboarding_state;
  if (state !== corporate.onboarding_state) await setOnboardingState(trx, corporate.id, { state, ...change });
  return state;
}

export interface DocumentUpload {
  kind: string | undefined;
  clabe: string | undefined;
  file: { fileName: string; data: Buffer } | null;
}

/** The upload's fields checked in Spanish per field (the file's own refusals come from server/uploads). */
function checkUpload(upload: DocumentUpload): { kind: CorporateDocumentKind; clabe: string | null } {
  const errors: Record<string, string[]> = {};
  const kind = upload.kind?.trim();
  if (!isCorporateDocumentKind(kind)) errors.kind = [CORPORATE_MESSAGES.kindInvalid];
  let clabe: string | null = null;
  if (kind === CLABE_DOCUMENT_KIND) {
    const check = checkClabe(upload.clabe ?? '');
    if (check.ok) clabe = check.clabe;
    else errors.clabe = [check.reason];
  }
  if (Object.keys(errors).length > 0 || !isCorporateDocumentKind(kind)) throw new FieldErrors(errors);
  return { kind, clabe };
}

/**
 * POST .../documents/: stores the PDF as the current document of its kind, pendiente, with its SHA-256,
 * uploader and time (the one it replaces stays as history). The content decides: a file that does not start
 * with %PDF- is refused (415) whatever its name or media type says.
 */
export async function uploadDocument(
  deps: Pick<OperatorCorporatesDeps, 'db' | 'now'>,
  corporateId: number,
  upload: DocumentUpload & { file: { fileName: string; data: Buffer } },
  operatorUserId: number,
  today: IsoDate,
): Promise<{ id: number; state: OnboardingState }> {
  const { kind, clabe } = checkUpload(upload);
  if (!looksLikePdf(upload.file.data)) throw new CorporateRequestError(415, CORPORATE_MESSAGES.notPdf);
  const sha256 = createHash('sha256').update(upload.file.data).digest('hex');
  return inTransaction(deps.db, async (trx) => {
    const corporate = await requireCorporate(trx, corporateId, true);
    const at = deps.now();
    const state = await applyOnboardingEvent(
      trx,
      corporate,
      today,
      { type: 'document.upload', kind },
      {
        reason: null,
        at,
      },
    );
    const id = await replaceDocument(trx, {
      corporateId,
      kind,
      fileName: upload.file.fileName.slice(0, 255),
      content: upload.file.data,
      sha256,
      clabe,
      uploadedBy: operatorUserId,
      at,
    });
    return { id, state };
  });
}

/** GET .../documents/{doc}/file/: the PDF's bytes. */
export async function documentFile(db: Db, corporateId: number, documentId: number) {
  const file = await documentContent(db, corporateId, documentId);
  if (!file) throw new CorporateRequestError(404, CORPORATE_MESSAGES.documentNotFound);
  return file;
}

/** POST .../documents/{doc}/decision/: the aprobador's decision, recorded with the reviewer and time. */
export async function decideOnDocument(
  deps: Pick<OperatorCorporatesDeps, 'db' | 'now'>,
  corporateId: number,
  documentId: number,
  body: DocumentDecisionBody,
  operatorUserId: number,
  today: IsoDate,
): Promise<{ message: string }> {
  return inTransaction(deps.db, async (trx) => {
    const corporate = await requireCorporate(trx, corporateId, true);
    const document = await findCurrentDocument(trx, corporateId, documentId, { lock: true });
    if (!document || !isCorporateDocumentKind(document.kind)) {
      throw new CorporateRequestError(404, CORPORATE_MESSAGES.documentNotFound);
    }
    const expiresOn = body.expires_on ?? null;
    const at = deps.now();
    await applyOnboardingEvent(
      trx,
      corporate,
      today,
      { type: 'document.decide', kind: document.kind, status: body.status, expiresOn },
      { reason: null, at },
    );
    await decideDocument(trx, documentId, {
      status: body.status,
      // Only a rejection keeps its reason; an approval's note would read as a refusal later.
      reason: body.status === 'rechazado' ? (body.reason ?? null) : null,
      expiresOn,
      reviewedBy: operatorUserId,
      at,
    });
    return { message: CORPORATE_MESSAGES.decisionRecorded };
  });
}

/**
 * One decision on a corporate's onboarding, in a transaction with the company row locked: the machine decides
 * (applyOnboardingEvent refuses what it does not allow) and the change is stored with its reason.
 */
function decideOnboarding(
  deps: Pick<OperatorCorporatesDeps, 'db' | 'now'>,
  corporateId: number,
  today: IsoDate,
  event: CorporateOnboardingEvent,
  change: { reason: string | null; activatedBy?: number },
  precheck?: (corporate: { onboarding_created_by: number | null }) => void,
): Promise<{ id: number; state: OnboardingState }> {
  return inTransaction(deps.db, async (trx) => {
    const corporate = await requireCorporate(trx, corporateId, true);
    precheck?.(corporate);
    const state = await applyOnboardingEvent(trx, corporate, today, event, { ...change, at: deps.now() });
    return { id: corporateId, state };
  });
}

/**
 * POST .../activate/: only when every kind is aprobado and valid today (409 lists what is missing), and by an
 * aprobador who did not create the corporate (403; the machine's guard and a CHECK of migration 014 agree).
 */
export function activateCorporate(
  deps: Pick<OperatorCorporatesDeps, 'db' | 'now'>,
  corporateId: number,
  operatorUserId: number,
  today: IsoDate,
): Promise<{ id: number; state: OnboardingState }> {
  return decideOnboarding(
    deps,
    corporateId,
    today,
    { type: 'corporate.activate', actor: { userId: operatorUserId } },
    { reason: null, activatedBy: operatorUserId },
    (corporate) => {
      // Said as a 403 with its reason before the machine's guard would refuse it as a plain conflict.
      if (corporate.onboarding_created_by === operatorUserId) {
        throw new CorporateRequestError(403, CORPORATE_MESSAGES.selfActivation);
      }
    },
  );
}

/**
 * POST .../suspend/: an active corporate loses its access at once (its users' open sessions from their next
 * request, which reads the state afresh), with the reason.
 */
export function suspendCorporate(
  deps: Pick<OperatorCorporatesDeps, 'db' | 'now'>,
  corporateId: number,
  reason: string,
  today: IsoDate,
): Promise<{ id: number; state: OnboardingState }> {
  return decideOnboarding(deps, corporateId, today, { type: 'corporate.suspend', reason }, { reason });
}

/** POST .../reactivate/: a suspended corporate gets its access back once its file is approved and valid. */
export function reactivateCorporate(
  deps: Pick<OperatorCorporatesDeps, 'db' | 'now'>,
  corporateId: number,
  today: IsoDate,
): Promise<{ id: number; state: OnboardingState }> {
  return decideOnboarding(deps, corporateId, today, { type: 'corporate.reactivate' }, { reason: null });
}

/** POST .../reject/: the corporate is turned down with a reason; its file no longer changes. */
export function rejectCorporate(
  deps: Pick<OperatorCorporatesDeps, 'db' | 'now'>,
  corporateId: number,
  reason: string,
  today: IsoDate,
): Promise<{ id: number; state: OnboardingState }> {
  return decideOnboarding(deps, corporateId, today, { type: 'corporate.reject', reason }, { reason });
}
