import {
  ALLIANCE_MESSAGES,
  type AllianceState,
  annualRateText,
  maxRateFor,
} from '../../../src/domain/alliance-terms';
import { formatMoneyAmount, parseMoney } from '../../../src/domain/money';
import { paths } from '../../../src/domain/paths';
import { SatStatus } from '../../../src/domain/sat-status';
import { PAGE_SIZE } from '../../../src/domain/schemas/invoices';
import type {
  AllianceInput,
  OperatorAlliance,
  OperatorAllianceDetail,
} from '../../../src/domain/schemas/operator-alliances';
import type { Db } from '../../db/database';
import { inTransaction } from '../../db/transaction';
import { FieldErrors } from '../../http/errors';
import type { Mailer } from '../../mail/mailer';
import { findCompanyById, findCompanyByRfc } from '../accounts/company.repository';
import type { Clock } from '../auth/clock';
import { type EfosSituations, efosSituations } from '../efos/efos.repository';
import { companyRecipients, sendToAll } from '../invoices/invoice-notifications';
import {
  type AllianceListFilter,
  type AllianceListRow,
  type AllianceTerms,
  activatePendingAlliances,
  findAllianceById,
  findAlliancePage,
  findAlliancePrices,
  insertAlliance,
  insertAlliancePrice,
  lockAllianceByProvider,
  lockPendingAlliance,
  markAllianceRequestsAllied,
  updateAllianceTerms,
} from './operator-alliances.repository';

export interface OperatorAlliancesDeps {
  db: Db;
  mailer: Mailer;
  now: Clock;
  /** Public origin for links in e-mails, no trailing slash. */
  appBaseUrl: string;
}

/** A refusal with a status and a Spanish detail (the app's error handler answers {detail}). */
export class AllianceRequestError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const OPERATOR_ALLIANCE_MESSAGES = {
  raced: 'Otra persona acaba de fijar esta alianza; vuelve a intentarlo.',
} as const;

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}

function stateOf(row: Pick<AllianceListRow, 'pending' | 'is_active'>): AllianceState {
  if (row.pending) return 'pendiente';
  return row.is_active ? 'activa' : 'inactiva';
}

/** The API item of an alliance row. */
export function toOperatorAlliance(row: AllianceListRow, efos: EfosSituations): OperatorAlliance {
  return {
    provider_efos: {
      list_imported_at: efos.listImportedAt,
      situation: efos.byRfc.get(row.provider_rfc) ?? null,
    },
    id: row.id,
    corporate_id: row.corporate_id,
    corporate_name: row.corporate_name,
    provider_id: row.provider_id,
    provider_rfc: row.provider_rfc,
    provider_name: row.provider_name,
    annual_rate: row.annual_rate === null ? null : annualRateText(row.annual_rate),
    max_rate: row.max_rate,
    max_days: row.max_days,
    max_amount: row.max_amount,
    state: stateOf(row),
    created_at: new Date(row.created_at).toISOString(),
  };
}

function sameTerms(
  row: { annual_rate: string | null; max_days: number | null; max_amount: string | null },
  terms: AllianceTerms,
): boolean {
  return (
    row.annual_rate !== null &&
    annualRateText(row.annual_rate) === terms.annualRate &&
    row.max_days === terms.maxDays &&
    row.max_amount === terms.maxAmount
  );
}

/** The terms the operator typed, with the IVA-inclusive rate quotes read (one rule: maxRateFor). */
export function termsOf(input: AllianceInput): AllianceTerms {
  const annualRate = annualRateText(input.annual_rate);
  return {
    annualRate,
    maxRate: maxRateFor(annualRate),
    maxDays: input.max_days,
    maxAmount:
      input.max_amount === undefined || input.max_amount === null
        ? null
        : formatMoneyAmount(parseMoney(input.max_amount.trim())),
  };
}

export interface SetAllianceResult {
  alliance: OperatorAllianceDetail;
  created: boolean;
}

/**
 * POST /api/operator/alliances/: sets the price of a corporate × supplier alliance. A supplier company whose SAT
 * link is authorized (or that already has this alliance) gets an active alliance at once; any other RFC waits
 * as a pending alliance until its SAT link is authorized. Every price is appended to the history; quotes read
 * the alliance's current max_rate, so the change applies to quotes made after it and to none saved before.
 */
