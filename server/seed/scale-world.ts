import { type RawBuilder, sql } from 'kysely';
import type { IsoDate } from '../../src/domain/calendar-date';
import { InvoiceStatus, type InvoiceStatusCode } from '../../src/domain/invoice-status';
import { MAX_PAYMENT_DAYS } from '../../src/domain/payment-date';
import { rfcCheckDigit } from '../../src/domain/rfc';
import { SatStatus } from '../../src/domain/sat-status';
import { buildCfdiXml } from '../cfdi/build-cfdi';
import type { DemoAuthority } from '../cfdi/demo-authority';
import type { Db } from '../db/database';
import { inTransaction } from '../db/transaction';
import { businessDate } from '../http/business-date';
import { seedActiveProgrammes } from '../modules/credit-programmes/programme-seed';
import { type CfdiAuthenticity, demoAuthorityOf } from '../modules/sat/cfdi-authenticity';
import { DEMO_CORPORATE, DEMO_DESCRIPTIONS, seedDemoWorld } from './demo-world';
import { type LifecyclePath, lifecyclePaths } from './lifecycle-paths';

// `npm run ops -- demo:scale`: a world of realistic size on top of the demo (issue 16). The rows are written
// with server-side INSERT … SELECT generate_series in batches, not through the API: 100,000 invoices through
// the lifecycle service one by one would take hours. Every history is a walk the lifecycle machine accepts
// (lifecycle-paths.ts), so the audit trail is exactly what the machine would have produced.

export const SCALE_SEED = 'scale-world-v1';
export const DEFAULT_SCALE_PROVIDERS = 200;
export const DEFAULT_SCALE_CORPORATES = 20;
export const MAX_SCALE_INVOICES = 1_000_000;
export const MAX_SCALE_PROVIDERS = 1_000;
export const MAX_SCALE_CORPORATES = 200;

/** The generated suppliers share this many invoices per invoice of the demo supplier. */
const OTHER_SUPPLIERS_SHARE = 0.25;
/** Invoices per INSERT statement (and transaction). */
const BATCH_SIZE = 5_000;
/** The histories span this many days back from yesterday (24 months). */
const SPAN_DAYS = 730;
/** Longest generated history (events after the import). */
const MAX_PATH_STEPS = 4;
/** Of 100 invoices, this many are in dollars. */
const USD_PERCENT = 15;
const WHEEL = 1_000;
const BUYER_WHEEL = 100;
/** Payment dates set by an authorization: 30 to 120 days after emission (the machine allows 150). */
const MIN_PAYMENT_DAYS = 30;
const PAYMENT_DAYS_SPREAD = 91;
// Subtotals, log-uniform between these amounts in centavos (MXN 5,000.00 – 2,500,000.00; USD 300 – 150,000).
const MXN_SUBTOTAL = { min: 500_000, ratio: 500 };
const USD_SUBTOTAL = { min: 30_000, ratio: 500 };
// An invoice older than the 150-day window is mostly settled; a recent one mostly open.
const RECENT_DAYS = MAX_PAYMENT_DAYS;
const STATUS_WEIGHTS: Record<'recent' | 'old', Record<InvoiceStatusCode, number>> = {
  recent: {
    [InvoiceStatus.AVAILABLE]: 260,
    [InvoiceStatus.PENDING]: 120,
    [InvoiceStatus.APPROVED]: 120,
    [InvoiceStatus.PROCESS]: 60,
    [InvoiceStatus.PAID]: 250,
    [InvoiceStatus.FACTORING]: 60,
    [InvoiceStatus.REJECTED]: 70,
    [InvoiceStatus.DISABLED]: 60,
  },
  old: {
    [InvoiceStatus.AVAILABLE]: 60,
    [InvoiceStatus.PENDING]: 20,
    [InvoiceStatus.APPROVED]: 30,
    [InvoiceStatus.PROCESS]: 10,
    [InvoiceStatus.PAID]: 600,
    [InvoiceStatus.FACTORING]: 120,
    [InvoiceStatus.REJECTED]: 100,
    [InvoiceStatus.DISABLED]: 60,
  },
};
// Share of the demo supplier's invoices received by the demo corporate (the rest: the generated buyers).
const DEMO_CORPORATE_SHARE = 40;
const OTHER_SUPPLIER_DEMO_SHARE = 50;

