import { InvoiceStatus } from '../../../src/domain/invoice-status';
import {
  convertInvoiceAmountToMxn,
  formatCurrency,
  formatMoneyAmount,
  MAX_INVOICE_AMOUNT,
  parseInvoiceAmount,
} from '../../../src/domain/money';
import { PAYMENT_COMPLEMENT_MESSAGES } from '../../../src/domain/payment-complements';
import { CFDI_PROOF_REASONS, type EfosSituation } from '../../../src/machines/cfdi-proof.machine';
import { type Cfdi, parseCfdi } from '../../cfdi/parse-cfdi';
import { PAYMENT_VOUCHER } from '../../cfdi/parse-payments';
import { type CfdiSealProof, verifyCfdiSeal } from '../../cfdi/verify-cfdi';
import type { Db } from '../../db/database';
import type { ProofState } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import { findCompaniesByRfc } from '../accounts/company.repository';
import { blockingEfosEntries } from '../efos/efos.repository';
import { insertInvoice, knownCfdiUuids, storedCfdi } from '../invoices/invoice.repository';
import { insertInvoiceEvent } from '../invoices/invoice-events.repository';
import { askSatAll, type CfdiAuthenticity, type SatCheck } from './cfdi-authenticity';
import { proofAfter, proofAtImport, recheckAtSat, storable } from './cfdi-proof.service';
import { recordSatCheck } from './sat-checks.repository';

export interface CfdiFile {
  name: string;
  content: string | Uint8Array;
}

export interface ImportResult {
  imported: { id: number; uuid: string; name: string }[];
  rejected: { name: string; reason: string }[];
  /** Invoices held 'sin verificar' (imported before seals were proven) whose same file proved them now. */
  reverified?: { id: number; uuid: string; name: string }[];
  /** Payment CFDI (REP, type P) handed to the wired REP importer (decision 0070), with what it answered. */
  paymentComplements?: { uuid: string; name: string; status: 'imported' | 'unchanged' }[];
}

/**
 * The REP importer (payment-complements module), injected by whoever composes the modules (server/app.ts,
 * the ops commands through module-wiring.ts) so `sat` never imports it back: that module imports this one.
 */
export type PaymentComplementImporter = (
  db: Db,
  file: CfdiFile,
  options: { authenticity: CfdiAuthenticity; actorLabel: string },
) => Promise<
  { ok: true; result: { status: 'imported' | 'unchanged'; uuid: string } } | { ok: false; reasons: string[] }
>;

export interface ImportOptions {
  authenticity: CfdiAuthenticity;
  /** Who the audit trail names. */
  actorLabel?: string;
  /** Import every file or none: one refusal (of any file, for any reason) writes nothing at all. */
  allOrNothing?: boolean;
  /**
   * 'now' (default) asks SAT before writing; 'background' imports with the proof 'sealChecked' (verificando en
   * el SAT: it can be quoted, not advanced) and leaves the question to the cfdi-sat-check job, so a bulk upload
   * does not wait for SAT a thousand times.
   */
  satCheck?: 'now' | 'background';
  /**
   * Where a payment CFDI (type P) goes instead of being refused as "not an invoice": the same REP import as a
   * supplier's upload (seal, 69-B, SAT, documents, idempotency). Ignored with `allOrNothing`, whose one
   * transaction a REP import (its own transaction) cannot join: there a REP is still refused.
   */
  paymentComplements?: PaymentComplementImporter;
}

/** Thrown inside the import's transaction to roll it back when an all-or-nothing import meets a refusal. */
class ImportRolledBack extends Error {}

// NOTE: only income vouchers (TipoDeComprobante I) are receivables a buyer can pay early (SAT catalogue c_TipoDeComprobante).
const INCOME_VOUCHER = 'I';

/** One Spanish home for the import's refusals that are not the seal's (verify-cfdi.ts has those). */
export const importRefusals = {
  alreadyImported: (uuid: string) => `La factura ${uuid} ya fue importada.`,
  conflictingCopy: (uuid: string) =>
    `Ya existe una factura con el folio fiscal ${uuid} y este archivo es distinto: se rechazó como copia en conflicto y se avisó a los operadores.`,
  satCancelled: CFDI_PROOF_REASONS.cancelado,
  satNotFound: CFDI_PROOF_REASONS.noEncontrado,
  efos: CFDI_PROOF_REASONS.efos,
} as const;

/** A file whose seal, certificate and stamp were proven (verifyCfdiSeal), ready for the importer's other rules. */
export interface ProvenCfdi {
  name: string;
  cfdi: Cfdi;
  xml: string;
  seal: string;
  proof: CfdiSealProof;
}

