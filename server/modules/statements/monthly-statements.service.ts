import dayjs from 'dayjs';
import ExcelJS from 'exceljs';
import { displayDate, displayDateTime, type IsoDate } from '../../../src/domain/calendar-date';
import { invoiceLabel } from '../../../src/domain/invoice-label';
import { formatMoney, formatMoneyAmount, formatMxn, parseMoney, sumMoney } from '../../../src/domain/money';
import {
  BALANCE_EFFECT,
  BALANCE_MEANINGS,
  type BalanceMovement,
  CFDI_PENDING_TEXT,
  MONTHLY_KIND_LABELS,
  MONTHLY_MOVEMENT_KINDS,
  MONTHLY_ROLE_LABELS,
  type MonthlyBalances,
  monthBounds,
  monthLabel,
  monthlyBalances,
  needsStatement,
  previousMonth,
  type StatementMonth,
} from '../../../src/domain/monthly-statements';
import { paths } from '../../../src/domain/paths';
import type { StatementRole } from '../../../src/domain/statements';
import type { Db } from '../../db/database';
import { inTransaction } from '../../db/transaction';
import { businessDate } from '../../http/business-date';
import { insertOutbox } from '../../mail/outbox.repository';
import { renderSummaryPdf, type SummarySection } from '../../pdf/summary-pdf';
import { activeUserEmails } from '../accounts/user.repository';
import {
  type AdvanceFactsRow,
  findAdvanceFacts,
  findCollectionFacts,
  findStatementCandidates,
  findStoredKinds,
  insertMonthlyStatement,
} from './monthly-statements.repository';

// Statements by day 10 (issue 34, decision 0071): the movements of a company's month as one role (supplier or
// buyer), the balances computed from them (src/domain/monthly-statements.ts), rendered as PDF (the summary
// writer every Flujo PDF uses) and XLSX (exceljs, as the statement's report), stored once and announced by
// e-mail with the link to the statement page (the outbox carries plain text, no attachments).

/** One line of a monthly statement. */
export interface MonthlyMovement extends BalanceMovement {
  invoice: string;
  invoiceUuid: string;
  counterpart: string;
  /** What the line is about, in Spanish (reference, clave de rastreo). */
  detail: string;
  /** A dollar invoice's own amount and rate, for the label next to its converted pesos. */
  foreign: { currency: 'USD'; amount: string; rate: string } | null;
  /** Commissions only: the CFDI Flujo issued for them, or CFDI_PENDING_TEXT. */
  cfdi: string | null;
}

export interface MonthlyStatementData {
  companyId: number;
  companyName: string;
  companyRfc: string | null;
  role: StatementRole;
  month: StatementMonth;
  balances: MonthlyBalances<MonthlyMovement>;
}

/** A day past the month's end, in UTC: every instant whose Mexico City business day is in the month is before. */
function searchEnd(month: StatementMonth): Date {
  return new Date(`${dayjs(monthBounds(month).last).add(2, 'day').format('YYYY-MM-DD')}T00:00:00Z`);
}

function commissionPayer(advance: AdvanceFactsRow): StatementRole {
  return advance.buyer_funds_advance ? 'corporate' : 'provider';
}

function advanceMovements(advance: AdvanceFactsRow, role: StatementRole): MonthlyMovement[] {
  const date = businessDate(new Date(advance.disbursed_at));
  const base = {
    date,
    invoice: invoiceLabel(advance),
    invoiceUuid: advance.cfdi_uuid,
    counterpart: advance.counterpart,
    cfdi: null,
  };
  const foreign =
    advance.currency === 'USD' && advance.exchange_rate !== null
      ? { currency: 'USD' as const, amount: advance.amount, rate: advance.exchange_rate }
      : null;
  const out: MonthlyMovement[] = [
    {
      ...base,
      kind: 'advance',
      amount: parseMoney(advance.amount_with_exchange_rate),
      detail: `Valor en pesos de la factura (referencia SPEI ${advance.disbursement_reference})`,
      foreign,
    },
  ];
  if (role === 'provider') {
    out.push({
      ...base,
      kind: 'disbursement',
      amount: parseMoney(advance.disbursed_amount),
      detail: `Depósito SPEI ${advance.disbursement_reference}`,
      foreign: null,
    });
  }
  const commission = sumMoney(
    [advance.cost_financing, advance.cost_consultancy].map((cost) => parseMoney(cost ?? '0')),
  );
  if (commission > 0 && commissionPayer(advance) === role) {
    out.push({
      ...base,
      kind: 'commission',
      amount: commission,
      detail: 'Costo financiero y de asesoría del adelanto',
      foreign: null,
      cfdi: advance.commission_cfdi ?? CFDI_PENDING_TEXT,
    });
  }
  return out;
}

