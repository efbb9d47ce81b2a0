import { DEFAULT_FACTORING_RATE } from '../../../src/domain/factoring-terms';
import { formatCurrency, formatMoneyAmount, parseInvoiceAmount, parseMoney } from '../../../src/domain/money';
import type { Db } from '../../db/database';
import { inTransaction } from '../../db/transaction';
import {
  findCompanyByRfc,
  findFactoringLine,
  grantFactoringLine,
  releaseFromLine,
} from '../accounts/company.repository';
import {
  findFactoringRecord,
  findInstalments,
  listEnrolments,
  markEnrolmentsEnabled,
  markInstalmentPaid,
  setRecordStatus,
} from './factoring.repository';

// The operator's side of factoring (`npm run ops -- factoring:*`, docs/decisions/0036): grant a line, read the
// enable requests, record an instalment paid.

/** A refusal of a factoring operation, in Spanish, for the operator. */
export class FactoringOperationError extends Error {}

const RATE_TEXT = /^\d{1,3}(\.\d{1,4})?$/;
// An annual rate above 100 % is a typo, not a price.
const MAX_RATE_PERCENT = 100;

export interface GrantedLine {
  rfc: string;
  name: string;
  creditLine: string;
  rate: string;
  enrolmentsEnabled: number;
}

/**
 * Grants a company its factoring line (has_factoring, credit_line, rate; default DEFAULT_FACTORING_RATE) and
 * marks its pending enable requests 'enabled'; they stay listed. A line below what is already used is refused.
 */
export async function enableFactoringLine(
  db: Db,
  rfc: string,
  options: { line: string; rate?: string },
): Promise<GrantedLine> {
  const line = parseInvoiceAmount(options.line);
  if (line === null || line <= 0) {
    throw new FactoringOperationError(
      `--line debe ser un monto en pesos mayor que cero (recibí "${options.line}").`,
    );
  }
  const rateText = options.rate ?? DEFAULT_FACTORING_RATE;
  if (!RATE_TEXT.test(rateText) || Number(rateText) > MAX_RATE_PERCENT) {
    throw new FactoringOperationError('--rate es la tasa anual en porcentaje, de 0 a 100, por ejemplo 18.5.');
  }
  return inTransaction(db, async (trx) => {
    const company = await findCompanyByRfc(trx, rfc, { lock: true });
    if (!company) throw new FactoringOperationError(`No hay ninguna empresa con el RFC ${rfc}.`);
    const used = parseMoney((await findFactoringLine(trx, company.id)).credit_used);
    if (line < used) {
      throw new FactoringOperationError(
        `La línea de ${rfc} ya tiene ${formatCurrency(used, 'MXN')} MXN en uso; no puede ser menor.`,
      );
    }
    const creditLine = formatMoneyAmount(line);
    await grantFactoringLine(trx, company.id, { creditLine, rate: rateText });
    const enrolmentsEnabled = await markEnrolmentsEnabled(trx, company.id);
    return { rfc, name: company.name, creditLine, rate: rateText, enrolmentsEnabled };
  });
}

export interface EnableRequestRow {
  id: number;
  rfc: string | null;
  company: string;
  username: string | null;
  createdAt: string;
  status: string;
}

/** The enable requests, newest first. */
export async function listEnableRequests(db: Db, limit: number): Promise<EnableRequestRow[]> {
  const rows = await listEnrolments(db, limit);
  return rows.map((row) => ({
    id: row.id,
    rfc: row.rfc,
    company: row.name,
    username: row.username,
    createdAt: row.created_at,
    status: row.status,
  }));
}

export interface SettledInstalment {
  recordId: number;
  number: number;
  amount: string;
  lineRelease: string;
  /** The record is settled: every instalment is paid. */
  settled: boolean;
}

/**
 * Records an instalment of a factoring record paid (the next unpaid one, or `number`), frees its line_release
 * from the provider's line and settles the record when every instalment is paid. The record row is locked, so
 * two operators cannot pay the same instalment twice; a paid one is refused with a message.
 */
export async function settleInstalment(
  db: Db,
  recordId: number,
  options: { number?: number; now: Date },
): Promise<SettledInstalment> {
  return inTransaction(db, async (trx) => {
    const record = await findFactoringRecord(trx, recordId, { lock: true });
    if (!record) throw new FactoringOperationError(`No existe la solicitud de factoraje ${recordId}.`);
    const schedule = await findInstalments(trx, recordId);
    const instalment =
      options.number === undefined
        ? schedule.find((item) => item.paid_at === null)
        : schedule.find((item) => item.number === options.number);
    if (!instalment) {
      throw new FactoringOperationError(
        options.number === undefined
          ? `La solicitud de factoraje ${recordId} ya está liquidada: no tiene pagos pendientes.`
          : `La solicitud de factoraje ${recordId} no tiene el pago ${options.number} (tiene ${schedule.length}).`,
      );
    }
    if (instalment.paid_at !== null || !(await markInstalmentPaid(trx, instalment.id, options.now))) {
      throw new FactoringOperationError(
        `El pago ${instalment.number} de la solicitud de factoraje ${recordId} ya se registró (${instalment.paid_at}); no se registra dos veces.`,
      );
    }
    await releaseFromLine(trx, record.provider_id, instalment.line_release);
    const settled = schedule.every((item) => item.id === instalment.id || item.paid_at !== null);
    if (settled) await setRecordStatus(trx, recordId, 'settled');
    return {
      recordId,
      number: instalment.number,
      amount: instalment.amount,
      lineRelease: instalment.line_release,
      settled,
    };
  });
}