export async function setAlliance(
  deps: OperatorAlliancesDeps,
  operatorUserId: number | null,
  input: AllianceInput,
): Promise<SetAllianceResult> {
  const terms = termsOf(input);
  const at = deps.now().toISOString();
  let outcome: { id: number; created: boolean; notify: { providerId: number; corporateName: string } | null };
  try {
    outcome = await inTransaction(deps.db, async (trx) => {
      const corporate = await findCompanyById(trx, input.corporate_id);
      if (!corporate) throw new FieldErrors({ corporate_id: [ALLIANCE_MESSAGES.corporateUnknown] });
      if (!corporate.is_corporate) throw new FieldErrors({ corporate_id: [ALLIANCE_MESSAGES.notCorporate] });
      if (corporate.rfc === input.provider_rfc) {
        throw new FieldErrors({ provider_rfc: [ALLIANCE_MESSAGES.sameCompany] });
      }
      const supplier = await findCompanyByRfc(trx, input.provider_rfc);
      if (supplier && supplier.id === corporate.id) {
        throw new FieldErrors({ provider_rfc: [ALLIANCE_MESSAGES.sameCompany] });
      }
      const existing = supplier ? await lockAllianceByProvider(trx, corporate.id, supplier.id) : undefined;
      const pending = await lockPendingAlliance(trx, corporate.id, input.provider_rfc);
      // A company that is only SENT may still change its RFC before approval: the RFC stays the key until then.
      const activeNow =
        supplier !== undefined && (supplier.sat_status === SatStatus.AUTHORIZED || existing !== undefined);
      // The same terms again (a double click, a retried request) change nothing: no new price, no e-mail.
      const current = existing ?? (activeNow ? undefined : pending);
      if (current && (current.is_active || current.pending) && sameTerms(current, terms)) {
        return { id: current.id, created: false, notify: null };
      }

      let id: number;
      let created = false;
      if (existing) {
        id = existing.id;
        await updateAllianceTerms(trx, id, terms, supplier?.id);
      } else if (activeNow && supplier && pending) {
        id = pending.id;
        await updateAllianceTerms(trx, id, terms, supplier.id);
      } else if (pending) {
        id = pending.id;
        await updateAllianceTerms(trx, id, terms);
      } else {
        id = await insertAlliance(trx, {
          corporateId: corporate.id,
          providerId: activeNow && supplier ? supplier.id : null,
          providerRfc: input.provider_rfc,
          terms,
        });
        created = true;
      }
      await insertAlliancePrice(trx, { allianceId: id, terms, at, setBy: operatorUserId });
      if (activeNow && supplier && corporate.rfc !== null) {
        await markAllianceRequestsAllied(trx, supplier.id, corporate.rfc);
      }
      const notify =
        activeNow && supplier ? { providerId: supplier.id, corporateName: corporate.name } : null;
      return { id, created, notify };
    });
  } catch (error) {
    // Two operators creating the same pair at the same moment: the unique index decides, the other retries.
    if (isUniqueViolation(error)) throw new AllianceRequestError(409, OPERATOR_ALLIANCE_MESSAGES.raced);
    throw error;
  }
  if (outcome.notify) {
    await tellSupplier(deps, outcome.notify.providerId, outcome.notify.corporateName, terms);
  }
  const alliance = await allianceDetail(deps.db, outcome.id);
  return { alliance, created: outcome.created };
}

async function tellSupplier(
  deps: Pick<OperatorAlliancesDeps, 'db' | 'mailer' | 'appBaseUrl'>,
  providerId: number,
  corporateName: string,
  terms: { annualRate: string | null; maxDays: number | null },
): Promise<void> {
  const recipients = await companyRecipients(deps.db, providerId);
  await sendToAll(deps.mailer, recipients, allianceMail(deps.appBaseUrl, corporateName, terms));
}

/** The supplier's e-mail when an alliance with one of its clients is active or changes price. */
export function allianceMail(
  appBaseUrl: string,
  corporateName: string,
  terms: { annualRate: string | null; maxDays: number | null },
): { subject: string; text: string } {
  return {
    subject: `Tu alianza de pronto pago con ${corporateName} está activa`,
    text: [
      `Ya puedes adelantar el pago de las facturas que emites a ${corporateName}.`,
      terms.annualRate === null ? '' : `Tasa anual: ${terms.annualRate} % más IVA, en base 360 días.`,
      terms.maxDays === null ? '' : `Se financian hasta ${terms.maxDays} días antes de la fecha de pago.`,
      `Entra en ${appBaseUrl}${paths.prontoPago}`,
    ]
      .filter(Boolean)
      .join('\n\n'),
  };
}

/** GET /api/operator/alliances/{id}/: the alliance and its prices, newest first. */
export async function allianceDetail(db: Db, id: number): Promise<OperatorAllianceDetail> {
  const row = await findAllianceById(db, id);
  if (!row) throw new AllianceRequestError(404, ALLIANCE_MESSAGES.notFound);
  const prices = await findAlliancePrices(db, id);
  return {
    ...toOperatorAlliance(row, await efosSituations(db, [row.provider_rfc])),
    prices: prices.map((price) => ({
      annual_rate: price.annual_rate === null ? '' : annualRateText(price.annual_rate),
      max_rate: price.max_rate,
      max_days: price.max_days,
      max_amount: price.max_amount,
      effective_from: new Date(price.effective_from).toISOString(),
      set_by: price.set_by,
    })),
  };
}

/** GET /api/operator/alliances/: one page. */
export async function listAlliances(db: Db, filter: AllianceListFilter, page: number) {
  const { count, rows } = await findAlliancePage(db, filter, {
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  });
  const efos = await efosSituations(db, [...new Set(rows.map((row) => row.provider_rfc))]);
  return { count, results: rows.map((row) => toOperatorAlliance(row, efos)) };
}

/**
 * The SAT approval's hook (sat-link.service.ts approveSatLink, inside its transaction): the pending alliances on
 * the supplier's RFC become active, and the supplier's alliance requests for those clients become 'allied'.
 */
export async function activateAlliancesOnSatApproval(
  trx: Db,
  supplier: { companyId: number; rfc: string },
): Promise<{
  count: number;
  notify: (deps: Pick<OperatorAlliancesDeps, 'db' | 'mailer' | 'appBaseUrl'>) => Promise<void>;
}> {
  const activated = await activatePendingAlliances(trx, supplier);
  for (const alliance of activated) {
    if (alliance.corporate_rfc !== null) {
      await markAllianceRequestsAllied(trx, supplier.companyId, alliance.corporate_rfc);
    }
  }
  return {
    count: activated.length,
    async notify(deps) {
      for (const alliance of activated) {
        await tellSupplier(deps, supplier.companyId, alliance.corporate_name, {
          annualRate: alliance.annual_rate === null ? null : annualRateText(alliance.annual_rate),
          maxDays: alliance.max_days,
        });
      }
    },
  };
}