/**
 * Imports CFDI 4.0 XML as invoices in AVAILABLE, each proven first: its seal and certificate
 * (verify-cfdi.ts), its issuer against the 69-B list, then SAT's status. Each file is accepted or refused on
 * its own with a Spanish reason and a refused file writes nothing. A UUID already held is compared byte for
 * byte: the same file is "ya importada", another file is refused as a conflicting copy and shown to operators.
 * When SAT does not answer, the invoice is imported with its proof pending (it can be quoted, not advanced).
 */
export async function importCfdiFiles(
  db: Db,
  files: CfdiFile[],
  options: ImportOptions,
): Promise<ImportResult> {
  const importer = options.allOrNothing ? undefined : options.paymentComplements;
  const payments = importer ? files.filter(isPaymentCfdi) : [];
  const invoices = payments.length > 0 ? files.filter((file) => !payments.includes(file)) : files;
  const { proven, refused } = proveCfdiFiles(invoices, options.authenticity);
  if (options.allOrNothing && refused.length > 0) return { imported: [], rejected: refused };
  const result = await importProvenCfdi(db, proven, options);
  const merged: ImportResult = { ...result, rejected: [...refused, ...result.rejected] };
  if (!importer || payments.length === 0) return merged;
  merged.paymentComplements = [];
  for (const file of payments) {
    const outcome = await importer(db, file, {
      authenticity: options.authenticity,
      actorLabel: options.actorLabel ?? 'importador CFDI',
    });
    if (outcome.ok) {
      const { uuid, status } = outcome.result;
      merged.paymentComplements.push({ uuid, name: file.name, status });
    } else merged.rejected.push({ name: file.name, reason: outcome.reasons.join(' ') });
  }
  return merged;
}

/** A file that parses as a CFDI of type P (anything else, unparseable included, stays with the invoices). */
function isPaymentCfdi(file: CfdiFile): boolean {
  const parsed = parseCfdi(file.content, file.name);
  return parsed.ok && parsed.cfdi.voucherType === PAYMENT_VOUCHER;
}

/** Parses and proves each file's seal; the refused ones with their Spanish reason. Pure and synchronous. */
export function proveCfdiFiles(
  files: readonly CfdiFile[],
  authenticity: CfdiAuthenticity,
): { proven: ProvenCfdi[]; refused: ImportResult['rejected'] } {
  const proven: ProvenCfdi[] = [];
  const refused: ImportResult['rejected'] = [];
  for (const file of files) {
    const parsed = parseCfdi(file.content, file.name);
    if (!parsed.ok) {
      refused.push({ name: file.name, reason: parsed.reason });
      continue;
    }
    const verification = verifyCfdiSeal(parsed.root, parsed.cfdi, authenticity.trust);
    if (!verification.ok) refused.push({ name: file.name, reason: verification.reason });
    else {
      proven.push({
        name: file.name,
        cfdi: parsed.cfdi,
        xml: cfdiText(file.content),
        seal: parsed.root.getAttribute('Sello') ?? '',
        proof: verification.proof,
      });
    }
  }
  return { proven, refused };
}

/**
 * The importer's rules after the seal (proveCfdiFiles): the UUID held already (same bytes or a conflicting
 * copy), the 69-B list, the parties and amounts, SAT's status; then one transaction writes the invoices.
 */
