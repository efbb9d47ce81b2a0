import dayjs from 'dayjs';
import { daysBetween, type IsoDate } from '../../src/domain/calendar-date';
import { InvoiceStatus, type InvoiceStatusCode, PROVIDER_STATUSES } from '../../src/domain/invoice-status';
import { MAX_PAYMENT_DAYS } from '../../src/domain/payment-date';
import { Period, periodToDateRange } from '../../src/domain/period';
import { SatStatus } from '../../src/domain/sat-status';
import type { InvoiceLifecycleEvent, LifecycleActor } from '../../src/machines/invoice-lifecycle.machine';
import { buildCfdiXml } from '../cfdi/build-cfdi';
import type { Db } from '../db/database';
import { inTransaction } from '../db/transaction';
import { businessDate } from '../http/business-date';
import { hashPassword } from '../modules/accounts/password';
import { seedActiveProgrammes } from '../modules/credit-programmes/programme-seed';
import { type ActorRecord, applyInvoiceEvent } from '../modules/invoices/lifecycle.service';
import { type CfdiAuthenticity, demoAuthorityOf } from '../modules/sat/cfdi-authenticity';
import { importCfdiFiles } from '../modules/sat/cfdi-import.service';
import { produceMonthlyStatements } from '../modules/statements/monthly-statements.service';
import { wireModules } from '../services/module-wiring';

export const DEMO_PASSWORD = 'Flujo-Demo-2026!';
export const DEMO_SEED = 'demo-world-v1';

export const DEMO_CORPORATE = { rfc: 'GAA150312K78', name: 'Grupo Altamira Alimentos, S.A. de C.V.' };
/** clabe: where Flujo deposits their advances (the control desk checks its digit). */
export const DEMO_PROVIDERS = [
  {
    rfc: 'EBA120815RTA',
    name: 'Empaques del Bajío, S.A. de C.V.',
    rate: '17.4000',
    clabe: '012180001183597198',
  },
  {
    rfc: 'TSM090220QPA',
    name: 'Transportes Sierra Madre, S.A. de C.V.',
    rate: '18.5600',
    clabe: '072180002504111121',
  },
  {
    rfc: 'SLP180506HM9',
    name: 'Servicios Logísticos Peninsulares, S.A. de C.V.',
    rate: '19.7200',
    clabe: '014180006554321006',
  },
] as const;

const INVOICES_PER_PROVIDER = 16;
export const DEMO_DESCRIPTIONS = [
  'Suministro de cajas de cartón corrugado',
  'Flete terrestre Guadalajara - Monterrey',
  'Servicio de almacenaje y maniobras',
  'Etiquetas autoadheribles impresas',
  'Renta de montacargas',
  'Tarimas de madera tratada',
  'Distribución de última milla',
  'Película estirable para embalaje',
];

// The oldest demo invoice is issued at most this many days ago, so an approved one can still be
// paid in the future under the 150-day rule (spec §9).
const MAX_DEMO_AGE_DAYS = MAX_PAYMENT_DAYS - 1;
// The newest demo invoice is issued yesterday: a CFDI issued today at DEMO_ISSUE_TIME would carry a
// Fecha in the future whenever the seed runs earlier in the day.
const MIN_DEMO_AGE_DAYS = 1;
// Wall-clock time (Mexico City) on every demo CFDI's Fecha.
const DEMO_ISSUE_TIME = '10:15:00';

/** One demo invoice as laid out for a business day. */
export interface DemoInvoice {
  provider: (typeof DEMO_PROVIDERS)[number];
  /** 0 … INVOICES_PER_PROVIDER − 1 within its provider, newest first. */
  index: number;
  folio: string;
  issuedOn: IsoDate;
  currency: 'MXN' | 'USD';
  status: InvoiceStatusCode;
}

/**
 * Where the demo invoices sit on `today`: spread evenly, newest first, from yesterday back to the
 * first day of the spec's oldest period option (FOUR_MONTHS_AGO), so every one matches a period
 * filter and none is issued after the seed runs. Each provider has every status twice, once in MXN
 * and once in USD.
 */
