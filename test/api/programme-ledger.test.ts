// @postgresql: concurrent reservations on one ledger: row locks and isolation only a multi-connection server exercises.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/database';
import { inTransaction } from '../../server/db/transaction';
import {
  cancelReservation,
  ledgerOf,
  ProgrammeRefusalError,
  programmeBalances,
  releaseCollection,
  reserveForAdvance,
  useReservation,
} from '../../server/modules/credit-programmes/programme-ledger.repository';
import { DEMO_CORPORATE } from '../../server/seed/demo-world';
import { parseMoney } from '../../src/domain/money';
import { PROGRAMME_REFUSALS } from '../../src/domain/programme-lending';
import { createTestDatabase } from '../support/test-database';

// The programme ledger's arithmetic (migration 008, decision 0052): reserve on 'Adelantar pago', use on
// disbursement, cancel on a desk rejection, release on collection; available never below zero.

type Handle = Awaited<ReturnType<typeof createTestDatabase>>;
let handle: Handle;
let db: Db;
let corporateId: number;
let invoiceIds: number[];
const TODAY = '2026-11-26';

async function setProgramme(values: {
  limit: string;
  state?: 'borrador' | 'activo' | 'congelado' | 'vencido';
  startsOn?: string;
  endsOn?: string;
}): Promise<void> {
  await db.deleteFrom('programme_ledger').execute();
  await db.deleteFrom('credit_programmes').where('corporate_id', '=', corporateId).execute();
  await db
    .insertInto('credit_programmes')
    .values({
      corporate_id: corporateId,
      limit_amount: values.limit,
      state: values.state ?? 'activo',
      starts_on: values.startsOn ?? '2026-01-01',
      ends_on: values.endsOn ?? '2027-12-31',
    })
    .execute();
}

const reserve = (invoiceId: number, amount: string) =>
  inTransaction(db, (trx) =>
    reserveForAdvance(trx, { corporateId, invoiceId, amount, today: TODAY, actorUserId: null }),
  );

beforeAll(async () => {
  handle = await createTestDatabase();
  db = handle.db;
  const corporate = await db
    .selectFrom('companies')
    .select('id')
    .where('rfc', '=', DEMO_CORPORATE.rfc)
    .executeTakeFirstOrThrow();
  corporateId = corporate.id;
  const invoices = await db.selectFrom('invoices').select('id').orderBy('id').limit(60).execute();
  invoiceIds = invoices.map((row) => row.id);
}, 120_000);

afterAll(async () => {
  await handle.close();
});

describe('the programme ledger', () => {
  it('refuses an advance without an active programme, with the reason in Spanish', async () => {
    await db.deleteFrom('programme_ledger').execute();
    await db.deleteFrom('credit_programmes').where('corporate_id', '=', corporateId).execute();
    await expect(reserve(invoiceIds[0]!, '100.00')).rejects.toThrow(PROGRAMME_REFUSALS.none);
    await setProgramme({ limit: '1000.00', state: 'congelado' });
    await expect(reserve(invoiceIds[0]!, '100.00')).rejects.toThrow(PROGRAMME_REFUSALS.congelado);
    await setProgramme({ limit: '1000.00', state: 'borrador' });
    await expect(reserve(invoiceIds[0]!, '100.00')).rejects.toThrow(PROGRAMME_REFUSALS.borrador);
    await setProgramme({ limit: '1000.00', endsOn: '2026-11-25' });
    await expect(reserve(invoiceIds[0]!, '100.00')).rejects.toThrow('venció el 25/11/2026');
    await setProgramme({ limit: '1000.00', startsOn: '2026-12-01' });
    await expect(reserve(invoiceIds[0]!, '100.00')).rejects.toThrow('inicia el 01/12/2026');
    expect(await ledgerOf(db, (await programmeBalances(db, corporateId))!.programmeId)).toEqual([]);
  });

  it('reserves, uses, cancels and releases, and never lets available go below zero', async () => {
    await setProgramme({ limit: '1000.00' });
    const [a, b, c] = invoiceIds as [number, number, number];
    await reserve(a, '600.00');
    // The same invoice again (a bank return put it back on the desk) holds one reservation, not two.
    await reserve(a, '600.00');
    const refusal = reserve(b, '400.01');
    await expect(refusal).rejects.toBeInstanceOf(ProgrammeRefusalError);
    await expect(refusal).rejects.toThrow('disponible $400.00 MXN, la factura requiere $400.01 MXN');
    await reserve(b, '400.00');
    expect(await programmeBalances(db, corporateId)).toMatchObject({
      reserved: '1000.00',
      used: '0.00',
      available: '0.00',
    });

    expect(await inTransaction(db, (trx) => useReservation(trx, a, null))).toBe(60_000);
    expect(await inTransaction(db, (trx) => cancelReservation(trx, b, null))).toBe(40_000);
    // Nothing left to settle: a second use or cancel moves nothing.
    expect(await inTransaction(db, (trx) => useReservation(trx, a, null))).toBe(0);
    expect(await inTransaction(db, (trx) => cancelReservation(trx, c, null))).toBe(0);
    expect(await programmeBalances(db, corporateId)).toMatchObject({
      reserved: '0.00',
      used: '600.00',
      available: '400.00',
    });

    // A partial payment releases its part; an over-payment releases no more than the invoice uses.
    const release = (amount: string) =>
      inTransaction(db, (trx) =>
        releaseCollection(trx, { invoiceId: a, amount, reference: 'CLAVE1', actorUserId: null }),
      );
    expect(await release('250.00')).toBe(25_000);
    expect(await release('999.00')).toBe(35_000);
    expect(await release('1.00')).toBe(0);
    const balances = await programmeBalances(db, corporateId);
    expect(balances).toMatchObject({ reserved: '0.00', used: '0.00', available: '1000.00' });
    const ledger = await ledgerOf(db, balances!.programmeId);
    expect(ledger.map((entry) => [entry.kind, entry.amount])).toEqual([
      ['reserve', '600.00'],
      ['reserve', '400.00'],
      ['use', '600.00'],
      ['cancel', '400.00'],
      ['release', '250.00'],
      ['release', '350.00'],
    ]);
  });

  it('lets exactly as many concurrent advances through as the limit holds', async () => {
    await setProgramme({ limit: '300.00' });
    const results = await Promise.allSettled(invoiceIds.slice(0, 20).map((id) => reserve(id, '100.00')));
    const accepted = results.filter((result) => result.status === 'fulfilled');
    const refused = results.filter(
      (result) => result.status === 'rejected' && result.reason instanceof ProgrammeRefusalError,
    );
    expect(accepted).toHaveLength(3);
    expect(refused).toHaveLength(17);
    const balances = await programmeBalances(db, corporateId);
    expect(balances).toMatchObject({ reserved: '300.00', available: '0.00' });
    const ledger = await ledgerOf(db, balances!.programmeId);
    expect(ledger.reduce((sum, entry) => sum + parseMoney(entry.amount), 0)).toBe(30_000);
  });
});
