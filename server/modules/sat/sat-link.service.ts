import { paths } from '../../../src/domain/paths';
import { SAT_CLAIM_LIFETIME_DAYS, satClaimExpiryCutoff } from '../../../src/domain/sat-claim';
import { SAT_STATUS_LABELS, SatStatus, type SatStatusCode } from '../../../src/domain/sat-status';
import type { TaxLink } from '../../../src/domain/schemas/session';
import { SERVER_MESSAGES } from '../../../src/domain/schemas/session';
import { parseCfdi } from '../../cfdi/parse-cfdi';
import type { Db } from '../../db/database';
import { inTransaction } from '../../db/transaction';
import { FieldErrors } from '../../http/errors';
import type { Mailer } from '../../mail/mailer';
import {
  endStaleClaims,
  findCompanyByRfc,
  findCompanySatLink,
  findLatestClaimant,
  isRfcTakenByAnother,
  lockPendingClaims,
  type PendingClaim,
  updateCompanySatLink,
} from '../accounts/company.repository';
import type { Clock } from '../auth/clock';
import { insertAllianceIfMissing } from '../invoices/alliance.repository';
import { companyHasInvoices, receiverCompanyIds, storedCfdi } from '../invoices/invoice.repository';
import { ACCESS_MESSAGES, InvoiceRequestError } from '../invoices/invoice-access';
import { companyRecipients, sendToAll } from '../invoices/invoice-notifications';
import { activateAlliancesOnSatApproval } from '../operator-alliances/operator-alliances.service';
import type { CfdiAuthenticity } from './cfdi-authenticity';
import {
  cfdiText,
  type ImportResult,
  importCfdiFiles,
  type PaymentComplementImporter,
} from './cfdi-import.service';
import { decryptCiec, encryptCiec } from './ciec-crypto';
import type { SatConnector } from './sat-connector';

export interface SatLinkDeps {
  db: Db;
  /** AES-256-GCM key for the stored CIEC (SAT_ENCRYPTION_KEY). */
  encryptionKey: Buffer;
  connector: SatConnector;
  /** Proves each downloaded CFDI before it is imported. */
  authenticity: CfdiAuthenticity;
  /** Imports a synced payment CFDI (REP) as one; absent, the sync refuses type P like the ZIP upload does. */
  paymentComplements?: PaymentComplementImporter;
  now: Clock;
  /** Absent in operator commands that should not e-mail. */
  mailer?: Mailer;
  appBaseUrl?: string;
}

export const SAT_LINK_MESSAGES = {
  sent: SERVER_MESSAGES.taxLinkSent,
  rfcTaken: 'Este RFC ya está vinculado a otra cuenta.',
  rfcMismatch: 'El RFC no coincide con el de tu empresa, que ya tiene facturas registradas.',
  alreadyAuthorized: 'Tu cuenta ya está vinculada con el SAT.',
  ciecTooLong: 'La contraseña CIEC no es válida.',
  /** A pending claim another account's approved link beat (told by mail and by the status). */
  claimLost: 'Otra cuenta ya vinculó este RFC con el SAT.',
  claimLapsed: `Tu solicitud de vinculación venció: pasaron ${SAT_CLAIM_LIFETIME_DAYS} días sin aprobación. Envía tus credenciales de nuevo.`,
} as const;

/** NOTE: a CIEC is 8 alphanumeric characters today (SAT); the bound only stops abuse, not future formats. */
const MAX_CIEC_LENGTH = 64;
/**
 * The max_rate (annual, IVA included: 15% + IVA) of an alliance the SAT sync creates for a provider that
 * invoices a Flujo corporate without one; the operator can set another with `sat:approve <RFC> --rate`.
 */
export const DEFAULT_ALLIANCE_MAX_RATE = '17.4000';
export const SAT_SYNC_ACTOR = 'sincronización SAT';

/** A refusal of an operator command; the CLI prints the message and exits 1. */
export class SatOperationError extends Error {}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}

/**
 * POST /api/accounts/ciec/: stores the CIEC encrypted and sets the SAT link to SENT (10) with a claim on the
 * RFC. A claim holds nothing: other accounts may claim the same RFC, and the first SAT authorizes takes it
 * (companies.rfc). Refused when another company already holds the RFC; a company with invoices keeps its RFC.
 */