export function demoInvoiceLayout(today: IsoDate): DemoInvoice[] {
  const oldest = periodToDateRange(Period.FOUR_MONTHS_AGO, today).from;
  const maxAge = Math.min(daysBetween(oldest, today), MAX_DEMO_AGE_DAYS);
  const window = maxAge - MIN_DEMO_AGE_DAYS;
  const last = INVOICES_PER_PROVIDER * DEMO_PROVIDERS.length - 1;
  return DEMO_PROVIDERS.flatMap((provider, p) =>
    Array.from({ length: INVOICES_PER_PROVIDER }, (_, index) => {
      const position = index * DEMO_PROVIDERS.length + p;
      // Every status of spec §4 for every provider, so each demo login sees the whole lifecycle; the
      // second round through the statuses swaps currencies, so each status gets one of each.
      const round = Math.floor(index / PROVIDER_STATUSES.length);
      return {
        provider,
        index,
        folio: String(1000 + index),
        issuedOn: dayjs(today)
          .subtract(MIN_DEMO_AGE_DAYS + Math.floor((position * window) / last), 'day')
          .format('YYYY-MM-DD'),
        currency: (index + round) % 2 === 1 ? 'USD' : 'MXN',
        status: PROVIDER_STATUSES[index % PROVIDER_STATUSES.length]!,
      };
    }),
  );
}

export interface SeedResult {
  created: boolean;
  summary: string;
}

/**
 * Loads the demo world once: a corporate buyer, three allied providers, two demo logins, and invoices
 * imported as CFDI 4.0 XML through the real importer, then walked to every status by the lifecycle machine.
 * One transaction: a failure leaves nothing behind, and the seeds row makes a second start a no-op.
 */
