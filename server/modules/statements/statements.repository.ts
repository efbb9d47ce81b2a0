import { sql } from 'kysely';
import type { Db } from '../../db/database';

/** What an invoice's movements are built from: its advance figures, its deposit and its factoring record. */
export interface MovementFactsRow {
  id: number;
  status: number;
  date_of_emission: string;
  payment_date: string | null;
  factoring_date: string | null;
  amount_with_exchange_rate: string;
  cost_financing: string | null;
  cost_consultancy: string | null;
  disbursed_amount: string | null;
  disbursed_at: string | null;
  disbursement_reference: string | null;
  factoring_request_id: number | null;
  factored_at: string | null;
  amount_to_transfer: string | null;
  advisory_fee: string | null;
  installments: number | null;
}

export interface InstalmentRow {
  factoring_request_id: number;
  number: number;
  due_date: string;
  amount: string;
  paid_at: string | null;
}

/**
 * The movement facts of these invoices (already scoped to the caller by whoever found them): one row each,
 * through the unique indexes on disbursements.invoice_id and factoring_requests.invoice_id.
 */
export function findMovementFacts(db: Db, invoiceIds: readonly number[]): Promise<MovementFactsRow[]> {
  if (invoiceIds.length === 0) return Promise.resolve([]);
  return (
    db
      .selectFrom('invoices')
      .leftJoin('disbursements', 'disbursements.invoice_id', 'invoices.id')
      .leftJoin('factoring_requests', 'factoring_requests.invoice_id', 'invoices.id')
      .select([
        'invoices.id',
        'invoices.status',
        'invoices.date_of_emission',
        'invoices.payment_date',
        'invoices.factoring_date',
        'invoices.amount_with_exchange_rate',
        'invoices.cost_financing',
        'invoices.cost_consultancy',
        'disbursements.amount as disbursed_amount',
        'disbursements.at as disbursed_at',
        'disbursements.reference as disbursement_reference',
        'factoring_requests.id as factoring_request_id',
        'factoring_requests.created_at as factored_at',
        'factoring_requests.amount_to_transfer',
        'factoring_requests.advisory_fee',
        'factoring_requests.installments',
      ])
      // One array parameter instead of thousands of placeholders (a report may name 10,000 ids).
      .where('invoices.id', '=', sql<number>`any(${[...invoiceIds]}::integer[])`)
      .execute()
  );
}

/** The schedules of these factoring records, by record and number (the table's unique index). */
export function findInstalments(db: Db, factoringRequestIds: readonly number[]): Promise<InstalmentRow[]> {
  if (factoringRequestIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('factoring_instalments')
    .select(['factoring_request_id', 'number', 'due_date', 'amount', 'paid_at'])
    .where('factoring_request_id', '=', sql<number>`any(${[...factoringRequestIds]}::integer[])`)
    .orderBy('factoring_request_id')
    .orderBy('number')
    .execute();
}