export async function submitTaxLink(
  deps: Pick<SatLinkDeps, 'db' | 'encryptionKey' | 'now'>,
  companyId: number | null,
  link: TaxLink,
): Promise<void> {
  if (companyId === null) throw new InvoiceRequestError(403, ACCESS_MESSAGES.noCompany);
  if (link.ciec.length > MAX_CIEC_LENGTH) throw new FieldErrors({ ciec: [SAT_LINK_MESSAGES.ciecTooLong] });
  await inTransaction(deps.db, async (trx) => {
    const company = await findCompanySatLink(trx, companyId, { lock: true });
    if (company.sat_status === SatStatus.AUTHORIZED) {
      throw new InvoiceRequestError(409, SAT_LINK_MESSAGES.alreadyAuthorized);
    }
    if (await isRfcTakenByAnother(trx, link.rfc, companyId)) {
      throw new FieldErrors({ rfc: [SAT_LINK_MESSAGES.rfcTaken] });
    }
    if (company.rfc !== null && company.rfc !== link.rfc) {
      if (await companyHasInvoices(trx, companyId)) {
        throw new FieldErrors({ rfc: [SAT_LINK_MESSAGES.rfcMismatch] });
      }
    }
    const at = deps.now().toISOString();
    await updateCompanySatLink(trx, companyId, {
      sat_claimed_rfc: link.rfc,
      sat_claimed_at: at,
      sat_ciec_encrypted: encryptCiec(link.ciec, deps.encryptionKey, companyId),
      sat_status: SatStatus.SENT,
      sat_status_changed_at: at,
      sat_status_reason: null,
    });
  });
}

/** Ends the claims in `scope` that can no longer win (lapsed, or their RFC is held by another company). */
function endStale(deps: Pick<SatLinkDeps, 'db' | 'now'>, scope: { companyId: number } | { rfc: string }) {
  const now = deps.now();
  return endStaleClaims(deps.db, scope, {
    at: now.toISOString(),
    lapsedAt: satClaimExpiryCutoff(now).toISOString(),
    reasons: { lapsed: SAT_LINK_MESSAGES.claimLapsed, taken: SAT_LINK_MESSAGES.claimLost },
  });
}

/**
 * GET /api/accounts/ciec/: the caller's company link, without the CIEC (it never leaves the server). The RFC is
 * the one it holds or, until SAT authorizes it, the one it claimed. A claim that lapsed or lost its RFC to
 * another account is ended here (lazily) and shown rejected, with the reason.
 */
export async function satLinkStatus(
  deps: Pick<SatLinkDeps, 'db' | 'now'>,
  companyId: number | null,
): Promise<{ sat_credentials_status: SatStatusCode; rfc: string | null; reason?: string }> {
  if (companyId === null) throw new InvoiceRequestError(403, ACCESS_MESSAGES.noCompany);
  let company = await findCompanySatLink(deps.db, companyId);
  if (company.sat_status === SatStatus.SENT) {
    const ended = await endStale(deps, { companyId });
    if (ended.lapsed.length + ended.taken.length > 0) company = await findCompanySatLink(deps.db, companyId);
  }
  return {
    sat_credentials_status: company.sat_status as SatStatusCode,
    rfc: company.rfc ?? company.sat_claimed_rfc,
    ...(company.sat_status_reason === null ? {} : { reason: company.sat_status_reason }),
  };
}

/** Why an operator decision cannot be taken on the RFC: no one claims it, or its claims are not pending. */
async function notUnderReview(db: Db, rfc: string): Promise<SatOperationError> {
  const holder = await findCompanyByRfc(db, rfc);
  const last = holder ?? (await findLatestClaimant(db, rfc));
  if (!last) return new SatOperationError(`No hay ninguna empresa con el RFC ${rfc}.`);
  const label = SAT_STATUS_LABELS[last.sat_status as SatStatusCode];
  return new SatOperationError(`La vinculación de ${rfc} no está en revisión (estado: ${label}).`);
}

export interface SyncResult extends ImportResult {
  /** Files whose folio fiscal Flujo already had (a sync is incremental). */
  alreadyImported: number;
  alliancesCreated: number;
}

export interface ApprovalResult {
  companyId: number;
  /** False when the link was already authorized (the sync still runs). */
  changed: boolean;
  /** Other accounts' pending claims of the RFC that lost to this approval (each told why). */
  rejectedClaims: number;
  sync: SyncResult;
}

type Decision =
  | { kind: 'approved'; company: PendingClaim; losers: PendingClaim[]; alliances: Alliances }
  | { kind: 'held'; holderId: number; authorized: boolean; losers: PendingClaim[] };
type Alliances = Awaited<ReturnType<typeof activateAlliancesOnSatApproval>>;

/**
 * The operator (or SAT's answer) approves the RFC: its oldest live claim becomes AUTHORIZED (30) and takes
 * companies.rfc; every other pending claim of the RFC is rejected with the reason. Once committed, the
 * connector downloads the CFDI the RFC issued and the importer loads them. A sync failure leaves the approval
 * in place (`sat:sync` again). Lapsed claims never win; an RFC another company already holds makes every
 * claim lose (a unique violation means another approval won in the meantime: the claims are told the same).
 */
