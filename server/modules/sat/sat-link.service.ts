import { paths } from '../../../src/domain/paths';
import { SAT_STATUS_LABELS, SatStatus, type SatStatusCode } from '../../../src/domain/sat-status';
import type { TaxLink } from '../../../src/domain/schemas/session';
import { SERVER_MESSAGES } from '../../../src/domain/schemas/session';
import { parseCfdi } from '../../cfdi/parse-cfdi';
import type { Db } from '../../db/database';
import { inTransaction } from '../../db/transaction';
import { FieldErrors } from '../../http/errors';
import type { Mailer } from '../../mail/mailer';
import {
  findCompanyByRfc,
  findCompanySatLink,
  isRfcTakenByAnother,
  updateCompanySatLink,
} from '../accounts/company.repository';
import type { Clock } from '../auth/clock';
import { insertAllianceIfMissing } from '../invoices/alliance.repository';
import { cfdiText, type ImportResult, importCfdiFiles } from '../invoices/cfdi-import.service';
import { companyHasInvoices, receiverCompanyIds, storedCfdi } from '../invoices/invoice.repository';
import { ACCESS_MESSAGES, InvoiceRequestError } from '../invoices/invoice-access';
import { companyRecipients, sendToAll } from '../invoices/invoice-notifications';
import { activateAlliancesOnSatApproval } from '../operator-alliances/operator-alliances.service';
import type { CfdiAuthenticity } from './cfdi-authenticity';
import { decryptCiec, encryptCiec } from './ciec-crypto';
import type { SatConnector } from './sat-connector';

export interface SatLinkDeps {
  db: Db;
  /** AES-256-GCM key for the stored CIEC (SAT_ENCRYPTION_KEY). */
  encryptionKey: Buffer;
  connector: SatConnector;
  /** Proves each downloaded CFDI before it is imported. */
  authenticity: CfdiAuthenticity;
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
 * POST /api/accounts/ciec/: stores the CIEC encrypted, gives the company its RFC and sets the SAT link to
 * SENT (10). The RFC must belong to no other company; a company that already has invoices keeps its RFC.
 */
export async function submitTaxLink(
  deps: Pick<SatLinkDeps, 'db' | 'encryptionKey' | 'now'>,
  companyId: number | null,
  link: TaxLink,
): Promise<void> {
  if (companyId === null) throw new InvoiceRequestError(403, ACCESS_MESSAGES.noCompany);
  if (link.ciec.length > MAX_CIEC_LENGTH) throw new FieldErrors({ ciec: [SAT_LINK_MESSAGES.ciecTooLong] });
  try {
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
      await updateCompanySatLink(trx, companyId, {
        rfc: link.rfc,
        sat_ciec_encrypted: encryptCiec(link.ciec, deps.encryptionKey, companyId),
        sat_status: SatStatus.SENT,
        sat_status_changed_at: deps.now().toISOString(),
      });
    });
  } catch (error) {
    // Two companies claiming one RFC at the same moment: the UNIQUE constraint decides.
    if (isUniqueViolation(error)) throw new FieldErrors({ rfc: [SAT_LINK_MESSAGES.rfcTaken] });
    throw error;
  }
}

/** GET /api/accounts/ciec/: the caller's company link, without the CIEC (it never leaves the server). */
export async function satLinkStatus(
  deps: Pick<SatLinkDeps, 'db'>,
  companyId: number | null,
): Promise<{ sat_credentials_status: SatStatusCode; rfc: string | null }> {
  if (companyId === null) throw new InvoiceRequestError(403, ACCESS_MESSAGES.noCompany);
  const company = await findCompanySatLink(deps.db, companyId);
  return { sat_credentials_status: company.sat_status as SatStatusCode, rfc: company.rfc };
}

interface LinkedCompany {
  id: number;
  rfc: string;
  name: string;
  sat_status: SatStatusCode;
  sat_ciec_encrypted: string | null;
}