export async function importProvenCfdi(
  db: Db,
  sealed: readonly ProvenCfdi[],
  options: ImportOptions,
): Promise<ImportResult> {
  const { authenticity } = options;
  const actorLabel = options.actorLabel ?? 'importador CFDI';
  const result: ImportResult = { imported: [], rejected: [] };
  const refuse = (name: string, reason: string) => result.rejected.push({ name, reason });
  if (sealed.length === 0) return result;

  // Cheap refusals first, read outside any transaction: SAT is asked only about what could be imported.
  const rfcs = [...new Set(sealed.flatMap(({ cfdi }) => [cfdi.issuer.rfc, cfdi.receiver.rfc]))];
  const companies = await findCompaniesByRfc(db, rfcs);
  // `rfc in (…)` never matches a NULL (a company not yet linked to SAT, migration 002).
  const byRfc = new Map(companies.flatMap((c) => (c.rfc === null ? [] : [[c.rfc, c] as const])));
  const stored = await storedCfdi(
    db,
    sealed.map(({ cfdi }) => cfdi.uuid),
  );
  const listed = await blockingEfosEntries(db, [...new Set(sealed.map(({ cfdi }) => cfdi.issuer.rfc))]);
  const conflicts: { candidate: ProvenCfdi; invoiceId: number }[] = [];
  const toAsk: ProvenCfdi[] = [];
  const reverify: { candidate: ProvenCfdi; invoiceId: number }[] = [];
  for (const candidate of sealed) {
    const { name, cfdi } = candidate;
    const existing = stored.get(cfdi.uuid);
    if (existing) {
      if (existing.xml === candidate.xml && existing.proofState === 'unverified')
        reverify.push({ candidate, invoiceId: existing.id });
      else if (existing.xml === candidate.xml) refuse(name, importRefusals.alreadyImported(cfdi.uuid));
      else {
        refuse(name, importRefusals.conflictingCopy(cfdi.uuid));
        conflicts.push({ candidate, invoiceId: existing.id });
      }
      continue;
    }
    const entry = listed.get(cfdi.issuer.rfc);
    if (entry) {
      refuse(name, importRefusals.efos(entry.situation as EfosSituation));
      continue;
    }
    const amounts = amountsOf(cfdi);
    const reason = rejectionReason(cfdi, byRfc) ?? (typeof amounts === 'string' ? amounts : null);
    if (reason) refuse(name, reason);
    else toAsk.push(candidate);
  }

  const background = options.satCheck === 'background';
  // Not yet asked: where the machine leaves a CFDI whose seal verified (the same for every file, so once).
  const unasked = storable(proofAfter('received', [{ type: 'seal.verified' }]).state);
  const checks = background
    ? []
    : await askSatAll(
        authenticity,
        db,
        toAsk.map(({ cfdi, seal }) => ({
          uuid: cfdi.uuid,
          issuerRfc: cfdi.issuer.rfc,
          receiverRfc: cfdi.receiver.rfc,
          total: cfdi.total,
          seal,
        })),
      );

  if (reverify.length > 0) result.reverified = await reverifySeals(db, authenticity, reverify);
  if (options.allOrNothing && result.rejected.length > 0) {
    // The conflicting copies are still recorded for operators: they are facts about the upload, not imports.
    await recordConflicts(db, conflicts, actorLabel);
    return result;
  }
  try {
    await inTransaction(db, (trx) => importChecked(trx));
  } catch (error) {
    if (!(error instanceof ImportRolledBack)) throw error;
    result.imported = [];
  }
  return result;

  async function importChecked(trx: Db): Promise<void> {
    await recordConflicts(trx, conflicts, actorLabel);
    // Another import may have taken a UUID since the read above.
    const known = await knownCfdiUuids(
      trx,
      toAsk.map(({ cfdi }) => cfdi.uuid),
    );
    for (const [index, candidate] of toAsk.entries()) {
      const { name, cfdi, xml, proof } = candidate;
      const check = checks[index];
      const outcome: { state: ProofState; refusal: string | null } = check
        ? satOutcome(check)
        : { state: unasked, refusal: null };
      if (outcome.refusal) {
        refuse(name, outcome.refusal);
        continue;
      }
      if (known.has(cfdi.uuid)) {
        refuse(name, importRefusals.alreadyImported(cfdi.uuid));
        continue;
      }
      const amounts = amountsOf(cfdi) as { subtotal: number; total: number; mxn: number };
      const emitter = byRfc.get(cfdi.issuer.rfc)!;
      const receiver = byRfc.get(cfdi.receiver.rfc)!;
      const id = await insertInvoice(trx, {
        cfdi_uuid: cfdi.uuid,
        serie: cfdi.serie,
        folio: cfdi.folio,
        emitter_company_id: emitter.id,
        receiver_company_id: receiver.id,
        emitter_rfc: cfdi.issuer.rfc,
        emitter_name: cfdi.issuer.name,
        receiver_rfc: cfdi.receiver.rfc,
        receiver_name: cfdi.receiver.name,
        issued_at: cfdi.issuedAt,
        date_of_emission: cfdi.issuedAt.slice(0, 10),
        subtotal: formatMoneyAmount(amounts.subtotal),
        amount: formatMoneyAmount(amounts.total),
        currency: cfdi.currency,
        exchange_rate: cfdi.exchangeRate,
        amount_with_exchange_rate: formatMoneyAmount(amounts.mxn),
        payment_method: cfdi.paymentMethod,
        description: cfdi.description,
        status: InvoiceStatus.AVAILABLE,
        cfdi_xml: xml,
        proof_state: outcome.state,
        cfdi_proof: JSON.stringify(proof),
      });
      await insertInvoiceEvent(trx, {
        invoice_id: id,
        event: 'invoice.imported',
        from_status: null,
        to_status: InvoiceStatus.AVAILABLE,
        actor_user_id: null,
        actor: actorLabel,
        reason: name,
      });
      if (check) await recordSatCheck(trx, id, check);
      known.add(cfdi.uuid);
      result.imported.push({ id, uuid: cfdi.uuid, name });
    }
    if (options.allOrNothing && result.rejected.length > 0) throw new ImportRolledBack();
  }
}