/** The statement of a company's month as one role, from the ledger's movements up to the month's end. */
export async function monthlyStatementData(
  db: Db,
  companyId: number,
  role: StatementRole,
  month: StatementMonth,
): Promise<MonthlyStatementData> {
  const { last } = monthBounds(month);
  const [company, advances, collections] = await Promise.all([
    db.selectFrom('companies').select(['name', 'rfc']).where('id', '=', companyId).executeTakeFirstOrThrow(),
    findAdvanceFacts(db, companyId, role, searchEnd(month)),
    findCollectionFacts(db, companyId, role, last),
  ]);
  const movements: MonthlyMovement[] = [
    ...advances.flatMap((advance) => advanceMovements(advance, role)),
    ...collections.map(
      (collection): MonthlyMovement => ({
        date: collection.fecha,
        kind: 'collection',
        amount: parseMoney(collection.amount),
        invoice: invoiceLabel(collection),
        invoiceUuid: collection.cfdi_uuid,
        counterpart: collection.counterpart,
        detail: `Clave de rastreo ${collection.clave_rastreo}`,
        foreign: null,
        cfdi: null,
      }),
    ),
  ];
  return {
    companyId,
    companyName: company.name,
    companyRfc: company.rfc,
    role,
    month,
    balances: monthlyBalances(movements, month),
  };
}

// --- The documents ---

function foreignNote(movement: MonthlyMovement): string {
  if (!movement.foreign) return '';
  return ` (${formatMoney(parseMoney(movement.foreign.amount), 'USD')} al tipo de cambio ${movement.foreign.rate})`;
}

/** '+', '-' or '' (ASCII: the PDF's standard fonts have no U+2212 minus sign). */
function effectSign(movement: MonthlyMovement): string {
  const effect = BALANCE_EFFECT[movement.kind];
  return effect > 0 ? '+' : effect < 0 ? '-' : '';
}

function periodText(month: StatementMonth): string {
  const { first, last } = monthBounds(month);
  return `${displayDate(first)} al ${displayDate(last)}`;
}

const FOOTER =
  'Estado de cuenta mensual que Flujo entrega conforme al artículo 1-C de la Ley del IVA. Importes en pesos ' +
  'mexicanos (MXN); los de facturas en dólares se convierten al tipo de cambio de su CFDI, indicado en cada ' +
  'movimiento. Los saldos se calculan de los movimientos registrados: adelantos (+) y cobros (-); depósitos y ' +
  'comisiones se informan sin cambiar el saldo.';

export function monthlyStatementPdf(data: MonthlyStatementData, generatedAt: Date): Promise<Uint8Array> {
  const { balances, role, month } = data;
  const labels = MONTHLY_KIND_LABELS[role];
  const kinds = MONTHLY_MOVEMENT_KINDS.filter((kind) => role === 'provider' || kind !== 'disbursement');
  const commissions = balances.movements.filter((movement) => movement.kind === 'commission');
  const sections: SummarySection[] = [
    {
      title: 'Datos del estado de cuenta',
      rows: [
        ['Empresa', data.companyName],
        ['RFC', data.companyRfc ?? '-'],
        ['Como', MONTHLY_ROLE_LABELS[role]],
        ['Periodo', periodText(month)],
      ],
    },
    {
      title: 'Resumen (MXN)',
      rows: [
        ['Saldo inicial', formatMxn(balances.opening)],
        ...kinds.map(
          (kind) =>
            [
              `${labels[kind]}${BALANCE_EFFECT[kind] > 0 ? ' (+)' : BALANCE_EFFECT[kind] < 0 ? ' (-)' : ''}`,
              formatMxn(balances.totals[kind]),
            ] as const,
        ),
        ['Saldo final', formatMxn(balances.closing)],
      ],
      text: BALANCE_MEANINGS[role],
    },
    {
      title: 'Movimientos',
      rows: balances.movements.map((movement, index) => [
        `${displayDate(movement.date)} · ${labels[movement.kind]}`,
        `Factura ${movement.invoice} · ${movement.counterpart} · ${movement.detail}: ` +
          `${effectSign(movement)}${formatMxn(movement.amount)}${foreignNote(movement)} · ` +
          `saldo ${formatMxn(balances.running[index] ?? 0)}`,
      ]),
      ...(balances.movements.length === 0 ? { text: 'Sin movimientos en el mes.' } : {}),
    },
    {
      title: 'Comisiones de Flujo y su CFDI',
      rows: commissions.map((movement) => [
        `Factura ${movement.invoice}`,
        `${formatMxn(movement.amount)} · ${movement.cfdi === CFDI_PENDING_TEXT ? CFDI_PENDING_TEXT : `CFDI ${movement.cfdi}`}`,
      ]),
      ...(commissions.length === 0 ? { text: 'Sin comisiones cobradas en el mes.' } : {}),
    },
  ];
  return renderSummaryPdf(
    {
      title: `Estado de cuenta ${monthLabel(month)}`,
      subtitle: 'Estado de cuenta mensual',
      headerNote: `Generado el ${displayDateTime(generatedAt)}`,
      heading: `Estado de cuenta de ${monthLabel(month)}`,
      headingNote: `${data.companyName} · ${MONTHLY_ROLE_LABELS[role]}`,
      sections,
      footer: FOOTER,
    },
    generatedAt,
  );
}

