import { type Infer, integer, nullable, record, string, type, unknown } from 'superstruct';
import { isIsoDate } from '../calendar-date';
import { crossFieldRule, pageNumber, payload, queryText } from './fields';
import { PagedList } from './invoices';

// GET /api/operator/audit/ (docs/decisions/0050): one row per call an operator made under /api/operator/, written
// by the operator plugin's hook (migration 008, operator_actions).

export const OperatorActionEntry = type({
  id: integer(),
  operator_username: string(),
  /** The Spanish label of the route's action (`config.operatorAction`), e.g. 'Aprobar anticipo'. */
  action: string(),
  method: string(),
  /** The route's pattern, e.g. /api/operator/desk/:invoiceId/approve/. */
  route: string(),
  params: record(string(), unknown()),
  status_code: integer(),
  reason: nullable(string()),
  /** ISO 8601 instant. */
  at: string(),
});
export type OperatorActionEntry = Infer<typeof OperatorActionEntry>;

export const OperatorActionPage = PagedList(OperatorActionEntry);
export type OperatorActionPage = Infer<typeof OperatorActionPage>;

/** The audit list's filters as the URL carries them (all optional). */
export interface OperatorAuditFilters {
  operator?: string;
  action?: string;
  /** YYYY-MM-DD, Mexico City's calendar, inclusive. */
  from?: string;
  to?: string;
  page?: number;
}

/** The audit's filters as the URL holds them (the page apart), and their keys. */
export type AuditFilters = Omit<OperatorAuditFilters, 'page'>;
export const AUDIT_FILTER_KEYS = ['operator', 'action', 'from', 'to'] as const;

export const OPERATOR_AUDIT_MESSAGES = {
  invalidDate: 'Escribe la fecha como AAAA-MM-DD.',
  rangeBackwards: 'La fecha final no puede ser anterior a la inicial.',
  tooLong: 'El filtro admite como máximo 150 caracteres.',
} as const;

export const MAX_AUDIT_FILTER_LENGTH = 150;

const auditFilterText = () =>
  queryText(
    (text) =>
      (text.length <= MAX_AUDIT_FILTER_LENGTH && !text.includes('\0')) || OPERATOR_AUDIT_MESSAGES.tooLong,
  );
const auditDay = () => queryText((text) => isIsoDate(text) || OPERATOR_AUDIT_MESSAGES.invalidDate);

/** GET /api/operator/audit/: the list's filters (each optional) and page; a range that ends before it starts is refused on `to`. */
export const OperatorAuditQuery = crossFieldRule(
  payload({
    operator: auditFilterText(),
    action: auditFilterText(),
    from: auditDay(),
    to: auditDay(),
    page: pageNumber(),
  }),
  (value) =>
    value.from !== null && value.to !== null && value.to < value.from
      ? { field: 'to', message: OPERATOR_AUDIT_MESSAGES.rangeBackwards }
      : null,
);
export type OperatorAuditQuery = Infer<typeof OperatorAuditQuery>;