export async function approveSatLink(
  deps: SatLinkDeps,
  rfc: string,
  options: { allianceRate?: string } = {},
): Promise<ApprovalResult> {
  const normalized = rfc.trim().toUpperCase();
  const ended = await endStaleAndTell(deps, normalized);
  let decision: Decision;
  try {
    decision = await decide(deps, normalized);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Another company took the RFC between our check and our write: the claims lose to it.
    decision = await decide(deps, normalized);
  }
  await notifyLosers(
    deps,
    normalized,
    decision.losers.map((loser) => loser.id),
    SAT_LINK_MESSAGES.claimLost,
  );
  const rejectedClaims = ended.taken.length + decision.losers.length;
  if (decision.kind === 'held') {
    if (!decision.authorized) {
      throw new SatOperationError(
        `El RFC ${normalized} ya es de otra empresa; se rechazaron ${rejectedClaims} solicitudes de vinculación.`,
      );
    }
    const sync = await syncIssuedCfdi(deps, normalized, options);
    return { companyId: decision.holderId, changed: false, rejectedClaims, sync };
  }
  const { company, alliances } = decision;
  await notifyCompany(deps, company.id, 'Tu vinculación con el SAT fue aprobada', [
    `La vinculación del RFC ${normalized} con el SAT fue aprobada.`,
    'Ya puedes ver tus facturas y solicitar su adelanto.',
    deps.appBaseUrl ? `Entra en ${deps.appBaseUrl}${paths.prontoPago}` : '',
  ]);
  if (deps.mailer)
    await alliances.notify({ db: deps.db, mailer: deps.mailer, appBaseUrl: deps.appBaseUrl ?? '' });
  const sync = await syncIssuedCfdi(deps, normalized, options);
  return { companyId: company.id, changed: true, rejectedClaims, sync };
}

/** One approval transaction: who holds the RFC after it, and which pending claims lost. */
async function decide(deps: SatLinkDeps, rfc: string): Promise<Decision> {
  return inTransaction(deps.db, async (trx) => {
    const claims = await lockPendingClaims(trx, rfc);
    const holder = await findCompanyByRfc(trx, rfc, { lock: true });
    const at = deps.now().toISOString();
    // A company holding the RFC already (invoices, a corporate) and claiming it again wins its own RFC.
    const winner = holder ? claims.find((claim) => claim.id === holder.id) : claims[0];
    const losers = claims.filter((claim) => claim !== winner);
    for (const loser of losers) {
      await updateCompanySatLink(trx, loser.id, {
        sat_status: SatStatus.UNAUTHORIZED,
        sat_status_changed_at: at,
        sat_status_reason: SAT_LINK_MESSAGES.claimLost,
        sat_ciec_encrypted: null,
      });
    }
    if (!winner) {
      // Already authorized (a second approval only syncs), or held otherwise and the claims lost to it.
      if (holder && (holder.sat_status === SatStatus.AUTHORIZED || losers.length > 0)) {
        return {
          kind: 'held',
          holderId: holder.id,
          authorized: holder.sat_status === SatStatus.AUTHORIZED,
          losers,
        };
      }
      throw await notUnderReview(trx, rfc);
    }
    await updateCompanySatLink(trx, winner.id, {
      rfc,
      sat_status: SatStatus.AUTHORIZED,
      sat_status_changed_at: at,
      sat_status_reason: null,
    });
    // Alliances an operator set on this RFC before the supplier was in Flujo start now (decision 0053).
    const alliances = await activateAlliancesOnSatApproval(trx, { companyId: winner.id, rfc });
    return { kind: 'approved', company: winner, losers, alliances };
  });
}

/** Before an operator decision on the RFC: its claims that can no longer win end, and their companies are told. */
async function endStaleAndTell(deps: SatLinkDeps, rfc: string) {
  const ended = await endStale(deps, { rfc });
  await notifyLosers(deps, rfc, ended.lapsed, SAT_LINK_MESSAGES.claimLapsed);
  await notifyLosers(deps, rfc, ended.taken, SAT_LINK_MESSAGES.claimLost);
  return ended;
}

async function notifyLosers(deps: SatLinkDeps, rfc: string, companyIds: readonly number[], reason: string) {
  for (const companyId of companyIds) {
    await notifyCompany(deps, companyId, 'Tu vinculación con el SAT fue rechazada', [
      `La vinculación del RFC ${rfc} con el SAT fue rechazada.`,
      reason,
      deps.appBaseUrl ? `Entra en ${deps.appBaseUrl}${paths.satCredentials}` : '',
    ]);
  }
}

