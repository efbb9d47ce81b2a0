import { sql } from 'kysely';
import type { InboxItem, InboxKind } from '../../../src/domain/schemas/operator-alliances';
import { EFOS_BLOCKING_SITUATIONS } from '../../cfdi/efos-list';
import type { Db } from '../../db/database';
import { findDemoRequestPage } from '../accounts/demo-request.repository';
import { countReferrals, listReferrals } from '../providers/provider-requests.repository';

// The operator's inbox (issue 19): what providers and visitors sent, one kind at a time, newest first. Each
// list reads its table with the company and user who sent it in one statement (server/README's rule); demo
// requests, which have no sender to join, and referrals come from their owner's repository. The 69-B tab (issue 30) reads
// the imported list itself (decision 0057).

type Page = { limit: number; offset: number };
export interface InboxPageRows {
  count: number;
  rows: InboxItem[];
}

const iso = (value: string) => new Date(value).toISOString();

async function demoRequests(db: Db, page: Page): Promise<InboxPageRows> {
  const { count, rows } = await findDemoRequestPage(db, page);
  return {
    count,
    rows: rows.map((row) => ({
      id: row.id,
      kind: 'demo',
      from_name: `${row.first_name} ${row.last_name}`.trim(),
      from_company: row.company,
      subject: `Solicitud de demo (${row.source})`,
      contact_email: row.email,
      contact_phone: row.phone,
      status: null,
      created_at: iso(row.created_at),
    })),
  };
}

async function referrals(db: Db, page: Page): Promise<InboxPageRows> {
  const [count, rows] = await Promise.all([countReferrals(db), listReferrals(db, page.limit, page.offset)]);
  return {
    count,
    rows: rows.map((row) => ({
      id: row.id,
      kind: 'referral',
      from_name: row.referrer_company,
      from_company: row.referrer_company,
      subject: `Recomienda a ${row.name} (${row.company})`,
      contact_email: row.email,
      contact_phone: row.phone,
      status: null,
      created_at: row.created_at,
    })),
  };
}