const MONEY_FORMAT = '"$"#,##0.00';
const DATE_FORMAT = 'dd/mm/yyyy';
const RATE_FORMAT = '0.0000';
const FROZEN_HEADER = [{ state: 'frozen' as const, ySplit: 1 }];

function excelDate(date: IsoDate): Date {
  return new Date(`${date}T00:00:00Z`);
}

/** Sheets 'Resumen' (the balances) and 'Movimientos' (one row per movement with its running balance). */
export async function monthlyStatementXlsx(
  data: MonthlyStatementData,
  generatedAt: Date,
): Promise<Uint8Array> {
  const { balances, role, month } = data;
  const labels = MONTHLY_KIND_LABELS[role];
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Flujo';
  workbook.created = generatedAt;
  workbook.modified = generatedAt;

  const summary = workbook.addWorksheet('Resumen');
  summary.columns = [
    { header: 'Concepto', key: 'label', width: 40 },
    { header: 'Valor', key: 'value', width: 44 },
  ];
  summary.getRow(1).font = { bold: true };
  const money = (amount: number) => ({ value: amount / 100, numFmt: MONEY_FORMAT });
  const summaryRows: [string, string | { value: number; numFmt: string }][] = [
    ['Empresa', data.companyName],
    ['RFC', data.companyRfc ?? '-'],
    ['Como', MONTHLY_ROLE_LABELS[role]],
    ['Periodo', periodText(month)],
    ['Saldo inicial (MXN)', money(balances.opening)],
    ...MONTHLY_MOVEMENT_KINDS.filter((kind) => role === 'provider' || kind !== 'disbursement').map(
      (kind) => [`${labels[kind]} (MXN)`, money(balances.totals[kind])] as [string, ReturnType<typeof money>],
    ),
    ['Saldo final (MXN)', money(balances.closing)],
    ['Saldo', BALANCE_MEANINGS[role]],
  ];
  for (const [label, value] of summaryRows) {
    const row = summary.addRow({ label, value: typeof value === 'string' ? value : value.value });
    if (typeof value !== 'string') row.getCell('value').numFmt = value.numFmt;
  }

  const sheet = workbook.addWorksheet('Movimientos', { views: FROZEN_HEADER });
  sheet.columns = [
    { header: 'Fecha', key: 'date', width: 12, style: { numFmt: DATE_FORMAT } },
    { header: 'Movimiento', key: 'kind', width: 30 },
    { header: 'Factura', key: 'invoice', width: 14 },
    { header: 'Folio fiscal', key: 'uuid', width: 40 },
    { header: role === 'provider' ? 'Cliente' : 'Proveedor', key: 'counterpart', width: 32 },
    { header: 'Detalle', key: 'detail', width: 44 },
    { header: 'Moneda de la factura', key: 'currency', width: 10 },
    { header: 'Monto USD', key: 'usd', width: 14, style: { numFmt: MONEY_FORMAT } },
    { header: 'Tipo de cambio', key: 'rate', width: 12, style: { numFmt: RATE_FORMAT } },
    { header: 'Monto MXN', key: 'amount', width: 16, style: { numFmt: MONEY_FORMAT } },
    { header: 'Efecto en el saldo', key: 'effect', width: 10 },
    { header: 'Saldo MXN', key: 'balance', width: 16, style: { numFmt: MONEY_FORMAT } },
    { header: 'CFDI de la comisión', key: 'cfdi', width: 40 },
  ];
  sheet.getRow(1).font = { bold: true };
  balances.movements.forEach((movement, index) => {
    sheet.addRow({
      date: excelDate(movement.date),
      kind: labels[movement.kind],
      invoice: movement.invoice,
      uuid: movement.invoiceUuid,
      counterpart: movement.counterpart,
      detail: movement.detail,
      currency: movement.foreign ? 'USD' : 'MXN',
      usd: movement.foreign ? parseMoney(movement.foreign.amount) / 100 : null,
      rate: movement.foreign ? Number(movement.foreign.rate) : null,
      amount: movement.amount / 100,
      effect: effectSign(movement) || '=',
      balance: (balances.running[index] ?? 0) / 100,
      cfdi: movement.cfdi ?? '',
    });
  });
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

// --- The job ---

export interface ProduceOptions {
  /** When the files say they were made; default now. */
  now?: Date;
  /** The e-mail's link base (APP_BASE_URL); null: no e-mail (the demo seed). Default: a link relative to the site. */
  mail?: { appBaseUrl: string; queue: boolean } | null;
  /** Only these companies, each as one role (the demo seed). */
  companies?: readonly { companyId: number; role: StatementRole }[];
  /** Also quiet months with no balance (the demo seed, so the page has something to show). */
  includeQuiet?: boolean;
}

export interface ProduceResult {
  month: StatementMonth;
  generated: number;
  mailed: number;
}

export function monthlyStatementMail(month: StatementMonth, role: StatementRole, appBaseUrl: string) {
  return {
    subject: `Tu estado de cuenta de ${monthLabel(month)} está listo`,
    text:
      `Hola:\n\nYa está tu estado de cuenta de ${monthLabel(month)} como ${MONTHLY_ROLE_LABELS[role].toLowerCase()} ` +
      'en Flujo: tus movimientos del mes, saldos inicial y final y el CFDI de las comisiones de Flujo.\n\n' +
      `Descárgalo en PDF o XLSX desde tu estado de cuenta: ${appBaseUrl}${paths.accountStatement}\n\n` +
      'Flujo te lo entrega cada mes conforme al artículo 1-C de la Ley del IVA.',
  };
}

/**
 * The month before `asOf`'s statements: every company (as supplier and as buyer) whose month had movements or
 * carried a balance gets one PDF and one XLSX, stored once (UNIQUE company, month, role: two processes may
 * both render, one stores) and, in the same transaction as the store, one e-mail per active user of the
 * company. Safe to run any day and any number of times: what exists is skipped.
 */
export async function produceMonthlyStatements(
  db: Db,
  asOf: IsoDate,
  options: ProduceOptions = {},
): Promise<ProduceResult> {
  const month = previousMonth(asOf);
  const now = options.now ?? new Date();
  const mail = options.mail === undefined ? { appBaseUrl: '', queue: false } : options.mail;
  const stored = await findStoredKinds(db, month);
  const candidates = options.companies ?? (await findStatementCandidates(db, searchEnd(month)));
  const result: ProduceResult = { month, generated: 0, mailed: 0 };
  for (const { companyId, role } of candidates) {
    if (stored.has(`${role}:${companyId}`)) continue;
    const data = await monthlyStatementData(db, companyId, role, month);
    if (!needsStatement(data.balances) && !options.includeQuiet) continue;
    const [pdf, xlsx] = await Promise.all([monthlyStatementPdf(data, now), monthlyStatementXlsx(data, now)]);
    await inTransaction(db, async (trx) => {
      const created = await insertMonthlyStatement(trx, {
        companyId,
        month,
        kind: role,
        opening: formatMoneyAmount(data.balances.opening),
        closing: formatMoneyAmount(data.balances.closing),
        movements: data.balances.movements.length,
        pdf,
        xlsx,
        generatedAt: now,
      });
      if (!created) return;
      result.generated += 1;
      if (!mail) return;
      const message = monthlyStatementMail(month, role, mail.appBaseUrl);
      for (const recipient of await activeUserEmails(trx, companyId)) {
        await insertOutbox(trx, {
          recipient,
          subject: message.subject,
          bodyText: message.text,
          sentAt: null,
          error: null,
          ...(mail.queue ? { nextAttemptAt: now } : {}),
        });
        result.mailed += 1;
      }
    });
  }
  return result;
}
