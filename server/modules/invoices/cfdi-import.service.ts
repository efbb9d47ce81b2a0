import { InvoiceStatus } from '../../../src/domain/invoice-status';
import {
  convertInvoiceAmountToMxn,
  formatCurrency,
  formatMoneyAmount,
  MAX_INVOICE_AMOUNT,
  parseInvoiceAmount,
} from '../../../src/domain/money';
import { type Cfdi, parseCfdi } from '../../cfdi/parse-cfdi';
import type { Db } from '../../db/database';
import { inTransaction } from '../../db/transaction';
import { findCompaniesByRfc } from '../accounts/company.repository';
import { insertInvoice, knownCfdiUuids } from './invoice.repository';
import { insertInvoiceEvent } from './invoice-events.repository';

export interface CfdiFile {
  name: string;
  content: string | Uint8Array;
}

export interface ImportResult {
  imported: { id: number; uuid: string; name: string }[];
  rejected: { name: string; reason: string }[];
}

// NOTE: only income vouchers (TipoDeComprobante I) are receivables a buyer can pay early (SAT catalogue c_TipoDeComprobante).
const INCOME_VOUCHER = 'I';

/**
 * Imports CFDI 4.0 XML as invoices in AVAILABLE. Each file is accepted or rejected on its own with a
 * Spanish reason; a rejected file writes nothing, and re-importing a UUID is refused, so imports are idempotent.
 */
export async function importCfdiFiles(
  db: Db,
  files: CfdiFile[],
  actorLabel = 'importador CFDI',
): Promise<ImportResult> {
  const result: ImportResult = { imported: [], rejected: [] };
  const accepted: { name: string; cfdi: Cfdi; xml: string }[] = [];
  for (const file of files) {
    const parsed = parseCfdi(file.content, file.name);
    if (!parsed.ok) result.rejected.push({ name: file.name, reason: parsed.reason });
    else accepted.push({ name: file.name, cfdi: parsed.cfdi, xml: asText(file.content) });
  }
  if (accepted.length === 0) return result;

  await inTransaction(db, async (trx) => {
    const rfcs = [...new Set(accepted.flatMap(({ cfdi }) => [cfdi.issuer.rfc, cfdi.receiver.rfc]))];
    const companies = await findCompaniesByRfc(trx, rfcs);
    // `rfc in (…)` never matches a NULL (a company not yet linked to SAT, migration 002).
    const byRfc = new Map(companies.flatMap((c) => (c.rfc === null ? [] : [[c.rfc, c] as const])));
    const known = await knownCfdiUuids(
      trx,
      accepted.map(({ cfdi }) => cfdi.uuid),
    );

    for (const { name, cfdi, xml } of accepted) {
      const reason = rejectionReason(cfdi, byRfc, known);
      if (reason) {
        result.rejected.push({ name, reason });
        continue;
      }
      const amounts = amountsOf(cfdi);
      if (typeof amounts === 'string') {
        result.rejected.push({ name, reason: amounts });
        continue;
      }
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
      known.add(cfdi.uuid);
      result.imported.push({ id, uuid: cfdi.uuid, name });
    }
  });
  return result;
}

function asText(content: string | Uint8Array): string {
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
  known: Set<string>,
): string | null {
  if (cfdi.voucherType !== INCOME_VOUCHER) return 'Solo se importan CFDI de tipo Ingreso (I).';
  if (known.has(cfdi.uuid)) return `La factura ${cfdi.uuid} ya fue importada.`;
  if (!byRfc.has(cfdi.issuer.rfc)) return `El emisor ${cfdi.issuer.rfc} no está registrado en Flujo.`;
  if (!byRfc.get(cfdi.receiver.rfc)?.is_corporate) {
    return `El receptor ${cfdi.receiver.rfc} no es un corporativo registrado en Flujo.`;
  }
  return null;
}
