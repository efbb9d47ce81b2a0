import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { IsoDate } from '../../../src/domain/calendar-date';
import { InvoiceStatus, type InvoiceStatusCode } from '../../../src/domain/invoice-status';
import { formatMoneyAmount, parseMoney, subtractMoney, sumMoney } from '../../../src/domain/money';
import { MAX_SERIAL_ID } from '../../../src/domain/schemas/fields';
import type { Indicators } from '../../../src/domain/schemas/invoices';
import type {
  StatementMovement,
  StatementReportResponse,
  StatementRow,
} from '../../../src/domain/schemas/statements';
import {
  CORPORATE_STATEMENT_STATUSES,
  instalmentConcept,
  MAX_CUT_OFF_DATES,
  MOVEMENT_CONCEPTS,
  MOVEMENT_KIND_LABELS,
  MOVEMENT_STATUS_LABELS,
  PROVIDER_STATEMENT_STATUSES,
  STATEMENT_MESSAGES,
  type StatementRole,
  statementReportName,
  statementStatusLabel,
} from '../../../src/domain/statements';
import type { Db } from '../../db/database';
import { businessDate } from '../../http/business-date';
import { FieldErrors } from '../../http/errors';
import { findCompanyBalances } from '../accounts/company.repository';
import { utilisationPercentage } from '../credit-programmes/credit-programmes.service';
import { programmeIndicators } from '../credit-programmes/programme-indicators';
import {
  type DueOnDate,
  findListRowsByIds,
  findNextInstalmentDue,
  findNextPaymentDue,
  findUpcomingPaymentDates,
  type InvoiceListRow,
  type InvoiceSide,
} from '../invoices/invoice.repository';
import { type InvoiceCaller, InvoiceRequestError } from '../invoices/invoice-access';
import {
  type InvoiceListQuery,
  type InvoiceListResult,
  listFilter,
  listInvoices,
  matchIndicators,
  toInvoiceItem,
} from '../invoices/invoice-list';
import {
  findInstalments,
  findMovementFacts,
  type InstalmentRow,
  type MovementFactsRow,
} from './statements.repository';

export type { StatementRole };

/** Which invoices a role's statement holds: the provider's issued ones, the corporate's received ones. */
export interface StatementScope {
  role: StatementRole;
  companyId: number;
  side: InvoiceSide;
  statuses: readonly InvoiceStatusCode[];
}

export function statementScope(caller: InvoiceCaller, role: StatementRole): StatementScope {
  return role === 'provider'
    ? { role, companyId: caller.companyId, side: 'emitter', statuses: PROVIDER_STATEMENT_STATUSES }
    : { role, companyId: caller.companyId, side: 'receiver', statuses: CORPORATE_STATEMENT_STATUSES };
}

// --- Movements ---

function dateOf(instant: string): IsoDate {
  return businessDate(new Date(instant));
}

function movement(
  date: IsoDate,
  kind: StatementMovement['kind'],
  concept: string,
  amount: string,
  status: StatementMovement['status'],
): StatementMovement {
  return { date, kind, concept, amount: formatMoneyAmount(parseMoney(amount)), status };
}

/** What the provider receives for an advance: the MXN value less the quoted costs (all of it before a quote). */
function advancePayout(facts: MovementFactsRow): string {
  const amount = parseMoney(facts.amount_with_exchange_rate);
  const costs = sumMoney(
    [facts.cost_financing, facts.cost_consultancy].map((cost) => parseMoney(cost ?? '0')),
  );
  return formatMoneyAmount(subtractMoney(amount, costs));
}

function providerMovements(
  facts: MovementFactsRow,
  instalments: readonly InstalmentRow[],
): StatementMovement[] {
  const requested = facts.factoring_date ?? facts.date_of_emission;
  if (facts.status === InvoiceStatus.FACTORING) {
    if (facts.factoring_request_id === null || facts.factored_at === null) return [];
    const factored = dateOf(facts.factored_at);
    const of = facts.installments ?? instalments.length;
    return [
      movement(
        factored,
        'factoring_transfer',
        MOVEMENT_CONCEPTS.factoringTransfer,
        facts.amount_to_transfer ?? '0',
        'done',
      ),
      movement(factored, 'advisory_fee', MOVEMENT_CONCEPTS.advisoryFee, facts.advisory_fee ?? '0', 'done'),
      ...instalments.map((instalment) =>
        movement(
          instalment.due_date,
          'instalment',
          instalmentConcept(instalment.number, of),
          instalment.amount,
          instalment.paid_at === null ? 'pending' : 'done',
        ),
      ),
    ];
  }
  const advance = movement(
    requested,
    'advance',
    MOVEMENT_CONCEPTS.advanceRequested,
    facts.amount_with_exchange_rate,
    'done',
  );
  if (facts.disbursed_amount !== null && facts.disbursed_at !== null) {
    return [
      advance,
      movement(
        dateOf(facts.disbursed_at),
        'disbursement',
        MOVEMENT_CONCEPTS.disbursed(facts.disbursement_reference ?? '-'),
        facts.disbursed_amount,
        'done',
      ),
    ];
  }
  return [
    advance,
    movement(
      requested,
      'disbursement',
      MOVEMENT_CONCEPTS.disbursementPending,
      advancePayout(facts),
      'pending',
    ),
  ];
}

