import type { Db } from '../../db/database';
import type { SatCheck } from './cfdi-authenticity';

/** Keeps SAT's answer (or its silence) for an invoice; call in the transaction that acts on it. */
export async function recordSatCheck(trx: Db, invoiceId: number, check: SatCheck): Promise<void> {
  await trx
    .insertInto('cfdi_sat_checks')
    .values({
      invoice_id: invoiceId,
      asked_at: check.askedAt.toISOString(),
      answered: check.answered,
      estado: check.answered ? check.answer.estado : null,
      codigo_estatus: check.answered ? check.answer.codigoEstatus : null,
      es_cancelable: check.answered ? check.answer.esCancelable : null,
      estatus_cancelacion: check.answered ? check.answer.estatusCancelacion : null,
      validacion_efos: check.answered ? check.answer.validacionEfos : null,
      failure: check.answered ? null : check.failure,
    })
    .execute();
}

/** The latest SAT answer per invoice. */
export async function latestSatChecks(db: Db, invoiceIds: readonly number[]) {
  if (invoiceIds.length === 0) return new Map<number, LatestSatCheck>();
  const rows = await db
    .selectFrom('cfdi_sat_checks')
    .select([
      'invoice_id',
      'asked_at',
      'answered',
      'estado',
      'failure',
      'es_cancelable',
      'estatus_cancelacion',
      'validacion_efos',
    ])
    .where('id', 'in', (qb) =>
      qb
        .selectFrom('cfdi_sat_checks')
        .select((eb) => eb.fn.max('id').as('id'))
        .where('invoice_id', 'in', invoiceIds)
        .groupBy('invoice_id'),
    )
    .execute();
  return new Map(rows.map((row) => [row.invoice_id, row]));
}

export type LatestSatCheck = {
  invoice_id: number;
  asked_at: string;
  answered: boolean;
  estado: string | null;
  failure: string | null;
  es_cancelable: string | null;
  estatus_cancelacion: string | null;
  validacion_efos: string | null;
};
