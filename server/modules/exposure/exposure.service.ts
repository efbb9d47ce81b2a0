import type { IsoDate } from '../../../src/domain/calendar-date';
import { daysBetween } from '../../../src/domain/calendar-date';
import {
  type CapScope,
  type ConcentrationCap,
  capBreach,
  capLimitText,
  capRoom,
  capUtilisation,
  LADDER_BUCKET_LABELS,
  LADDER_BUCKETS,
  ladderBucket,
  shareHundredths,
} from '../../../src/domain/concentration';
import { CORPORATE_MESSAGES } from '../../../src/domain/corporate-file';
import { type Centavos, formatMoneyAmount, parseMoney } from '../../../src/domain/money';
import type { OperatorRole } from '../../../src/domain/operator-roles';
import type {
  CapView,
  ExposureAnswer,
  ExposureRow,
  ProposeCapBody,
} from '../../../src/domain/schemas/exposure';
import {
  CAP_STATUS_LABELS,
  type CapStatus,
  type ConcentrationCapEvent,
  nextCapStatus,
} from '../../../src/machines/concentration-cap.machine';
import type { Db } from '../../db/database';
import type { CallOutcome } from '../idempotency/idempotency.service';
import {
  type CapRow,
  type CapSubject,
  capOfSubject,
  companiesById,
  currentCaps,
  exposureOf,
  findCap,
  insertCap,
  lockCapsOfAdvance,
  outstandingByDueDate,
  pairExposures,
  setCapStatus,
  setEconomicGroup,
} from './exposure.repository';

// Exposure and concentration caps (issue 34, decision 0069): the rules and transactions; SQL is in the
// repository, the cap arithmetic and its Spanish words in src/domain/concentration.ts, every status change of a
// cap is asked of its machine (src/machines/concentration-cap.machine.ts).

export const CAP_REFUSALS = {
  notFound: 'Tope no encontrado.',
  companyNotFound: 'La empresa del tope no existe.',
  notCorporate: 'Un tope de comprador se pone a un corporativo.',
  groupUnknown: 'Ningún corporativo tiene ese grupo económico en su expediente.',
  alreadyPending:
    'Ya hay un tope propuesto para este sujeto: debe aprobarse o rechazarse antes de proponer otro.',
  selfApproval: 'Otro aprobador debe aprobar este tope: quien lo propone no puede aprobarlo.',
  notNow: 'El tope no admite esta acción en su estado actual.',
} as const;

