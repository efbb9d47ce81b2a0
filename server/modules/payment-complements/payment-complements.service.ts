import { invoiceLabel } from '../../../src/domain/invoice-label';
import { PAYMENT_COMPLEMENT_MESSAGES as MESSAGES } from '../../../src/domain/payment-complements';
import type { PaymentComplementUploadResult } from '../../../src/domain/schemas/payment-complements';
import type { EfosSituation } from '../../../src/machines/cfdi-proof.machine';
import { type PaymentComplement, parsePaymentCfdi } from '../../cfdi/parse-payments';
import { type CfdiSealProof, verifyCfdiSeal } from '../../cfdi/verify-cfdi';
import type { Db } from '../../db/database';
import { inTransaction } from '../../db/transaction';
import { findCompaniesByRfc } from '../accounts/company.repository';
import { blockingEfosEntries } from '../efos/efos.repository';
import { askSat, type CfdiAuthenticity } from '../sat/cfdi-authenticity';
import { cfdiText, importRefusals, satOutcome } from '../sat/cfdi-import.service';

/**
 * Imports one payment CFDI (REP: type P, Pagos 2.0) through the same proof as an invoice (decision 0070): its
 * seal and certificate (verify-cfdi.ts, the same Spanish refusals), the issuer against the 69-B list, SAT's
 * status; then the parties (the issuer a company of Flujo, the receiver a corporate, the uploader the issuer)
 * and every pago20:DoctoRelacionado, which must be an invoice that issuer issued to that receiver. Anything
 * refused writes nothing; the same file again changes nothing ('unchanged').
 */
export type PaymentComplementImport =
  | { ok: true; result: PaymentComplementUploadResult }
  | { ok: false; reasons: string[] };

export interface PaymentComplementImportOptions {
  authenticity: CfdiAuthenticity;
  /** The uploading supplier's company: it must be the REP's issuer. Absent for SAT's sync and ops. */
  uploaderCompanyId?: number;
  actorLabel: string;
}

export async function importPaymentComplement(
  db: Db,
  file: { name: string; content: string | Uint8Array },
  options: PaymentComplementImportOptions,
): Promise<PaymentComplementImport> {
  const parsed = parsePaymentCfdi(file.content, file.name);
  if (!parsed.ok) return refused(parsed.reason);
  const { cfdi, root, complement } = parsed;
  const verification = verifyCfdiSeal(root, cfdi, options.authenticity.trust);
  if (!verification.ok) return refused(verification.reason);
  const xml = cfdiText(file.content);

  const held = await db
    .selectFrom('payment_complements')
    .select(['id', 'cfdi_xml'])
    .where('cfdi_uuid', '=', cfdi.uuid)
    .executeTakeFirst();
  if (held && held.cfdi_xml !== xml) return refused(MESSAGES.conflictingCopy(cfdi.uuid));

  const companies = await findCompaniesByRfc(db, [cfdi.issuer.rfc, cfdi.receiver.rfc]);
  const issuer = companies.find((company) => company.rfc === cfdi.issuer.rfc);
  const receiver = companies.find((company) => company.rfc === cfdi.receiver.rfc);
  if (!issuer) return refused(MESSAGES.issuerUnknown(cfdi.issuer.rfc));
  if (options.uploaderCompanyId !== undefined && issuer.id !== options.uploaderCompanyId)
    return refused(MESSAGES.notOwnIssuer(cfdi.issuer.rfc));
  if (!receiver?.is_corporate) return refused(MESSAGES.receiverNotCorporate(cfdi.receiver.rfc));

  const documents = await relatedInvoices(db, complement);
  const reasons = documents.flatMap(({ uuid, invoice }) => {
    if (!invoice) return [MESSAGES.unknownDocument(uuid)];
    if (invoice.emitter_company_id !== issuer.id || invoice.receiver_company_id !== receiver.id)
      return [MESSAGES.otherCompanyDocument(uuid, cfdi.issuer.rfc, cfdi.receiver.rfc)];
    return [];
  });
  if (reasons.length > 0) return { ok: false, reasons };
  const linked = documents.map(({ invoice }) => {
    const found = invoice as NonNullable<typeof invoice>;
    return { invoice_id: found.id, cfdi_uuid: found.cfdi_uuid, label: invoiceLabel(found) };
  });
  if (held) return { ok: true, result: { status: 'unchanged', uuid: cfdi.uuid, invoices: linked } };

  const listed = await blockingEfosEntries(db, [cfdi.issuer.rfc]);
  const entry = listed.get(cfdi.issuer.rfc);
  if (entry) return refused(importRefusals.efos(entry.situation as EfosSituation));

  // SAT is asked outside the transaction, as for invoices; silence refuses a REP (decision 0070).
  const check = await askSat(options.authenticity, db, {
    uuid: cfdi.uuid,
    issuerRfc: cfdi.issuer.rfc,
    receiverRfc: cfdi.receiver.rfc,
    total: cfdi.total,
    seal: root.getAttribute('Sello') ?? '',
  });
  if (!check.answered) return refused(MESSAGES.satSilent);
  const outcome = satOutcome(check);
  if (outcome.refusal) return refused(outcome.refusal);

  const inserted = await inTransaction(db, async (trx) => {
    const row = await trx
      .insertInto('payment_complements')
      .values({
        cfdi_uuid: cfdi.uuid,
        emitter_company_id: issuer.id,
        receiver_company_id: receiver.id,
        issued_at: cfdi.issuedAt,
        stamped_at: cfdi.stampedAt,
        file_name: file.name,
        cfdi_xml: xml,
        cfdi_proof: JSON.stringify(verification.proof satisfies CfdiSealProof),
        sat_estado: check.answer.estado ?? '',
        sat_asked_at: check.askedAt.toISOString(),
        imported_by: options.actorLabel,
      })
      // Another upload of the same REP may have won meanwhile: then this one changes nothing.
      .onConflict((conflict) => conflict.column('cfdi_uuid').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) return false;
    const links = complement.payments.flatMap((payment) =>
      payment.documents.map((document) => ({
        payment_complement_id: row.id,
        invoice_id: documents.find((item) => item.uuid === document.uuid)?.invoice?.id as number,
        paid_at: payment.paidAt,
        currency: document.currency,
        installment: document.installment,
        previous_balance: document.previousBalance,
        paid: document.paid,
        remaining_balance: document.remainingBalance,
      })),
    );
    await trx
      .insertInto('payment_complement_links')
      .values(links)
      .onConflict((conflict) =>
        conflict.columns(['payment_complement_id', 'invoice_id', 'installment']).doNothing(),
      )
      .execute();
    return true;
  });
  return {
    ok: true,
    result: { status: inserted ? 'imported' : 'unchanged', uuid: cfdi.uuid, invoices: linked },
  };
}

function refused(reason: string): PaymentComplementImport {
  return { ok: false, reasons: [reason] };
}

/** Each distinct IdDocumento of the REP with the invoice of that folio fiscal, if Flujo holds one. */
async function relatedInvoices(db: Db, complement: PaymentComplement) {
  const uuids = [
    ...new Set(complement.payments.flatMap((payment) => payment.documents.map((document) => document.uuid))),
  ];
  const rows = await db
    .selectFrom('invoices')
    .select(['id', 'cfdi_uuid', 'serie', 'folio', 'emitter_company_id', 'receiver_company_id'])
    .where('cfdi_uuid', 'in', uuids)
    .execute();
  const byUuid = new Map(rows.map((row) => [row.cfdi_uuid.toUpperCase(), row]));
  return uuids.map((uuid) => ({ uuid, invoice: byUuid.get(uuid) ?? null }));
}