/**
 * The same file as an invoice held 'sin verificar' proved its seal: the proof moves on (unverified →
 * sealChecked through the machine) with what proved it, and SAT is asked at once.
 */
async function reverifySeals(
  db: Db,
  authenticity: CfdiAuthenticity,
  items: readonly { candidate: ProvenCfdi; invoiceId: number }[],
): Promise<NonNullable<ImportResult['reverified']>> {
  const state = storable(proofAfter('unverified', [{ type: 'seal.verified' }]).state);
  await inTransaction(db, async (trx) => {
    for (const { candidate, invoiceId } of items) {
      await trx
        .updateTable('invoices')
        .set({ proof_state: state, cfdi_proof: JSON.stringify(candidate.proof) })
        .where('id', '=', invoiceId)
        .where('proof_state', '=', 'unverified')
        .execute();
    }
  });
  await recheckAtSat(
    db,
    authenticity,
    items.map((item) => item.invoiceId),
  );
  return items.map(({ candidate, invoiceId }) => ({
    id: invoiceId,
    uuid: candidate.cfdi.uuid,
    name: candidate.name,
  }));
}

async function recordConflicts(
  db: Db,
  conflicts: readonly { candidate: ProvenCfdi; invoiceId: number }[],
  source: string,
): Promise<void> {
  for (const { candidate, invoiceId } of conflicts) {
    await db
      .insertInto('cfdi_conflicts')
      .values({
        cfdi_uuid: candidate.cfdi.uuid,
        invoice_id: invoiceId,
        file_name: candidate.name,
        source,
        cfdi_xml: candidate.xml,
      })
      .execute();
  }
}

/** The proof after SAT's answer at import (the cfdi-proof machine decides), or why the file is refused. */
export function satOutcome(check: SatCheck): { state: ProofState; refusal: string | null } {
  const proof = proofAtImport(check);
  if (proof.state === 'refused')
    return { state: 'refused', refusal: proof.reason ?? importRefusals.satNotFound };
  return { state: storable(proof.state), refusal: null };
}

/** A CFDI file's text as stored and compared (a BOM dropped, as TextDecoder does). */
export function cfdiText(content: string | Uint8Array): string {
  return typeof content === 'string' ? content : new TextDecoder().decode(content);
}

/** The invoice's amounts in centavos, or the Spanish reason they cannot be an invoice in Flujo. */
function amountsOf(cfdi: Cfdi): { subtotal: number; total: number; mxn: number } | string {
  const tooLarge = `supera el máximo que Flujo admite (${formatCurrency(MAX_INVOICE_AMOUNT)}).`;
  const subtotal = parseInvoiceAmount(cfdi.subtotal);
  const total = parseInvoiceAmount(cfdi.total);
  if (subtotal === null) return `El SubTotal ${cfdi.subtotal} ${tooLarge}`;
  if (total === null) return `El Total ${cfdi.total} ${tooLarge}`;
  // An invoice of zero cannot be advanced or financed: there is nothing to pay early.
  if (total === 0) return 'El Total de la factura debe ser mayor que cero.';
  const mxn = cfdi.exchangeRate === null ? total : convertInvoiceAmountToMxn(total, cfdi.exchangeRate);
  if (mxn === null) return `El Total convertido a pesos con TipoCambio ${cfdi.exchangeRate} ${tooLarge}`;
  if (mxn === 0) return `El Total convertido a pesos con TipoCambio ${cfdi.exchangeRate} es cero.`;
  return { subtotal, total, mxn };
}

function rejectionReason(
  cfdi: Cfdi,
  byRfc: Map<string, { id: number; is_corporate: boolean }>,
): string | null {
  // A payment CFDI (REP) is never an invoice: with no REP importer wired (options.paymentComplements) it is
  // refused here; the REP upload and SAT's sync import it as the proof of payment it is (decision 0070).
  if (cfdi.voucherType === PAYMENT_VOUCHER) return PAYMENT_COMPLEMENT_MESSAGES.isPayment;
  if (cfdi.voucherType !== INCOME_VOUCHER) return 'Solo se importan CFDI de tipo Ingreso (I).';
  if (!byRfc.has(cfdi.issuer.rfc)) return `El emisor ${cfdi.issuer.rfc} no está registrado en Flujo.`;
  if (!byRfc.get(cfdi.receiver.rfc)?.is_corporate) {
    return `El receptor ${cfdi.receiver.rfc} no es un corporativo registrado en Flujo.`;
  }
  return null;
}
