import { sql } from 'kysely';
import type { IsoDate } from '../../src/domain/calendar-date';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { buildPaymentCfdiXml } from '../cfdi/build-cfdi';
import type { Db } from '../db/database';
import { inTransaction } from '../db/transaction';
import { recordCollection } from '../modules/credit-programmes/collections.service';
import { importPaymentComplement } from '../modules/payment-complements/payment-complements.service';
import { type CfdiAuthenticity, demoAuthorityOf } from '../modules/sat/cfdi-authenticity';
import { DEMO_OPERATORS } from './demo-operators';
import { DEMO_CORPORATE, DEMO_PROVIDERS } from './demo-world';

/**
 * Issue 34 (decision 0070): the demo buyer pays two of the demo provider's advances ('Registrar cobro' by the
 * demo operator, the programme released as usual; the second may be another provider's) and the provider's REP for the first arrives, genuinely
 * sealed and stamped by the demo authority: the desk and the provider's Historial then show one 'REP
 * recibido' and one 'REP pendiente'. Run by `ops demo:payment-complement` (the screenshots do), never by the
 * demo world itself, so the tests built on that world keep their balances. Nothing happens a second time.
 */
export async function seedDemoPaymentComplements(
  db: Db,
  authenticity: CfdiAuthenticity,
  today: IsoDate,
): Promise<{ created: boolean; summary: string }> {
  const already = await db.selectFrom('payment_complements').select('id').executeTakeFirst();
  if (already) return { created: false, summary: 'ya hay complementos de pago' };
  const [provider] = DEMO_PROVIDERS;
  const operatorName = DEMO_OPERATORS.find((operator) => operator.roles.includes('tesoreria'))?.username;
  const operator = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', operatorName ?? '')
    .executeTakeFirst();
  if (!operator) return { created: false, summary: 'faltan los operadores demo (demo:load)' };
  const paid = await db
    .selectFrom('invoices')
    .select(['id', 'cfdi_uuid', 'serie', 'folio', 'amount', 'amount_with_exchange_rate', 'emitter_rfc'])
    .where(
      'emitter_rfc',
      'in',
      DEMO_PROVIDERS.map((demo) => demo.rfc),
    )
    .where('status', '=', InvoiceStatus.PAID)
    .where('currency', '=', 'MXN')
    // The demo provider's first (its REP arrives), then another provider's (its REP still owed).
    .orderBy(sql`emitter_rfc = ${provider.rfc}`, 'desc')
    .orderBy('id')
    .limit(2)
    .execute();
  if (paid.length === 0) return { created: false, summary: 'no hay adelantos pagados' };
  await inTransaction(db, async (trx) => {
    for (const invoice of paid) {
      // The demo world pays its advances without the desk; these two are shown there as paid, as a batch would.
      await trx
        .insertInto('desk_items')
        .values({
          invoice_id: invoice.id,
          state: 'paid',
          reason: null,
          decided_by: null,
          decided_by_username: 'operador Flujo',
        })
        .onConflict((conflict) => conflict.column('invoice_id').doNothing())
        .execute();
      await recordCollection(
        trx,
        { id: operator.id, roles: ['tesoreria'] },
        {
          invoice_id: invoice.id,
          amount: invoice.amount_with_exchange_rate,
          clave_rastreo: `DEMOREP${invoice.id}`,
          fecha: today,
          sobrepago: false,
        },
        today,
      );
    }
  });
  const [first] = paid;
  if (first?.emitter_rfc !== provider.rfc)
    return { created: false, summary: 'el proveedor demo no tiene adelantos pagados' };
  const xml = buildPaymentCfdiXml(
    {
      serie: 'P',
      folio: '1',
      issuedAt: `${today}T09:30:00`,
      paidAt: `${today}T09:00:00`,
      currency: 'MXN',
      issuer: { rfc: provider.rfc, name: provider.name },
      receiver: { rfc: DEMO_CORPORATE.rfc, name: DEMO_CORPORATE.name },
      documents: [
        {
          uuid: first.cfdi_uuid,
          serie: first.serie ?? undefined,
          folio: first.folio ?? undefined,
          previousBalance: first.amount,
          paid: first.amount,
        },
      ],
    },
    demoAuthorityOf(authenticity),
  );
  const imported = await importPaymentComplement(
    db,
    { name: `${provider.rfc}-P-1.xml`, content: xml },
    { authenticity, actorLabel: 'sincronización SAT (demo)' },
  );
  if (!imported.ok) throw new Error(`demo REP refused: ${imported.reasons.join('; ')}`);
  return { created: true, summary: `${paid.length} cobros y 1 REP (${imported.result.uuid})` };
}