// The demo world's descriptions and more, so a search word hits a realistic share of a large supplier's invoices.
const DESCRIPTIONS = [
  ...DEMO_DESCRIPTIONS,
  'Mantenimiento preventivo de línea de envasado',
  'Materia prima: harina de trigo a granel',
  'Servicio de limpieza industrial',
  'Refacciones para bandas transportadoras',
  'Consultoría en inocuidad alimentaria',
  'Envases PET de 600 ml',
  'Servicio de vigilancia mensual',
  'Arrendamiento de bodega refrigerada',
];
/**
 * A description given to about one invoice in 10,007 instead of one of DESCRIPTIONS, so a search of RARE_WORD
 * finds a handful among 100,000 (issue 35's "a rare word"; the other words are each in about 6 % of them).
 */
export const RARE_DESCRIPTION = 'Reparación de compresores de refrigeración';
export const RARE_WORD = 'compresores';
const RARE_EVERY = 10_007;
const REJECT_REASONS: Record<string, string> = {
  'invoice.reject': 'Sin presupuesto este mes',
  'invoice.rejectQuotation': 'Cotización retirada por el comprador',
};
const NAME_HEADS = [
  'Comercializadora',
  'Distribuidora',
  'Servicios',
  'Transportes',
  'Manufacturas',
  'Industrias',
  'Soluciones',
  'Logística',
  'Abastecedora',
  'Empaques',
];
const NAME_TAILS = [
  'del Norte',
  'del Pacífico',
  'del Golfo',
  'del Centro',
  'Peninsular',
  'de Occidente',
  'del Sureste',
  'del Valle',
  'Metropolitana',
  'de la Laguna',
  'Bajío',
  'Huasteca',
];
const CORPORATE_HEADS = ['Grupo', 'Corporativo', 'Consorcio', 'Alimentos', 'Cadena Comercial'];
const CORPORATE_TAILS = [
  'Azteca',
  'Mexicano',
  'del Río',
  'Sierra Alta',
  'Tres Valles',
  'Costa Azul',
  'Monarca',
];
const LEGAL_SUFFIX = ', S.A. de C.V.';
// Letters of RFCs come from the name; these words are skipped as SAT does for a persona moral.
const RFC_SKIPPED_WORDS = new Set(['DEL', 'DE', 'LA', 'EL', 'Y']);

export interface ScaleOptions {
  invoices: number;
  providers?: number;
  corporates?: number;
  today?: IsoDate;
  /** Signs the demo world and the template XML (its copies are not re-signed: they stay 'sin verificar'). */
  authenticity: CfdiAuthenticity;
  /** Progress lines (batches done). */
  progress?: (line: string) => void;
}

export interface ScaleResult {
  invoices: number;
  events: number;
  companies: number;
  alliances: number;
  /** Invoices that were already there (a second run adds nothing). */
  skipped: number;
  seconds: number;
}

interface GeneratedCompany {
  rfc: string;
  name: string;
}

function rfcLetters(name: string): string {
  const words = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z ]/g, ' ')
    .split(/\s+/)
    .filter((word) => word !== '' && !RFC_SKIPPED_WORDS.has(word) && word !== 'SA' && word !== 'CV');
  return words
    .map((word) => word[0])
    .join('')
    .padEnd(3, 'X')
    .slice(0, 3);
}

/** A valid persona-moral RFC for a generated company: its name's initials, a date and a homoclave, with SAT's check digit. */
function generatedRfc(name: string, date: Date, homoclave: string): string {
  const yymmdd = date.toISOString().slice(2, 10).replaceAll('-', '');
  const body = `${rfcLetters(name)}${yymmdd}${homoclave}`;
  return `${body}${rfcCheckDigit(body)}`;
}