/**
 * The corporate's side: Flujo pays its provider early (the invoice's MXN value on the buyer's behalf) and the
 * buyer repays Flujo that value on the invoice's payment date (its cut-off date).
 */
function corporateMovements(facts: MovementFactsRow): StatementMovement[] {
  const paid = facts.disbursed_at !== null;
  const advanced = paid
    ? dateOf(facts.disbursed_at as string)
    : (facts.factoring_date ?? facts.date_of_emission);
  const movements = [
    movement(
      advanced,
      'disbursement',
      paid ? MOVEMENT_CONCEPTS.corporateAdvanced : MOVEMENT_CONCEPTS.corporateAdvancePending,
      facts.amount_with_exchange_rate,
      paid ? 'done' : 'pending',
    ),
  ];
  if (facts.payment_date !== null) {
    movements.push(
      movement(
        facts.payment_date,
        'instalment',
        MOVEMENT_CONCEPTS.corporateRepayment,
        facts.amount_with_exchange_rate,
        'pending',
      ),
    );
  }
  return movements;
}

interface RowMovements {
  movements: StatementMovement[];
  factoringRequestId: number | null;
}

/** Every row's movements, oldest first, in two queries whatever the number of rows. */
async function movementsOf(
  db: Db,
  role: StatementRole,
  invoiceIds: readonly number[],
): Promise<Map<number, RowMovements>> {
  const facts = await findMovementFacts(db, invoiceIds);
  const requestIds = facts.flatMap((row) =>
    row.factoring_request_id === null ? [] : [row.factoring_request_id],
  );
  const schedules = new Map<number, InstalmentRow[]>();
  for (const instalment of await findInstalments(db, requestIds)) {
    const list = schedules.get(instalment.factoring_request_id) ?? [];
    list.push(instalment);
    schedules.set(instalment.factoring_request_id, list);
  }
  const byInvoice = new Map<number, RowMovements>();
  for (const row of facts) {
    const movements =
      role === 'provider'
        ? providerMovements(row, schedules.get(row.factoring_request_id ?? 0) ?? [])
        : corporateMovements(row);
    // Stable: same-day movements keep their natural order (transfer before its fee, deposit after request).
    movements.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    byInvoice.set(row.id, { movements, factoringRequestId: row.factoring_request_id });
  }
  return byInvoice;
}

function toStatementRows(
  rows: readonly InvoiceListRow[],
  movements: Map<number, RowMovements>,
  today: IsoDate,
): StatementRow[] {
  return rows.map((row) => {
    const found = movements.get(row.id);
    const item: StatementRow = { ...toInvoiceItem(row, today), movements: found?.movements ?? [] };
    if (found?.factoringRequestId != null) item.factoring_request_id = found.factoringRequestId;
    return item;
  });
}

// --- The list ---

export interface StatementListResult {
  list: InvoiceListResult;
  rows: StatementRow[];
}

/** One page of the statement, newest emission first, each row with its movements. */
export async function listStatement(
  db: Db,
  scope: StatementScope,
  query: InvoiceListQuery,
  today: IsoDate,
): Promise<StatementListResult> {
  const list = await listInvoices(
    db,
    { companyId: scope.companyId, side: scope.side, statuses: scope.statuses, today },
    query,
    { balances: query.page === 1 },
  );
  const movements = await movementsOf(
    db,
    scope.role,
    list.rows.map((row) => row.id),
  );
  return { list, rows: toStatementRows(list.rows, movements, today) };
}

/**
 * Flujo keeps no cost centres: neither a CFDI nor a company's record carries one, so no statement can be broken
 * down by them (decision 0065). The indicator says so, for a client that would otherwise offer the breakdown.
 */