async function factoringEnrolments(db: Db, page: Page): Promise<InboxPageRows> {
  const [total, rows] = await Promise.all([
    db.selectFrom('factoring_enrolments').select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    db
      .selectFrom('factoring_enrolments as f')
      .innerJoin('companies as c', 'c.id', 'f.company_id')
      .leftJoin('users as u', 'u.id', 'f.requested_by')
      .select([
        'f.id',
        'f.status',
        'f.created_at',
        'c.name',
        'c.rfc',
        'u.email',
        'u.mobile_phone',
        'u.first_name',
        'u.last_name',
      ])
      .orderBy('f.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
  ]);
  return {
    count: Number(total.n),
    rows: rows.map((row) => ({
      id: row.id,
      kind: 'factoring',
      from_name: row.first_name === null ? row.name : `${row.first_name} ${row.last_name ?? ''}`.trim(),
      from_company: row.name,
      subject: `Pide su alta en factoraje${row.rfc ? ` (RFC ${row.rfc})` : ''}`,
      contact_email: row.email,
      contact_phone: row.mobile_phone || null,
      status: row.status,
      created_at: iso(row.created_at),
    })),
  };
}

async function allianceRequests(db: Db, page: Page): Promise<InboxPageRows> {
  const [total, rows] = await Promise.all([
    db.selectFrom('alliance_requests').select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    db
      .selectFrom('alliance_requests as r')
      .innerJoin('companies as c', 'c.id', 'r.provider_id')
      .select([
        'r.id',
        'r.client_rfc',
        'r.client_name',
        'r.contact_name',
        'r.email',
        'r.phone',
        'r.status',
        'r.created_at',
        'c.name as provider_name',
      ])
      .orderBy('r.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
  ]);
  return {
    count: Number(total.n),
    rows: rows.map((row) => ({
      id: row.id,
      kind: 'alliance',
      from_name: row.contact_name,
      from_company: row.provider_name,
      subject: `Alianza con ${row.client_name} (RFC ${row.client_rfc})`,
      contact_email: row.email,
      contact_phone: row.phone,
      status: row.status,
      created_at: iso(row.created_at),
    })),
  };
}

/**
 * The allied providers (a company some alliance names as supplier) on the last imported 69-B list: not a message
 * anyone sent but the list itself, so an entry stays while the list holds the RFC. Blocking situations first;
 * the status is the situation, the date the list's import, and the subject says how many alliances are paused.
 */
async function efosProviders(db: Db, page: Page): Promise<InboxPageRows> {
  const listed = () =>
    db
      .selectFrom('efos_entries as e')
      .innerJoin('companies as c', 'c.rfc', 'e.rfc')
      .where(({ exists, selectFrom }) =>
        exists(selectFrom('alliances as a').select('a.id').whereRef('a.provider_id', '=', 'c.id')),
      );
  const [total, rows] = await Promise.all([
    listed().select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    listed()
      .innerJoin('efos_lists as l', 'l.id', 'e.list_id')
      .select((eb) => [
        'c.id',
        'c.name',
        'e.rfc',
        'e.situation',
        'l.imported_at',
        eb
          .selectFrom('alliances as a')
          .select(sql<string>`count(*)`.as('n'))
          .whereRef('a.provider_id', '=', 'c.id')
          .as('alliances'),
        eb
          .selectFrom('alliances as a')
          .select(sql<string>`count(*)`.as('n'))
          .whereRef('a.provider_id', '=', 'c.id')
          .where('a.is_active', '=', false)
          .as('paused'),
        eb
          .selectFrom('users as u')
          .select('u.email')
          .whereRef('u.company_id', '=', 'c.id')
          .where('u.is_active', '=', true)
          .orderBy('u.id')
          .limit(1)
          .as('email'),
        eb
          .selectFrom('users as u')
          .select('u.mobile_phone')
          .whereRef('u.company_id', '=', 'c.id')
          .where('u.is_active', '=', true)
          .orderBy('u.id')
          .limit(1)
          .as('phone'),
      ])
      .orderBy(sql`e.situation in (${sql.join([...EFOS_BLOCKING_SITUATIONS])})`, 'desc')
      .orderBy('c.name')
      .orderBy('c.id')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
  ]);
  return {
    count: Number(total.n),
    rows: rows.map((row) => ({
      id: row.id,
      kind: 'efos',
      from_name: row.name,
      from_company: row.name,
      subject: `RFC ${row.rfc} en la lista 69-B del SAT como ${row.situation}; alianzas inactivas: ${Number(row.paused)} de ${Number(row.alliances)}`,
      contact_email: row.email ?? null,
      contact_phone: row.phone || null,
      status: row.situation,
      created_at: iso(String(row.imported_at)),
    })),
  };
}

/**
 * Conflicting copies (issue 30): a file that came under a folio fiscal Flujo holds with other bytes. It was
 * refused and the stored invoice kept; operators see who sent it, when, and which invoice it claims to be.
 */
async function cfdiConflicts(db: Db, page: Page): Promise<InboxPageRows> {
  const [total, rows] = await Promise.all([
    db.selectFrom('cfdi_conflicts').select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    db
      .selectFrom('cfdi_conflicts as k')
      .innerJoin('invoices as i', 'i.id', 'k.invoice_id')
      .select([
        'k.id',
        'k.cfdi_uuid',
        'k.file_name',
        'k.source',
        'k.received_at',
        'i.emitter_name',
        'i.id as invoice_id',
      ])
      .orderBy('k.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
  ]);
  return {
    count: Number(total.n),
    rows: rows.map((row) => ({
      id: row.id,
      kind: 'conflict',
      from_name: row.source,
      from_company: row.emitter_name,
      subject: `${row.file_name}: copia distinta de la factura ${row.invoice_id} (folio fiscal ${row.cfdi_uuid}); se rechazó y se conservó la original`,
      contact_email: null,
      contact_phone: null,
      status: null,
      created_at: iso(String(row.received_at)),
    })),
  };
}

const LISTS: Record<InboxKind, (db: Db, page: Page) => Promise<InboxPageRows>> = {
  demo: demoRequests,
  referral: referrals,
  factoring: factoringEnrolments,
  alliance: allianceRequests,
  efos: efosProviders,
  conflict: cfdiConflicts,
};

/** One page of one kind of the inbox. */
export function findInboxPage(db: Db, kind: InboxKind, page: Page): Promise<InboxPageRows> {
  return LISTS[kind](db, page);
}