/**
 * The generated companies: names from word lists, RFCs unique by construction (the founding date differs per
 * index; providers' homoclaves start with S, corporates' with K, neither used by the demo).
 */
export function generatedCompanies(kind: 'provider' | 'corporate', count: number): GeneratedCompany[] {
  const [heads, tails, since, stride, mark] =
    kind === 'provider'
      ? [NAME_HEADS, NAME_TAILS, Date.UTC(1990, 0, 1), 7, 'S']
      : [CORPORATE_HEADS, CORPORATE_TAILS, Date.UTC(1970, 0, 1), 13, 'K'];
  return Array.from({ length: count }, (_, i) => {
    const base = `${heads[i % heads.length]} ${tails[Math.floor(i / heads.length) % tails.length]}`;
    const round = Math.floor(i / (heads.length * tails.length));
    const name = `${base}${round > 0 ? ` ${round + 1}` : ''}${LEGAL_SUFFIX}`;
    const founded = new Date(since + i * stride * 86_400_000);
    return { rfc: generatedRfc(name, founded, `${mark}${i % 10}`), name };
  });
}

/** A wheel of WHEEL statuses in the given proportions: status = wheel[hash % WHEEL]. */
function statusWheel(weights: Record<InvoiceStatusCode, number>): number[] {
  const wheel = Object.entries(weights).flatMap(([status, weight]) =>
    Array.from({ length: weight }, () => Number(status)),
  );
  if (wheel.length !== WHEEL) throw new Error(`status weights must add up to ${WHEEL}`);
  return wheel;
}

/** A wheel of BUYER_WHEEL company ids: `share` % for the first, the rest spread evenly over the others. */
function buyerWheel(first: number, others: readonly number[], share: number): number[] {
  if (others.length === 0) return Array.from({ length: BUYER_WHEEL }, () => first);
  return Array.from({ length: BUYER_WHEEL }, (_, i) =>
    i < share ? first : (others[(i - share) % others.length] as number),
  );
}

// Sentinels written into one CFDI built by buildCfdiXml and replaced per row in SQL: the stored XML has the
// builder's exact shape, but its copies' seals no longer match their text, so they are stored 'unverified'
// (sin verificar) and are never financed: the scaled world is for lists and reports (decision 0056).
const XML_SENTINELS = {
  uuid: 'ABCDEF01-2345-4678-89AB-CDEF01234567',
  issuedAt: '2011-11-11T11:11:11',
  stampedAt: '2011-11-11T11:12:11',
  serie: 'SERIE@',
  folio: 'FOLIO@',
  issuerRfc: 'EMIS@RFC@@@1',
  issuerName: 'EMISOR@NOMBRE',
  receiverRfc: 'RECP@RFC@@@1',
  receiverName: 'RECEPTOR@NOMBRE',
  subtotal: '111111.11',
  tax: '17777.78',
  total: '128888.89',
  exchangeRate: '99.9999',
  description: 'DESCRIPCION@',
};

function xmlTemplate(currency: 'MXN' | 'USD', authority: DemoAuthority): string {
  const s = XML_SENTINELS;
  return buildCfdiXml(
    {
      serie: s.serie,
      folio: s.folio,
      issuedAt: s.issuedAt,
      issuer: { rfc: s.issuerRfc, name: s.issuerName, taxRegime: '601' },
      receiver: { rfc: s.receiverRfc, name: s.receiverName, taxRegime: '601' },
      subtotal: s.subtotal,
      currency,
      exchangeRate: currency === 'USD' ? s.exchangeRate : undefined,
      paymentMethod: 'PPD',
      description: s.description,
    },
    authority,
  ).replace(/ UUID="[^"]+"/, ` UUID="${s.uuid}"`);
}