const HAS_COST_CENTER = false;

/** The next payment of a statement's holder to Flujo as indicators: its date (null if none) and its MXN total. */
function nextPayment(due: DueOnDate | null): Pick<Indicators, 'payment_date' | 'total_by_date'> {
  return {
    payment_date: due?.date ?? null,
    total_by_date: formatMoneyAmount(due === null ? 0 : parseMoney(due.total)),
  };
}

/**
 * The first page's extras (spec §3; what each indicator means is decision 0065's and the OpenAPI document's).
 * Provider: the matches' totals, its factoring line (credit_line, credit_used, available_credit,
 * used_credit_percentage), spei_balance, the next unpaid instalment of its factored matches (payment_date,
 * total_by_date), has_cost_center, and has_factoring. Corporate: the matches' totals, its providers (also as
 * suppliers_customers), the upcoming distinct payment dates and the first of them with what is due that day
 * (payment_date, total_by_date), its spei_balance, has_cost_center and its credit programme's utilisation.
 */
export async function statementExtras(
  db: Db,
  scope: StatementScope,
  query: InvoiceListQuery,
  list: InvoiceListResult,
  today: IsoDate,
): Promise<{ indicators: Indicators; has_factoring: boolean }> {
  const company = list.balances ?? (await findCompanyBalances(db, scope.companyId));
  const filter = listFilter(
    { companyId: scope.companyId, side: scope.side, statuses: scope.statuses, today },
    query,
  );
  const speiBalance = formatMoneyAmount(parseMoney(company.spei_balance));
  if (scope.role === 'provider') {
    const line = parseMoney(company.credit_line);
    const used = parseMoney(company.credit_used);
    return {
      indicators: {
        ...matchIndicators(list),
        credit_line: formatMoneyAmount(line),
        credit_used: formatMoneyAmount(used),
        available_credit: formatMoneyAmount(Math.max(0, line - used)),
        used_credit_percentage: utilisationPercentage(line, used),
        spei_balance: speiBalance,
        ...nextPayment(await findNextInstalmentDue(db, filter, today)),
        has_cost_center: HAS_COST_CENTER,
      },
      has_factoring: company.has_factoring,
    };
  }
  const [cutOffDates, due, programme] = await Promise.all([
    findUpcomingPaymentDates(db, filter, today, MAX_CUT_OFF_DATES),
    findNextPaymentDue(db, filter, today),
    programmeIndicators(db, scope.companyId),
  ]);
  return {
    indicators: {
      ...matchIndicators(list),
      ...(list.counterparts === null ? {} : { providers: list.counterparts }),
      cut_off_dates: cutOffDates,
      ...nextPayment(due),
      spei_balance: speiBalance,
      has_cost_center: HAS_COST_CENTER,
      ...programme,
    },
    has_factoring: company.has_factoring,
  };
}

// --- The report ---

/**
 * The caller's statement rows with these ids, newest first. All or nothing: an id outside the caller's statement
 * (another company's, or one of its own invoices that moved no money) is a 404 that counts them and names none.
 */
export async function reportRows(
  db: Db,
  scope: StatementScope,
  requestedIds: readonly number[],
  today: IsoDate,
): Promise<StatementRow[]> {
  const ids = [...new Set(requestedIds)];
  // The body's struct refuses an empty list already; a direct caller gets the same answer.
  if (ids.length === 0) throw new FieldErrors({ invoices_ids: [STATEMENT_MESSAGES.empty] });
  const possible = ids.filter((id) => id > 0 && id <= MAX_SERIAL_ID);
  const rows = await findListRowsByIds(db, scope, possible);
  if (rows.length !== ids.length) {
    throw new InvoiceRequestError(404, STATEMENT_MESSAGES.notInStatement(ids.length - rows.length));
  }
  const movements = await movementsOf(
    db,
    scope.role,
    rows.map((row) => row.id),
  );
  return toStatementRows(rows, movements, today);
}

const MONEY_FORMAT = '"$"#,##0.00';
const DATE_FORMAT = 'dd/mm/yyyy';
const FROZEN_HEADER = [{ state: 'frozen' as const, ySplit: 1 }];

/** A calendar date as the UTC midnight Date exceljs turns into an Excel date serial. */
function excelDate(date: IsoDate | null): Date | null {
  return date === null ? null : new Date(`${date}T00:00:00Z`);
}