/**
 * The operator rejects the RFC's oldest live claim: UNAUTHORIZED (40), and the CIEC is erased (it is no use
 * any more). Other claims of the RFC stay pending.
 */
export async function rejectSatLink(deps: SatLinkDeps, rfc: string): Promise<{ companyId: number }> {
  const normalized = rfc.trim().toUpperCase();
  await endStaleAndTell(deps, normalized);
  const company = await inTransaction(deps.db, async (trx) => {
    const [oldest] = await lockPendingClaims(trx, normalized);
    if (!oldest) throw await notUnderReview(trx, normalized);
    await updateCompanySatLink(trx, oldest.id, {
      sat_status: SatStatus.UNAUTHORIZED,
      sat_status_changed_at: deps.now().toISOString(),
      sat_status_reason: null,
      sat_ciec_encrypted: null,
    });
    return oldest;
  });
  await notifyCompany(deps, company.id, 'Tu vinculación con el SAT fue rechazada', [
    `La vinculación del RFC ${normalized} con el SAT fue rechazada.`,
    'Revisa tu RFC y tu contraseña CIEC y envíalas de nuevo.',
    deps.appBaseUrl ? `Entra en ${deps.appBaseUrl}${paths.satCredentials}` : '',
  ]);
  return { companyId: company.id };
}

async function notifyCompany(deps: SatLinkDeps, companyId: number, subject: string, lines: string[]) {
  if (!deps.mailer) return;
  const recipients = await companyRecipients(deps.db, companyId);
  await sendToAll(deps.mailer, recipients, { subject, text: lines.filter(Boolean).join('\n\n') });
}

/**
 * Downloads what an AUTHORIZED RFC issued and imports what is new, in one transaction; a provider invoicing a
 * Flujo corporate it has no alliance with gets one at the default rate, so its invoices can be advanced.
 */
export async function syncIssuedCfdi(
  deps: SatLinkDeps,
  rfc: string,
  options: { allianceRate?: string } = {},
): Promise<SyncResult> {
  const normalized = rfc.trim().toUpperCase();
  const company = await findCompanyByRfc(deps.db, normalized);
  if (company?.sat_status !== SatStatus.AUTHORIZED || !company.rfc) {
    // Only claimed (under review or rejected), or held without an authorized link.
    if (company || (await findLatestClaimant(deps.db, normalized))) {
      throw new SatOperationError(`La vinculación de ${normalized} con el SAT no está autorizada.`);
    }
    throw new SatOperationError(`No hay ninguna empresa con el RFC ${rfc}.`);
  }
  const ciec =
    company.sat_ciec_encrypted === null
      ? null
      : decryptCiec(company.sat_ciec_encrypted, deps.encryptionKey, company.id);
  const files = await deps.connector.downloadIssuedCfdi({ rfc: company.rfc, ciec });

  // A sync is incremental: the very files Flujo already holds are skipped, not reported as rejected. A file
  // whose UUID Flujo holds with other bytes goes to the importer, which refuses it as a conflicting copy.
  const uuidOf = new Map(
    files.map((file) => {
      const parsed = parseCfdi(file.content, file.name);
      return [file, parsed.ok ? parsed.cfdi.uuid : null] as const;
    }),
  );
  const uuids = [...uuidOf.values()].filter((uuid): uuid is string => uuid !== null);
  const stored = await storedCfdi(deps.db, uuids);
  const fresh = files.filter((file) => {
    const uuid = uuidOf.get(file);
    const held = uuid ? stored.get(uuid) : undefined;
    // An invoice held 'sin verificar' goes too: the same file proves its seal now.
    return held === undefined || held.xml !== cfdiText(file.content) || held.proofState === 'unverified';
  });
  // SAT is asked outside any transaction; the importer writes in its own.
  const imported = await importCfdiFiles(deps.db, fresh, {
    actorLabel: SAT_SYNC_ACTOR,
    authenticity: deps.authenticity,
    ...(deps.paymentComplements ? { paymentComplements: deps.paymentComplements } : {}),
  });
  return inTransaction(deps.db, async (trx) => {
    let alliancesCreated = 0;
    if (imported.imported.length > 0) {
      const receivers = await receiverCompanyIds(
        trx,
        imported.imported.map((item) => item.id),
      );
      for (const corporateId of receivers) {
        // A company cannot be its own customer in an alliance (CHECK corporate_id <> provider_id).
        if (corporateId === company.id) continue;
        const created = await insertAllianceIfMissing(trx, {
          corporateId,
          providerId: company.id,
          maxRate: options.allianceRate ?? DEFAULT_ALLIANCE_MAX_RATE,
        });
        if (created) alliancesCreated += 1;
      }
    }
    return { ...imported, alreadyImported: files.length - fresh.length, alliancesCreated };
  });
}