export async function seedDemoWorld(
  db: Db,
  authenticity: CfdiAuthenticity,
  today = businessDate(new Date()),
): Promise<SeedResult> {
  wireModules();
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return inTransaction(db, async (trx) => {
    const claimed = await trx
      .insertInto('seeds')
      .values({ name: DEMO_SEED })
      .onConflict((oc) => oc.column('name').doNothing())
      .returning('name')
      .executeTakeFirst();
    if (!claimed) return { created: false, summary: '' };

    const corporate = await trx
      .insertInto('companies')
      .values({
        rfc: DEMO_CORPORATE.rfc,
        name: DEMO_CORPORATE.name,
        is_corporate: true,
        sat_status: SatStatus.AUTHORIZED,
        credit_line: '25000000.00',
        disbursement_clabe: '002010077777777771',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Its credit programme, before any advance below reserves against it (decision 0052).
    await seedActiveProgrammes(trx, [corporate.id]);
    const providers: { id: number; rfc: string; name: string }[] = [];
    for (const p of DEMO_PROVIDERS) {
      const row = await trx
        .insertInto('companies')
        .values({
          rfc: p.rfc,
          name: p.name,
          sat_status: SatStatus.AUTHORIZED,
          wallet_clabe: '012180026050783858',
          disbursement_clabe: p.clabe,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('alliances')
        .values({ corporate_id: corporate.id, provider_id: row.id, max_rate: p.rate })
        .execute();
      providers.push({ id: row.id, rfc: p.rfc, name: p.name });
    }

    const providerUser = await insertUser(trx, passwordHash, {
      username: 'proveedor.demo',
      email: 'proveedor.demo@flujo.mx',
      first_name: 'Lucía',
      last_name: 'Hernández',
      company_id: providers[0]!.id,
    });
    const corporateUser = await insertUser(trx, passwordHash, {
      username: 'corporativo.demo',
      email: 'corporativo.demo@flujo.mx',
      first_name: 'Ricardo',
      last_name: 'Salinas',
      company_id: corporate.id,
    });

    const layout = demoInvoiceLayout(today);
    const byFileName = new Map<string, DemoInvoice>();
    const files = layout.map((invoice) => {
      const { provider, index: i, folio } = invoice;
      const p = DEMO_PROVIDERS.indexOf(provider);
      const usd = invoice.currency === 'USD';
      const name = `${provider.rfc}-${folio}.xml`;
      byFileName.set(name, invoice);
      return {
        name,
        content: buildCfdiXml(
          {
            serie: 'A',
            folio,
            issuedAt: `${invoice.issuedOn}T${DEMO_ISSUE_TIME}`,
            issuer: { rfc: provider.rfc, name: provider.name },
            receiver: { rfc: DEMO_CORPORATE.rfc, name: DEMO_CORPORATE.name },
            subtotal: usd
              ? `${(2_150 + i * 310).toFixed(2)}`
              : `${(48_500 + i * 7_325 + p * 1_190).toFixed(2)}`,
            currency: invoice.currency,
            exchangeRate: usd ? '17.2450' : undefined,
            paymentMethod: 'PPD',
            description: DEMO_DESCRIPTIONS[(i + p) % DEMO_DESCRIPTIONS.length]!,
          },
          demoAuthorityOf(authenticity),
        ),
      };
    });
    const imported = await importCfdiFiles(trx, files, {
      actorLabel: 'sincronización SAT (demo)',
      authenticity,
    });
    if (imported.rejected.length > 0) {
      throw new Error(`Demo CFDI rejected: ${JSON.stringify(imported.rejected)}`);
    }

    const provider = (companyId: number): LifecycleActor => ({
      kind: 'provider',
      companyId,
      satAuthorized: true,
    });
    const buyer: LifecycleActor = { kind: 'corporate', companyId: corporate.id, satAuthorized: true };
    const providerRecord = (companyId: number): ActorRecord =>
      companyId === providers[0]!.id
        ? { userId: providerUser, label: 'proveedor.demo' }
        : { userId: null, label: `proveedor ${companyId}` };
    const buyerRecord: ActorRecord = { userId: corporateUser, label: 'corporativo.demo' };
    const operator: ActorRecord = { userId: null, label: 'operador Flujo' };
    const sat: ActorRecord = { userId: null, label: 'SAT' };

    for (const invoice of imported.imported) {
      const row = await trx
        .selectFrom('invoices')
        .select(['emitter_company_id', 'date_of_emission'])
        .where('id', '=', invoice.id)
        .executeTakeFirstOrThrow();
      const target = byFileName.get(invoice.name)!.status;
      const paymentDate = demoPaymentDate(row.date_of_emission, today);
      const steps = pathTo(target, provider(row.emitter_company_id), buyer, paymentDate);
      for (const event of steps) {
        const record =
          event.actor.kind === 'provider'
            ? providerRecord(row.emitter_company_id)
            : event.actor.kind === 'corporate'
              ? buyerRecord
              : event.actor.kind === 'operator'
                ? operator
                : sat;
        await applyInvoiceEvent(trx, invoice.id, event, record);
      }
    }
    // Last month's statements of the demo companies (decision 0071), so 'Estados de cuenta mensuales' lists one;
    // without e-mails (nobody reads the demo's mail) and even for a quiet month.
    await produceMonthlyStatements(trx, today, {
      companies: [
        { companyId: corporate.id, role: 'corporate' },
        ...providers.map((p) => ({ companyId: p.id, role: 'provider' as const })),
      ],
      includeQuiet: true,
      mail: null,
    });
    return {
      created: true,
      summary: `1 corporate, ${providers.length} providers, ${imported.imported.length} invoices`,
    };
  });
}

async function insertUser(
  trx: Db,
  passwordHash: string,
  user: { username: string; email: string; first_name: string; last_name: string; company_id: number },
): Promise<number> {
  const row = await trx
    .insertInto('users')
    .values({ ...user, password_hash: passwordHash, mobile_phone: '5512345678', receive_notification: true })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A payment date in the future when the 150-day rule allows it, so approved demo invoices can be quoted. */
function demoPaymentDate(emission: string, today: string): string {
  const limit = dayjs(emission).add(150, 'day');
  const wanted = dayjs(today).add(30, 'day');
  return (wanted.isAfter(limit) ? limit : wanted).format('YYYY-MM-DD');
}

/** The lifecycle events that take a fresh (AVAILABLE) invoice to the target status. */
function pathTo(
  target: InvoiceStatusCode,
  provider: LifecycleActor,
  buyer: LifecycleActor,
  paymentDate: string,
): InvoiceLifecycleEvent[] {
  const operator: LifecycleActor = { kind: 'operator', companyId: null, satAuthorized: true };
  const sat: LifecycleActor = { kind: 'sat', companyId: null, satAuthorized: true };
  const request = { type: 'invoice.requestAuthorization', actor: provider } as const;
  const preAuthorize = { type: 'invoice.preAuthorize', actor: buyer, paymentDate } as const;
  const advance = { type: 'invoice.approveAdvance', actor: provider } as const;
  switch (target) {
    case InvoiceStatus.AVAILABLE:
      return [];
    case InvoiceStatus.PENDING:
      return [request];
    case InvoiceStatus.APPROVED:
      return [request, { type: 'invoice.authorize', actor: buyer, paymentDate }];
    case InvoiceStatus.REJECTED:
      return [request, { type: 'invoice.reject', actor: buyer, reason: 'Sin presupuesto este mes' }];
    case InvoiceStatus.PROCESS:
      return [preAuthorize, advance];
    case InvoiceStatus.PAID:
      return [preAuthorize, advance, { type: 'invoice.disburse', actor: operator }];
    case InvoiceStatus.FACTORING:
      return [{ type: 'invoice.transferToFactoring', actor: provider }];
    case InvoiceStatus.DISABLED:
      return [{ type: 'invoice.cancelAtSat', actor: sat }];
    default:
      return [];
  }
}