/** A money text as the number a spreadsheet adds up (two decimals, exact in a double at these sizes). */
function excelMoney(amount: string | null): number | null {
  return amount === null ? null : parseMoney(amount) / 100;
}

function sumMovements(row: StatementRow, status: StatementMovement['status']): number {
  return (
    sumMoney(row.movements.filter((item) => item.status === status).map((item) => parseMoney(item.amount))) /
    100
  );
}

/**
 * The report (spec §7: file_data base64, file_name): an XLSX with a sheet of the selected invoices (one row
 * each) and a sheet of their movements, Spanish headers, frozen header rows, money as numbers in a currency
 * format and dates as dates. Written with exceljs's streaming writer: 10,000 invoices in well under 2 s.
 */
export async function statementReport(
  rows: readonly StatementRow[],
  role: StatementRole,
  now: Date,
): Promise<StatementReportResponse> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Flujo';
  workbook.created = now;
  const counterpart = role === 'provider' ? 'Cliente' : 'Proveedor';

  const invoices = workbook.addWorksheet('Facturas', { views: FROZEN_HEADER });
  invoices.columns = [
    { header: 'Folio', key: 'folio', width: 14 },
    { header: 'Folio fiscal', key: 'uuid', width: 40 },
    { header: `RFC ${counterpart.toLowerCase()}`, key: 'rfc', width: 16 },
    { header: counterpart, key: 'name', width: 36 },
    { header: 'Fecha de emisión', key: 'emission', width: 16, style: { numFmt: DATE_FORMAT } },
    { header: 'Fecha de pago', key: 'payment', width: 16, style: { numFmt: DATE_FORMAT } },
    { header: 'Estado', key: 'status', width: 14 },
    { header: 'Moneda', key: 'currency', width: 9 },
    { header: 'Monto', key: 'amount', width: 16, style: { numFmt: MONEY_FORMAT } },
    { header: 'Monto MXN', key: 'amountMxn', width: 16, style: { numFmt: MONEY_FORMAT } },
    { header: 'Realizado MXN', key: 'done', width: 16, style: { numFmt: MONEY_FORMAT } },
    { header: 'Pendiente MXN', key: 'pending', width: 16, style: { numFmt: MONEY_FORMAT } },
    { header: 'Descripción', key: 'description', width: 40 },
  ];
  invoices.getRow(1).font = { bold: true };
  invoices.getRow(1).commit();
  for (const row of rows) {
    const provider = role === 'provider';
    invoices
      .addRow({
        folio: row.serie_folio ?? '',
        uuid: row.fiscal_folio,
        rfc: provider ? row.receiver_rfc : row.emitter_rfc,
        name: provider ? row.receiver_name : row.emitter_name,
        emission: excelDate(row.date_of_emission),
        payment: excelDate(row.payment_date),
        status: statementStatusLabel(role, row.status),
        currency: row.amount_with_exchange_rate_usd === null ? 'MXN' : 'USD',
        amount: excelMoney(row.amount),
        amountMxn: excelMoney(row.amount_with_exchange_rate),
        done: sumMovements(row, 'done'),
        pending: sumMovements(row, 'pending'),
        description: row.description,
      })
      .commit();
  }
  invoices.commit();

  const movements = workbook.addWorksheet('Movimientos', { views: FROZEN_HEADER });
  movements.columns = [
    { header: 'Folio', key: 'folio', width: 14 },
    { header: 'Folio fiscal', key: 'uuid', width: 40 },
    { header: 'Fecha', key: 'date', width: 14, style: { numFmt: DATE_FORMAT } },
    { header: 'Movimiento', key: 'kind', width: 26 },
    { header: 'Concepto', key: 'concept', width: 44 },
    { header: 'Monto MXN', key: 'amount', width: 16, style: { numFmt: MONEY_FORMAT } },
    { header: 'Estado', key: 'status', width: 12 },
  ];
  movements.getRow(1).font = { bold: true };
  movements.getRow(1).commit();
  for (const row of rows) {
    for (const item of row.movements) {
      movements
        .addRow({
          folio: row.serie_folio ?? '',
          uuid: row.fiscal_folio,
          date: excelDate(item.date),
          kind: MOVEMENT_KIND_LABELS[item.kind],
          concept: item.concept,
          amount: excelMoney(item.amount),
          status: MOVEMENT_STATUS_LABELS[item.status],
        })
        .commit();
    }
  }
  movements.commit();
  await workbook.commit();
  return {
    file_data: Buffer.concat(chunks).toString('base64'),
    file_name: statementReportName(businessDate(now)),
  };
}