async function lockCompanyByRfc(trx: Db, rfc: string): Promise<LinkedCompany> {
  const row = await findCompanyByRfc(trx, rfc.trim().toUpperCase(), { lock: true });
  if (!row || row.rfc === null) throw new SatOperationError(`No hay ninguna empresa con el RFC ${rfc}.`);
  return { ...row, rfc: row.rfc, sat_status: row.sat_status as SatStatusCode };
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
  sync: SyncResult;
}

/**
 * The operator approves a SENT link: AUTHORIZED (30) and, once committed, the connector downloads the CFDI
 * the RFC issued and the importer loads them. A sync failure leaves the approval in place (`sat:sync` again).
 */
export async function approveSatLink(
  deps: SatLinkDeps,
  rfc: string,
  options: { allianceRate?: string } = {},
): Promise<ApprovalResult> {
  const { company, changed, alliances } = await inTransaction(deps.db, async (trx) => {
    const company = await lockCompanyByRfc(trx, rfc);
    if (company.sat_status === SatStatus.AUTHORIZED) return { company, changed: false, alliances: null };
    if (company.sat_status !== SatStatus.SENT) {
      throw new SatOperationError(
        `La vinculación de ${company.rfc} no está en revisión (estado: ${SAT_STATUS_LABELS[company.sat_status]}).`,
      );
    }
    await updateCompanySatLink(trx, company.id, {
      sat_status: SatStatus.AUTHORIZED,
      sat_status_changed_at: deps.now().toISOString(),
    });
    // Alliances an operator set on this RFC before the supplier was in Flujo start now (decision 0053).
    const alliances = await activateAlliancesOnSatApproval(trx, { companyId: company.id, rfc: company.rfc });
    return { company, changed: true, alliances };
  });
  if (changed) {
    await notifyCompany(deps, company.id, 'Tu vinculación con el SAT fue aprobada', [
      `La vinculación del RFC ${company.rfc} con el SAT fue aprobada.`,
      'Ya puedes ver tus facturas y solicitar su adelanto.',
      deps.appBaseUrl ? `Entra en ${deps.appBaseUrl}${paths.prontoPago}` : '',
    ]);
    if (deps.mailer && alliances) {
      await alliances.notify({ db: deps.db, mailer: deps.mailer, appBaseUrl: deps.appBaseUrl ?? '' });
    }
  }
  const sync = await syncIssuedCfdi(deps, company.rfc, options);
  return { companyId: company.id, changed, sync };
}

/** The operator rejects a SENT link: UNAUTHORIZED (40), and the CIEC is erased (it is no use any more). */
export async function rejectSatLink(deps: SatLinkDeps, rfc: string): Promise<{ companyId: number }> {
  const company = await inTransaction(deps.db, async (trx) => {
    const company = await lockCompanyByRfc(trx, rfc);
    if (company.sat_status !== SatStatus.SENT) {
      throw new SatOperationError(
        `La vinculación de ${company.rfc} no está en revisión (estado: ${SAT_STATUS_LABELS[company.sat_status]}).`,
      );
    }
    await updateCompanySatLink(trx, company.id, {
      sat_status: SatStatus.UNAUTHORIZED,
      sat_status_changed_at: deps.now().toISOString(),
      sat_ciec_encrypted: null,
    });
    return company;
  });
  await notifyCompany(deps, company.id, 'Tu vinculación con el SAT fue rechazada', [
    `La vinculación del RFC ${company.rfc} con el SAT fue rechazada.`,
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
  const company = await findCompanyByRfc(deps.db, rfc.trim().toUpperCase());
  if (!company?.rfc) throw new SatOperationError(`No hay ninguna empresa con el RFC ${rfc}.`);
  if (company.sat_status !== SatStatus.AUTHORIZED) {
    throw new SatOperationError(`La vinculación de ${company.rfc} con el SAT no está autorizada.`);
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