/**
 * The template as one SQL concatenation: its fixed text between the sentinels as parameters, each sentinel
 * replaced by its row's expression (one pass, where nested replace() calls would scan the whole XML per field).
 */
function xmlExpression(
  template: string,
  values: Record<keyof typeof XML_SENTINELS, RawBuilder<unknown>>,
): RawBuilder<string> {
  const byText = new Map(
    (Object.keys(XML_SENTINELS) as (keyof typeof XML_SENTINELS)[]).map((key) => [XML_SENTINELS[key], key]),
  );
  const pattern = new RegExp(
    [...byText.keys()].map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
    'g',
  );
  const pieces: RawBuilder<unknown>[] = [];
  let at = 0;
  for (const match of template.matchAll(pattern)) {
    pieces.push(sql`${template.slice(at, match.index)}::text`);
    pieces.push(values[byText.get(match[0]) as keyof typeof XML_SENTINELS]);
    at = match.index + match[0].length;
  }
  pieces.push(sql`${template.slice(at)}::text`);
  return sql<string>`(${sql.join(pieces, sql` || `)})`;
}

const XML_UNSAFE = /[&<>"']/;

/** One supplier's share of the world: how many invoices, to which buyers, numbered how. */
interface Segment {
  key: string;
  supplier: { id: number; rfc: string; name: string };
  /** The audit trail's name and user for the supplier's own events. */
  supplierActor: { label: string; userId: number | null };
  buyers: number[];
  count: number;
  serie: string;
}

interface Plan {
  paths: LifecyclePath[];
  recentWheel: number[];
  oldWheel: number[];
  xmlMxn: string;
  xmlUsd: string;
  demoCorporate: { id: number; userId: number | null };
  today: IsoDate;
}

function planValues(plan: Plan) {
  const variants = new Map<number, number>();
  const pathRows = plan.paths.map((path, id) => {
    const variant = variants.get(path.status) ?? 0;
    variants.set(path.status, variant + 1);
    return { id, path, variant };
  });
  const paths = sql.join(
    pathRows.map(
      ({ id, path, variant }) =>
        sql`(${id}::int, ${path.status}::smallint, ${variant}::int, ${variants.get(path.status)}::int, ${path.steps.some((s) => s.dated)}::boolean, ${path.buyerFundsAdvance}::boolean, ${path.steps.length}::int)`,
    ),
  );
  const steps = sql.join(
    pathRows.flatMap(({ id, path }) =>
      path.steps.map(
        (step, index) =>
          sql`(${id}::int, ${index + 1}::int, ${step.event}::text, ${step.from}::smallint, ${step.to}::smallint, ${step.actor}::text, ${step.reasoned ? (REJECT_REASONS[step.event] ?? null) : null}::text)`,
      ),
    ),
  );
  return { paths, steps };
}

/** Inserts invoices first…last (0-based within the segment) with their audit trails; returns what was added. */
async function insertBatch(
  trx: Db,
  plan: Plan,
  segment: Segment,
  first: number,
  last: number,
): Promise<{ invoices: number; events: number }> {
  const { paths, steps } = planValues(plan);
  const seed = `${SCALE_SEED}:${segment.key}:`;
  const xmlValues: Record<keyof typeof XML_SENTINELS, RawBuilder<unknown>> = {
    uuid: sql`src.uuid`,
    issuedAt: sql`to_char(src.issued_at, 'YYYY-MM-DD"T"HH24:MI:SS')`,
    stampedAt: sql`to_char(src.issued_at + interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS')`,
    serie: sql`${segment.serie}::text`,
    folio: sql`src.folio`,
    issuerRfc: sql`${segment.supplier.rfc}::text`,
    issuerName: sql`${segment.supplier.name}::text`,
    receiverRfc: sql`src.receiver_rfc`,
    receiverName: sql`src.receiver_name`,
    subtotal: sql`(src.subtotal_c / 100.0)::numeric(18,2)::text`,
    tax: sql`(src.tax_c / 100.0)::numeric(18,2)::text`,
    total: sql`(src.total_c / 100.0)::numeric(18,2)::text`,
    exchangeRate: sql`coalesce(src.rate::text, '')`,
    description: sql`src.description`,
  };
  const { rows } = await sql<{ invoices: string | number; events: string | number }>`
    with
    plan_path (path_id, status, variant, variants, dated, buyer_funds, steps) as (values ${paths}),
    plan_step (path_id, step, event, from_status, to_status, actor_kind, reason) as (values ${steps}),
    base as (
      select g.k,
        upper(substr(h.u, 1, 8) || '-' || substr(h.u, 9, 4) || '-4' || substr(h.u, 14, 3) || '-8' || substr(h.u, 18, 3) || '-' || substr(h.u, 21, 12)) as uuid,
        ('x' || substr(h.r, 1, 7))::bit(28)::int as r1,
        ('x' || substr(h.r, 8, 7))::bit(28)::int as r2,
        ('x' || substr(h.r, 15, 7))::bit(28)::int as r3,
        ('x' || substr(h.r, 22, 7))::bit(28)::int as r4,
        ('x' || substr(h.r, 29, 4))::bit(16)::int as r5,
        (${plan.today}::date - (1 + ((${segment.count}::int - 1 - g.k) * ${SPAN_DAYS - 1}) / greatest(${segment.count}::int - 1, 1))) as emission
      from generate_series(${first}::int, ${last}::int) as g (k)
      cross join lateral (select md5(${seed}::text || g.k) as u, md5(${seed}::text || 'r' || g.k) as r) as h
    ),
    shaped as (
      select b.*,
        (case when ${plan.today}::date - b.emission <= ${RECENT_DAYS} then ${plan.recentWheel}::int[] else ${plan.oldWheel}::int[] end)[1 + b.r1 % ${WHEEL}] as status,
        (${segment.buyers}::int[])[1 + b.r4 % ${BUYER_WHEEL}] as receiver_id,
        b.r5 % 100 < ${USD_PERCENT} as usd,
        (b.emission + make_interval(mins => 480 + b.r4 % 600))::timestamp as issued_at,
        (${10_000}::int + b.k)::text as folio,
        case when b.r3 % ${RARE_EVERY} = 0 then ${RARE_DESCRIPTION}::text
          else (${DESCRIPTIONS}::text[])[1 + b.r2 % ${DESCRIPTIONS.length}] end as description
      from base as b
    ),
    priced as (
      select sh.*,
        case when sh.usd
          then round(exp(ln(${USD_SUBTOTAL.min}::float8) + (sh.r3::float8 / 268435456) * ln(${USD_SUBTOTAL.ratio}::float8)))::bigint
          else round(exp(ln(${MXN_SUBTOTAL.min}::float8) + (sh.r3::float8 / 268435456) * ln(${MXN_SUBTOTAL.ratio}::float8)))::bigint
        end as subtotal_c,
        case when sh.usd
          then (17 + ((extract(year from sh.emission)::int * 12 + extract(month from sh.emission)::int) * 7919 % 35000) / 10000.0)::numeric(10,4)
        end as rate
      from shaped as sh
    ),
    src as (
      select p.*, pp.path_id, pp.dated, pp.buyer_funds, pp.steps as m,
        round(p.subtotal_c * 0.16)::bigint as tax_c,
        p.subtotal_c + round(p.subtotal_c * 0.16)::bigint as total_c,
        (p.issued_at at time zone 'America/Mexico_City') as issued_tz,
        least(greatest(${plan.today}::date - p.emission - 1, 0) * 1440 + 600, 30 * 1440) as span_min,
        c.rfc as receiver_rfc, c.name as receiver_name
      from priced as p
      join plan_path as pp on pp.status = p.status and pp.variant = p.r2 % pp.variants
      join companies as c on c.id = p.receiver_id
    ),
    ins as (
      insert into invoices (
        cfdi_uuid, serie, folio, emitter_company_id, receiver_company_id, emitter_rfc, emitter_name,
        receiver_rfc, receiver_name, issued_at, date_of_emission, payment_date, subtotal, amount, currency,
        exchange_rate, amount_with_exchange_rate, payment_method, description, status, sat_cancelled_at,
        buyer_funds_advance, cfdi_xml, created_at, updated_at
      )
      select src.uuid, ${segment.serie}::text, src.folio, ${segment.supplier.id}::int, src.receiver_id,
        ${segment.supplier.rfc}::text, ${segment.supplier.name}::text, src.receiver_rfc, src.receiver_name, src.issued_at,
        src.emission,
        case when src.dated then src.emission + ${MIN_PAYMENT_DAYS}::int + src.r5 % ${PAYMENT_DAYS_SPREAD} end,
        src.subtotal_c / 100.0, src.total_c / 100.0, case when src.usd then 'USD' else 'MXN' end, src.rate,
        case when src.usd then round(src.total_c * src.rate) else src.total_c end / 100.0,
        'PPD', src.description, src.status,
        case when src.status = ${InvoiceStatus.DISABLED} then ts.last end,
        src.buyer_funds,
        case when src.usd then ${xmlExpression(plan.xmlUsd, xmlValues)} else ${xmlExpression(plan.xmlMxn, xmlValues)} end,
        ts.first, ts.last
      from src
      cross join lateral (
        select
          least(src.issued_tz + interval '1 minute', now() - make_interval(mins => src.m + 1)) as first,
          least(src.issued_tz + make_interval(mins => 1 + src.m * src.span_min / (src.m + 1)), now() - interval '1 minute') as last
      ) as ts
      on conflict (cfdi_uuid) do nothing
      returning id, cfdi_uuid
    ),
    ev as (
      insert into invoice_events (invoice_id, event, from_status, to_status, actor_user_id, actor, reason, at)
      select ins.id, e.event, e.from_status, e.to_status, e.actor_user_id, e.actor, e.reason, e.event_at
      from ins
      join src on src.uuid = ins.cfdi_uuid
      cross join lateral (
        select 0 as step, 'invoice.imported' as event, null::smallint as from_status,
          ${InvoiceStatus.AVAILABLE}::smallint as to_status, null::int as actor_user_id,
          'sincronización SAT' as actor, ${segment.supplier.rfc}::text || '-' || src.folio || '.xml' as reason,
          least(src.issued_tz + interval '1 minute', now() - make_interval(mins => src.m + 1)) as event_at
        union all
        select ps.step, ps.event, ps.from_status, ps.to_status,
          case ps.actor_kind
            when 'provider' then ${segment.supplierActor.userId}::int
            when 'corporate' then case when src.receiver_id = ${plan.demoCorporate.id} then ${plan.demoCorporate.userId}::int end
          end,
          case ps.actor_kind
            when 'provider' then ${segment.supplierActor.label}::text
            when 'corporate' then case when src.receiver_id = ${plan.demoCorporate.id} then 'corporativo.demo' else 'corporativo ' || src.receiver_id end
            when 'operator' then 'operador Flujo'
            else 'SAT'
          end,
          ps.reason,
          least(src.issued_tz + make_interval(mins => 1 + ps.step * src.span_min / (src.m + 1)), now() - make_interval(mins => src.m - ps.step + 1))
        from plan_step as ps
        where ps.path_id = src.path_id
      ) as e
      order by ins.id, e.step
      returning 1
    )
    select (select count(*) from ins) as invoices, (select count(*) from ev) as events`.execute(trx);
  const row = rows[0];
  return { invoices: Number(row?.invoices ?? 0), events: Number(row?.events ?? 0) };
}

async function upsertCompanies(
  db: Db,
  companies: readonly GeneratedCompany[],
  corporate: boolean,
): Promise<{ ids: number[]; added: number }> {
  if (companies.length === 0) return { ids: [], added: 0 };
  const inserted = await db
    .insertInto('companies')
    .values(
      companies.map((company) => ({
        rfc: company.rfc,
        name: company.name,
        is_corporate: corporate,
        sat_status: SatStatus.AUTHORIZED,
        ...(corporate ? { credit_line: '50000000.00' } : {}),
      })),
    )
    .onConflict((oc) => oc.column('rfc').doNothing())
    .returning('id')
    .execute();
  const rows = await db
    .selectFrom('companies')
    .select(['id', 'rfc'])
    .where(
      'rfc',
      'in',
      companies.map((c) => c.rfc),
    )
    .execute();
  const byRfc = new Map(rows.map((row) => [row.rfc, row.id]));
  return { ids: companies.map((c) => byRfc.get(c.rfc) as number), added: inserted.length };
}

async function ensureAlliances(db: Db, pairs: readonly { corporate: number; provider: number }[]) {
  if (pairs.length === 0) return 0;
  const inserted = await db
    .insertInto('alliances')
    .values(
      pairs.map((pair, i) => ({
        corporate_id: pair.corporate,
        provider_id: pair.provider,
        // 16.00 % to 21.90 % a year, the demo's range.
        max_rate: (16 + (i % 60) / 10).toFixed(4),
      })),
    )
    .onConflict((oc) => oc.columns(['corporate_id', 'provider_id']).doNothing())
    .returning('id')
    .execute();
  return inserted.length;
}

async function userIdOf(db: Db, username: string): Promise<{ id: number; companyId: number | null }> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'company_id'])
    .where(sql`lower(username)`, '=', username)
    .executeTakeFirstOrThrow();
  return { id: row.id, companyId: row.company_id };
}