export class CapRequestError extends Error {
  constructor(
    readonly statusCode: 403 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

export interface ExposureOperator {
  id: number;
  roles: readonly OperatorRole[];
}

const toCap = (row: Pick<CapRow, 'scope' | 'subject' | 'kind' | 'value'>): ConcentrationCap => ({
  scope: row.scope,
  subject: row.subject,
  kind: row.kind,
  value: parseMoney(row.value),
});

function capView(row: CapRow): CapView {
  return {
    id: row.id,
    scope: row.scope,
    company_id: row.company_id,
    group: row.group_name,
    subject: row.subject,
    kind: row.kind,
    value: formatMoneyAmount(parseMoney(row.value)),
    limit_text: capLimitText(toCap(row)),
    status: row.status,
    status_label: CAP_STATUS_LABELS[row.status],
    proposed_by: row.proposed_by,
    proposed_by_username: row.proposed_by_username,
    proposed_at: new Date(row.proposed_at).toISOString(),
    decided_by: row.decided_by,
    decided_by_username: row.decided_by_username,
    decided_at: row.decided_at === null ? null : new Date(row.decided_at).toISOString(),
  };
}

/** GET operator/exposure/caps/: the caps proposed and in force. */
export async function listCaps(db: Db): Promise<CapView[]> {
  return (await currentCaps(db)).map(capView);
}

/** What the machine moves the cap to, or the refusal. */
function decide(
  cap: { status: CapStatus | null; proposerId: number | null },
  event: ConcentrationCapEvent,
): CapStatus {
  const next = nextCapStatus(cap, event);
  if (next === null) throw new CapRequestError(409, CAP_REFUSALS.notNow);
  return next;
}

async function subjectOf(trx: Db, body: ProposeCapBody): Promise<CapSubject> {
  if (body.scope === 'group') {
    const group = (body.group ?? '').trim();
    const member = await trx
      .selectFrom('companies')
      .select('id')
      .where('economic_group', '=', group)
      .executeTakeFirst();
    if (!member) throw new CapRequestError(409, CAP_REFUSALS.groupUnknown);
    return { scope: 'group', group };
  }
  const company = await trx
    .selectFrom('companies')
    .select(['id', 'is_corporate'])
    .where('id', '=', body.company_id ?? 0)
    .executeTakeFirst();
  if (!company) throw new CapRequestError(404, CAP_REFUSALS.companyNotFound);
  if (body.scope === 'buyer' && !company.is_corporate)
    throw new CapRequestError(409, CAP_REFUSALS.notCorporate);
  return { scope: body.scope, companyId: company.id };
}

/** POST operator/exposure/caps/: a cap waiting for a different aprobador. */
export async function proposeCap(
  trx: Db,
  operator: ExposureOperator,
  body: ProposeCapBody,
): Promise<CallOutcome> {
  decide(
    { status: null, proposerId: null },
    { type: 'cap.propose', actor: { userId: operator.id, roles: operator.roles } },
  );
  const subject = await subjectOf(trx, body);
  if (await capOfSubject(trx, subject, 'propuesto'))
    throw new CapRequestError(409, CAP_REFUSALS.alreadyPending);
  const id = await insertCap(trx, {
    subject,
    kind: body.kind,
    value: formatMoneyAmount(parseMoney(body.value)),
    proposedBy: operator.id,
  });
  const row = await findCap(trx, id);
  return { statusCode: 201, body: capView(row as CapRow) };
}

async function lockedCap(trx: Db, id: number): Promise<CapRow> {
  const row = await findCap(trx, id, { lock: true });
  if (!row) throw new CapRequestError(404, CAP_REFUSALS.notFound);
  return row;
}

function subjectOfRow(row: CapRow): CapSubject {
  return row.scope === 'group'
    ? { scope: 'group', group: row.group_name ?? '' }
    : { scope: row.scope as Exclude<CapScope, 'group'>, companyId: row.company_id ?? 0 };
}

/**
 * POST operator/exposure/caps/{id}/approve/: the proposal takes effect when the approver is not its proposer
 * (four eyes, also a CHECK in migration 025); the cap in force on the same subject is replaced. Reservations
 * already made stay (decision 0069): the desk's 'Concentración' check holds them while they exceed the new cap.
 */
export async function approveCap(trx: Db, operator: ExposureOperator, id: number): Promise<CallOutcome> {
  const row = await lockedCap(trx, id);
  const actor = { userId: operator.id, roles: operator.roles };
  if (row.status === 'propuesto' && row.proposed_by === operator.id && operator.roles.includes('aprobador'))
    throw new CapRequestError(403, CAP_REFUSALS.selfApproval);
  const status = decide({ status: row.status, proposerId: row.proposed_by }, { type: 'cap.approve', actor });
  const previous = await capOfSubject(trx, subjectOfRow(row), 'vigente');
  if (previous) {
    decide({ status: 'vigente', proposerId: null }, { type: 'cap.supersede' });
    await setCapStatus(trx, previous.id, 'reemplazado', null);
  }
  await setCapStatus(trx, row.id, status, operator.id);
  return { statusCode: 200, body: capView((await findCap(trx, id)) as CapRow) };
}

/** POST operator/exposure/caps/{id}/reject/: an aprobador turns the proposal down. */
export async function rejectCap(trx: Db, operator: ExposureOperator, id: number): Promise<CallOutcome> {
  const row = await lockedCap(trx, id);
  const status = decide(
    { status: row.status, proposerId: row.proposed_by },
    { type: 'cap.reject', actor: { userId: operator.id, roles: operator.roles } },
  );
  await setCapStatus(trx, row.id, status, operator.id);
  return { statusCode: 200, body: capView((await findCap(trx, id)) as CapRow) };
}

/**
 * The first cap an advance of `amount` from `buyerId`'s invoice of `supplierId` would exceed, as its Spanish
 * sentence, or null. Called by the programme ledger's reservation inside its transaction, after the programme's
 * lock: the caps in force on the buyer, its group and the supplier are locked first (in id order), so
 * concurrent advances under one cap queue on its row and each reads the exposure the previous one committed.
 * `advance` 0 weighs what is already reserved (the desk).
 */
export async function concentrationRefusal(
  trx: Db,
  advance: { buyerId: number; supplierId: number; amount: Centavos },
): Promise<string | null> {
  const { caps, group } = await lockCapsOfAdvance(trx, advance.buyerId, advance.supplierId);
  if (caps.length === 0) return null;
  const exposure = await exposureOf(trx, { buyerId: advance.buyerId, supplierId: advance.supplierId, group });
  for (const row of caps) {
    const subjectExposure =
      row.scope === 'buyer' ? exposure.buyer : row.scope === 'group' ? exposure.group : exposure.supplier;
    const breach = capBreach(toCap(row), {
      exposure: subjectExposure,
      total: exposure.total,
      advance: advance.amount,
    });
    if (breach !== null) return breach;
  }
  return null;
}

/**
 * The desk's view of the caps (no lock: it only reads): for each invoice on the desk, the sentences of the
 * caps its buyer, group or supplier exceed now, its own reservation counted (or its amount, when it holds none).
 */
export async function concentrationBreaches(
  db: Db,
  advances: readonly { invoiceId: number; buyerId: number; supplierId: number; unreserved: Centavos }[],
): Promise<Map<number, string[]>> {
  const result = new Map<number, string[]>();
  if (advances.length === 0) return result;
  const inForce = (await currentCaps(db)).filter((row) => row.status === 'vigente');
  if (inForce.length === 0) return result;
  const pairs = await pairExposures(db);
  const names = await companiesById(db, [
    ...pairs.map((pair) => pair.buyerId),
    ...advances.map((item) => item.buyerId),
  ]);
  const groupOf = (buyerId: number) => names.get(buyerId)?.economicGroup ?? null;
  const sums = {
    buyer: new Map<number, Centavos>(),
    group: new Map<string, Centavos>(),
    supplier: new Map<number, Centavos>(),
  };
  let total = 0;
  const add = <K>(map: Map<K, Centavos>, key: K, amount: Centavos) =>
    map.set(key, (map.get(key) ?? 0) + amount);
  for (const pair of pairs) {
    const amount = pair.outstanding + pair.reserved;
    total += amount;
    add(sums.buyer, pair.buyerId, amount);
    add(sums.supplier, pair.supplierId, amount);
    const group = groupOf(pair.buyerId);
    if (group !== null) add(sums.group, group, amount);
  }
  for (const item of advances) {
    const group = groupOf(item.buyerId);
    const breaches: string[] = [];
    for (const row of inForce) {
      const exposure =
        row.scope === 'buyer' && row.company_id === item.buyerId
          ? (sums.buyer.get(item.buyerId) ?? 0)
          : row.scope === 'supplier' && row.company_id === item.supplierId
            ? (sums.supplier.get(item.supplierId) ?? 0)
            : row.scope === 'group' && group !== null && row.group_name === group
              ? (sums.group.get(group) ?? 0)
              : null;
      if (exposure === null) continue;
      const breach = capBreach(toCap(row), { exposure, total, advance: item.unreserved });
      if (breach !== null) breaches.push(breach);
    }
    if (breaches.length > 0) result.set(item.invoiceId, breaches);
  }
  return result;
}

/** GET operator/exposure/: the book by buyer, group and supplier, the programmes, the ladder and the caps. */
export async function exposureReport(db: Db, today: IsoDate): Promise<ExposureAnswer> {
  const [pairs, ladderRows, caps, programmes] = await Promise.all([
    pairExposures(db),
    outstandingByDueDate(db),
    currentCaps(db),
    db
      .selectFrom('credit_programmes as p')
      .innerJoin('companies as c', 'c.id', 'p.corporate_id')
      .select(['p.id', 'p.corporate_id', 'c.name', 'p.state', 'p.limit_amount', 'p.reserved', 'p.used'])
      .orderBy('c.name')
      .execute(),
  ]);
  const names = await companiesById(db, [...pairs.flatMap((pair) => [pair.buyerId, pair.supplierId])]);
  const inForce = caps.filter((row) => row.status === 'vigente');
  const capFor = (scope: CapScope, key: number | string) =>
    inForce.find(
      (row) => row.scope === scope && (scope === 'group' ? row.group_name : row.company_id) === key,
    ) ?? null;

  type Sum = { outstanding: Centavos; reserved: Centavos };
  const buyers = new Map<number, Sum>();
  const groups = new Map<string, Sum>();
  const suppliers = new Map<number, Sum>();
  const add = <K>(map: Map<K, Sum>, key: K, pair: Sum) => {
    const sum = map.get(key) ?? { outstanding: 0, reserved: 0 };
    sum.outstanding += pair.outstanding;
    sum.reserved += pair.reserved;
    map.set(key, sum);
  };
  let totalOutstanding = 0;
  let totalReserved = 0;
  for (const pair of pairs) {
    totalOutstanding += pair.outstanding;
    totalReserved += pair.reserved;
    add(buyers, pair.buyerId, pair);
    add(suppliers, pair.supplierId, pair);
    const group = names.get(pair.buyerId)?.economicGroup ?? null;
    if (group !== null) add(groups, group, pair);
  }
  const total = totalOutstanding + totalReserved;
  const row = (
    scope: CapScope,
    key: number | string,
    name: string,
    sum: Sum,
    extra: Partial<ExposureRow> = {},
  ): ExposureRow => {
    const exposure = sum.outstanding + sum.reserved;
    const cap = capFor(scope, key);
    const capValue = cap === null ? null : toCap(cap);
    return {
      company_id: typeof key === 'number' ? key : null,
      name,
      ...extra,
      outstanding: formatMoneyAmount(sum.outstanding),
      reserved: formatMoneyAmount(sum.reserved),
      exposure: formatMoneyAmount(exposure),
      share_percentage: shareHundredths(exposure, total) / 100,
      cap:
        cap === null || capValue === null
          ? null
          : {
              id: cap.id,
              kind: cap.kind,
              value: formatMoneyAmount(capValue.value),
              limit_text: capLimitText(capValue),
              utilisation_percentage: capUtilisation(capValue, exposure, total),
              room: formatMoneyAmount(Math.min(capRoom(capValue, exposure, total), 99_999_999_999_999)),
              exceeded: capBreach(capValue, { exposure, total, advance: 0 }) !== null,
            },
    };
  };
  const byExposure = (a: ExposureRow, b: ExposureRow) =>
    parseMoney(b.exposure) - parseMoney(a.exposure) || a.name.localeCompare(b.name, 'es');
  const ladder = new Map(LADDER_BUCKETS.map((bucket) => [bucket, { outstanding: 0, invoices: 0 }]));
  for (const rung of ladderRows) {
    const sum = ladder.get(ladderBucket(daysBetween(today, rung.dueOn)));
    if (!sum) continue;
    sum.outstanding += rung.outstanding;
    sum.invoices += rung.invoices;
  }
  return {
    as_of: today,
    total_outstanding: formatMoneyAmount(totalOutstanding),
    total_reserved: formatMoneyAmount(totalReserved),
    total_exposure: formatMoneyAmount(total),
    buyers: [...buyers]
      .map(([id, sum]) =>
        row('buyer', id, names.get(id)?.name ?? String(id), sum, {
          group: names.get(id)?.economicGroup ?? null,
        }),
      )
      .sort(byExposure),
    groups: [...groups].map(([group, sum]) => row('group', group, group, sum)).sort(byExposure),
    suppliers: [...suppliers]
      .map(([id, sum]) => row('supplier', id, names.get(id)?.name ?? String(id), sum))
      .sort(byExposure),
    programmes: programmes.map((programme) => {
      const limit = parseMoney(programme.limit_amount);
      const inUse = parseMoney(programme.reserved) + parseMoney(programme.used);
      return {
        programme_id: programme.id,
        corporate_id: programme.corporate_id,
        corporate_name: programme.name,
        state: programme.state,
        limit: formatMoneyAmount(limit),
        reserved: formatMoneyAmount(parseMoney(programme.reserved)),
        used: formatMoneyAmount(parseMoney(programme.used)),
        utilisation_percentage: limit <= 0 ? 0 : Math.round((inUse * 10_000) / limit) / 100,
      };
    }),
    ladder: LADDER_BUCKETS.map((bucket) => ({
      bucket,
      label: LADDER_BUCKET_LABELS[bucket],
      outstanding: formatMoneyAmount(ladder.get(bucket)?.outstanding ?? 0),
      invoices: ladder.get(bucket)?.invoices ?? 0,
    })),
  };
}

/** POST operator/corporates/{id}/economic-group/: the group's name on the corporate's file (blank clears it). */
export async function saveEconomicGroup(
  trx: Db,
  corporateId: number,
  group: string | null,
): Promise<CallOutcome> {
  const corporate = await trx
    .selectFrom('companies')
    .select(['id', 'is_corporate'])
    .where('id', '=', corporateId)
    .forUpdate()
    .executeTakeFirst();
  if (!corporate?.is_corporate) throw new CapRequestError(404, CORPORATE_MESSAGES.notFound);
  const clean = group === null || group.trim() === '' ? null : group.trim().replace(/\s+/g, ' ');
  await setEconomicGroup(trx, corporateId, clean);
  return { statusCode: 200, body: { id: corporateId, economic_group: clean } };
}
