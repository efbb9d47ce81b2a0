import { sql } from 'kysely';
import type { Db } from '../../db/database';

/**
 * The checks of an audit row, in the order verification applies them (decision 0044). The hashes are the
 * database's own functions from migration 007 (invoice_event_hash, invoice_event_chain_hash): the trigger that
 * writes a row and this verifier read the canonical form from that one place.
 */
export const AUDIT_CHECKS = {
  content: 'contenido / content: el hash de la fila no corresponde a su contenido (fila editada)',
  invoice_chain:
    'cadena de la factura / invoice chain: prev_hash no es el hash del evento anterior de la factura (un evento de la factura borrado o reescrito)',
  sequence: 'secuencia / sequence: chain_seq no sigue al anterior (falta o sobra una fila)',
  global_chain:
    'cadena global / global chain: chain_hash no encadena con la fila anterior (la fila anterior fue reescrita)',
  head: 'cabeza / head: la última fila no es la cabeza registrada (se borraron las filas más recientes)',
} as const;

export type AuditCheck = keyof typeof AUDIT_CHECKS;

// The codes the query gives each check (the order is the order of AUDIT_CHECKS).
const CHECK_BY_CODE: readonly AuditCheck[] = ['content', 'invoice_chain', 'sequence', 'global_chain'];

export interface AuditBreak {
  check: AuditCheck;
  eventId: number | null;
  invoiceId: number | null;
  invoiceFolio: string | null;
  invoiceUuid: string | null;
  chainSeq: string | null;
}

export interface AuditVerification {
  events: number;
  invoices: number;
  /** The head's chain_seq and chain_hash (hex), what an auditor notes to compare a later run with. */
  headSeq: string;
  headHash: string | null;
  /** The first broken row in chain order, or null when every check passed. */
  broken: AuditBreak | null;
}

interface ChainPass {
  events: string | number;
  invoices: string | number;
  first: (string | number)[] | null;
  last_id: number | null;
  last_seq: string | null;
  last_hash: string | null;
}

/**
 * Checks every per-invoice chain, the global chain and the head in one pass over invoice_events (two window
 * sorts), all in one REPEATABLE READ snapshot so rows written meanwhile are not half-seen.
 */
export async function verifyAuditChain(db: Db): Promise<AuditVerification> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const { rows } = await sql<ChainPass>`
        with w as (
          select e.id, e.invoice_id, e.chain_seq, e.prev_hash, e.hash, e.chain_hash,
            invoice_event_hash(e.prev_hash, e.id, e.invoice_id, e.event, e.from_status, e.to_status,
              e.actor_user_id, e.actor, e.reason, e.at) as expected,
            lag(e.hash) over (partition by e.invoice_id order by e.chain_seq, e.id) as invoice_prev,
            lag(e.chain_hash) over (order by e.chain_seq, e.id) as chain_prev,
            row_number() over (order by e.chain_seq, e.id) as n,
            lead(e.id) over (order by e.chain_seq, e.id) is null as is_last
          from invoice_events e
        ),
        c as (
          select n, id, chain_seq, chain_hash, is_last, invoice_prev is null as first_of_invoice,
            case
              when hash is distinct from expected then 0
              when prev_hash is distinct from invoice_prev then 1
              when chain_seq is distinct from n then 2
              when chain_hash is distinct from invoice_event_chain_hash(chain_prev, hash, chain_seq) then 3
            end as failure
          from w
        )
        select count(*) as events, count(*) filter (where first_of_invoice) as invoices,
          min(array[n, failure, id]) filter (where failure is not null) as first,
          max(id) filter (where is_last) as last_id, max(chain_seq) filter (where is_last)::text as last_seq,
          max(encode(chain_hash, 'hex')) filter (where is_last) as last_hash
        from c`.execute(trx);
      const pass = rows[0] as ChainPass;
      const head = await trx
        .selectFrom('invoice_events_chain_head')
        .select([
          sql<string>`chain_seq::text`.as('seq'),
          sql<string | null>`encode(chain_hash, 'hex')`.as('hash'),
        ])
        .where('id', '=', 1)
        .executeTakeFirst();
      const headSeq = head?.seq ?? '0';
      const headHash = head?.hash ?? null;
      let broken: { check: AuditCheck; eventId: number | null } | null = null;
      if (pass.first) {
        const [, code, id] = pass.first.map(Number);
        broken = { check: CHECK_BY_CODE[code ?? 0] ?? 'content', eventId: id ?? null };
      } else if (!head || headSeq !== (pass.last_seq ?? '0') || headHash !== pass.last_hash) {
        broken = { check: 'head', eventId: pass.last_id };
      }
      return {
        events: Number(pass.events),
        invoices: Number(pass.invoices),
        headSeq,
        headHash,
        broken: broken ? await describeBreak(trx, broken.check, broken.eventId) : null,
      };
    });
}

async function describeBreak(trx: Db, check: AuditCheck, eventId: number | null): Promise<AuditBreak> {
  const row =
    eventId === null
      ? undefined
      : await trx
          .selectFrom('invoice_events as e')
          .leftJoin('invoices as i', 'i.id', 'e.invoice_id')
          .select([
            'e.id',
            'e.invoice_id',
            sql<string>`e.chain_seq::text`.as('seq'),
            sql<string | null>`nullif(concat_ws('-', i.serie, i.folio), '')`.as('folio'),
            'i.cfdi_uuid',
          ])
          .where('e.id', '=', eventId)
          .executeTakeFirst();
  return {
    check,
    eventId,
    invoiceId: row?.invoice_id ?? null,
    invoiceFolio: row?.folio ?? null,
    invoiceUuid: row?.cfdi_uuid ?? null,
    chainSeq: row?.seq ?? null,
  };
}
