import { sql } from 'kysely';
import type { AllianceRequest, Referral } from '../../../src/domain/schemas/session';
import type { Db } from '../../db/database';

// The provider's requests to Flujo's operations desk: referred customers and alliance requests (decision 0038).

/** The company's name, for the operator's e-mails. */
export async function companyNameById(db: Db, companyId: number): Promise<string | undefined> {
  const row = await db.selectFrom('companies').select('name').where('id', '=', companyId).executeTakeFirst();
  return row?.name;
}

export async function insertReferral(db: Db, referrerUserId: number, referral: Referral): Promise<number> {
  const row = await db
    .insertInto('referrals')
    .values({ ...referral, referrer_user_id: referrerUserId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface ReferralRow {
  id: number;
  name: string;
  company: string;
  email: string;
  phone: string;
  referrer: string;
  referrer_company: string;
  created_at: string;
}

/**
 * The newest referrals first, with who referred them: the operator's inbox pages them, `npm run ops --
 * referrals:list` reads the first `limit`.
 */
export async function listReferrals(db: Db, limit: number, offset = 0): Promise<ReferralRow[]> {
  const rows = await db
    .selectFrom('referrals as r')
    .innerJoin('users as u', 'u.id', 'r.referrer_user_id')
    .leftJoin('companies as c', 'c.id', 'u.company_id')
    .select([
      'r.id',
      'r.name',
      'r.company',
      'r.email',
      'r.phone',
      'u.username as referrer',
      'c.name as referrer_company',
      'r.created_at',
    ])
    .orderBy('r.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((row) => ({
    ...row,
    referrer_company: row.referrer_company ?? '',
    created_at: new Date(row.created_at).toISOString(),
  }));
}

/** How many referrals there are (the inbox's count). */
export async function countReferrals(db: Db): Promise<number> {
  const row = await db
    .selectFrom('referrals')
    .select(sql<string>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Files the request unless one is already open for this provider and client RFC (the partial unique index
 * alliance_requests_one_open, migration 004): the new row's id, or null when an open one exists.
 */
export async function insertAllianceRequest(
  db: Db,
  providerId: number,
  requestedBy: number,
  request: AllianceRequest,
): Promise<number | null> {
  const row = await db
    .insertInto('alliance_requests')
    .values({
      provider_id: providerId,
      requested_by: requestedBy,
      client_rfc: request.rfc,
      client_name: request.company,
      contact_name: request.contact_name,
      email: request.email,
      phone: request.phone,
    })
    .onConflict((oc) =>
      oc.columns(['provider_id', 'client_rfc']).where('status', '=', 'requested').doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

export interface AllianceRequestRow {
  id: number;
  provider_rfc: string;
  provider_name: string;
  client_rfc: string;
  client_name: string;
  contact_name: string;
  email: string;
  phone: string;
  status: string;
  created_at: string;
}

/** The newest alliance requests first, with the provider that asked (`npm run ops -- alliances:requests`). */
export async function listAllianceRequests(db: Db, limit: number): Promise<AllianceRequestRow[]> {
  const rows = await db
    .selectFrom('alliance_requests as a')
    .innerJoin('companies as c', 'c.id', 'a.provider_id')
    .select([
      'a.id',
      'c.rfc as provider_rfc',
      'c.name as provider_name',
      'a.client_rfc',
      'a.client_name',
      'a.contact_name',
      'a.email',
      'a.phone',
      'a.status',
      'a.created_at',
    ])
    .orderBy('a.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    ...row,
    provider_rfc: row.provider_rfc ?? '',
    created_at: new Date(row.created_at).toISOString(),
  }));
}