/**
 * Adds the generated world on top of the demo (loading the demo first if needed): proveedor.demo's company
 * gets `invoices` invoices over 24 months, the generated suppliers a quarter as many between them, each with
 * its history from the lifecycle machine. Invoices have deterministic folios fiscales, so a second run with
 * the same options adds nothing; a larger --invoices adds only the difference.
 */
export async function seedScaleWorld(db: Db, options: ScaleOptions): Promise<ScaleResult> {
  const started = performance.now();
  const today = options.today ?? businessDate(new Date());
  await seedDemoWorld(db, options.authenticity, today);
  const providersWanted = options.providers ?? DEFAULT_SCALE_PROVIDERS;
  const corporatesWanted = options.corporates ?? DEFAULT_SCALE_CORPORATES;

  const providerUser = await userIdOf(db, 'proveedor.demo');
  const corporateUser = await userIdOf(db, 'corporativo.demo');
  const demoSupplier = await db
    .selectFrom('companies')
    .select(['id', 'rfc', 'name'])
    .where('id', '=', providerUser.companyId as number)
    .executeTakeFirstOrThrow();
  const demoCorporate = await db
    .selectFrom('companies')
    .select(['id'])
    .where('rfc', '=', DEMO_CORPORATE.rfc)
    .executeTakeFirstOrThrow();

  const generatedProviders = generatedCompanies('provider', providersWanted);
  const generatedCorporates = generatedCompanies('corporate', corporatesWanted);
  for (const company of [...generatedProviders, ...generatedCorporates, demoSupplier]) {
    if (XML_UNSAFE.test(company.name)) throw new Error(`Name not safe for the XML template: ${company.name}`);
  }
  const { corporates, providers, companiesAdded, alliancesAdded } = await inTransaction(db, async (trx) => {
    const corp = await upsertCompanies(trx, generatedCorporates, true);
    // Room for the advances made on the scale world's invoices later (decision 0052).
    await seedActiveProgrammes(trx, corp.ids);
    const prov = await upsertCompanies(trx, generatedProviders, false);
    const pairs = [
      ...corp.ids.map((corporate) => ({ corporate, provider: demoSupplier.id })),
      ...prov.ids.flatMap((provider, p) => [
        { corporate: demoCorporate.id, provider },
        ...(corp.ids.length === 0
          ? []
          : [
              { corporate: corp.ids[p % corp.ids.length] as number, provider },
              { corporate: corp.ids[(p * 7 + 3) % corp.ids.length] as number, provider },
            ]),
      ]),
    ];
    // Two picks may name the same corporate; one alliance per pair.
    const unique = [...new Map(pairs.map((pair) => [`${pair.corporate}:${pair.provider}`, pair])).values()];
    return {
      corporates: corp.ids,
      providers: prov.ids,
      companiesAdded: corp.added + prov.added,
      alliancesAdded: await ensureAlliances(trx, unique),
    };
  });

  const plan: Plan = {
    paths: lifecyclePaths(MAX_PATH_STEPS),
    recentWheel: statusWheel(STATUS_WEIGHTS.recent),
    oldWheel: statusWheel(STATUS_WEIGHTS.old),
    xmlMxn: xmlTemplate('MXN', demoAuthorityOf(options.authenticity)),
    xmlUsd: xmlTemplate('USD', demoAuthorityOf(options.authenticity)),
    demoCorporate: { id: demoCorporate.id, userId: corporateUser.id },
    today,
  };
  const othersTotal = Math.round(options.invoices * OTHER_SUPPLIERS_SHARE);
  const segments: Segment[] = [
    {
      key: demoSupplier.rfc as string,
      supplier: { id: demoSupplier.id, rfc: demoSupplier.rfc as string, name: demoSupplier.name },
      supplierActor: { label: 'proveedor.demo', userId: providerUser.id },
      buyers: buyerWheel(demoCorporate.id, corporates, DEMO_CORPORATE_SHARE),
      count: options.invoices,
      serie: 'B',
    },
    ...providers.map((id, p) => {
      const company = generatedProviders[p] as GeneratedCompany;
      const allies =
        corporates.length === 0
          ? []
          : [
              corporates[p % corporates.length] as number,
              corporates[(p * 7 + 3) % corporates.length] as number,
            ];
      return {
        key: company.rfc,
        supplier: { id, rfc: company.rfc, name: company.name },
        supplierActor: { label: `proveedor ${id}`, userId: null },
        buyers: buyerWheel(demoCorporate.id, allies, OTHER_SUPPLIER_DEMO_SHARE),
        count: Math.floor(othersTotal / providers.length) + (p < othersTotal % providers.length ? 1 : 0),
        serie: 'F',
      };
    }),
  ];

  let invoices = 0;
  let events = 0;
  let planned = 0;
  const total = segments.reduce((sum, segment) => sum + segment.count, 0);
  for (const segment of segments) {
    for (let first = 0; first < segment.count; first += BATCH_SIZE) {
      const last = Math.min(first + BATCH_SIZE, segment.count) - 1;
      const added = await inTransaction(db, async (trx) => {
        // The trigram indexes take new rows into their pending list and merge it when it outgrows this limit:
        // larger batches merge less often (the VACUUM below merges the rest).
        await sql`set local gin_pending_list_limit = '64MB'`.execute(trx);
        return insertBatch(trx, plan, segment, first, last);
      });
      invoices += added.invoices;
      events += added.events;
      planned += last - first + 1;
      if (segment.count > BATCH_SIZE) options.progress?.(`${planned}/${total} facturas revisadas`);
    }
  }
  // Fresh statistics and visibility map at once: the lists' index-only scans skip the heap only for pages
  // VACUUM has marked all-visible, and PGlite runs no autovacuum at all.
  if (invoices > 0)
    await sql`vacuum analyze invoices, invoice_events, invoice_totals, invoice_words, companies, alliances`.execute(
      db,
    );
  return {
    invoices,
    events,
    companies: companiesAdded,
    alliances: alliancesAdded,
    skipped: total - invoices,
    seconds: (performance.now() - started) / 1000,
  };
}
