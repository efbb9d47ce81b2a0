import type { ColumnType, Generated } from 'kysely';
import type { CfdiSealProof } from '../cfdi/verify-cfdi';

// Kysely row types for migrations/001. numeric and date columns travel as strings (see database.ts parsers).
type Timestamp = ColumnType<string, string | undefined, string>;
type Money = string;

export interface CompaniesTable {
  id: Generated<number>;
  /**
   * Null from sign-up until SAT authorizes the link (or the company is a corporate or has invoices):
   * UNIQUE, so only a proven holder has it (migrations 002, 019).
   */
  rfc: string | null;
  name: string;
  is_corporate: Generated<boolean>;
  has_factoring: Generated<boolean>;
  corporate_can_pay_costs: Generated<boolean>;
  sat_status: Generated<number>;
  sat_status_changed_at: string | null;
  sat_ciec_encrypted: string | null;
  /** The RFC last sent for the SAT link; a claim while sat_status is SENT, not ownership (migration 019). */
  sat_claimed_rfc: ColumnType<string | null, string | null | undefined, string | null>;
  sat_claimed_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** Why a claim ended without approval (lost to another account, lapsed); null otherwise. */
  sat_status_reason: ColumnType<string | null, string | null | undefined, string | null>;
  disbursement_clabe: string | null;
  wallet_clabe: string | null;
  credit_payment_clabe: string | null;
  credit_line: ColumnType<Money, Money | undefined, Money>;
  credit_used: ColumnType<Money, Money | undefined, Money>;
  spei_balance: ColumnType<Money, Money | undefined, Money>;
  /** Annual percent of the factoring line; null until granted (migration 004). */
  factoring_rate: ColumnType<string | null, string | null | undefined, string | null>;
  /** The corporate's onboarding (migration 009); 'activo' for every company that predates it. */
  onboarding_state: Generated<'borrador' | 'en_revision' | 'activo' | 'rechazado' | 'suspendido'>;
  onboarding_reason: ColumnType<string | null, string | null | undefined, string | null>;
  onboarding_changed_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** Migration 014: the analista who created (or promoted) the corporate, and the aprobador who activated it. */
  onboarding_created_by: ColumnType<number | null, number | null | undefined, number | null>;
  onboarding_activated_by: ColumnType<number | null, number | null | undefined, number | null>;
  /** Migration 025: the economic group the corporate belongs to (set on its back-office file), or null. */
  economic_group: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  mobile_phone: Generated<string>;
  company_id: number | null;
  receive_notification: Generated<boolean>;
  is_active: Generated<boolean>;
  created_at: Timestamp;
  /** Migration 008: the back-office roles; empty for providers and corporates. */
  operator_roles: ColumnType<string[], string[] | undefined, string[]>;
  /** Migration 014: false for a promoted provider's users, who stay on the provider side unless invited. */
  corporate_access: Generated<boolean>;
}

export interface AlliancesTable {
  id: Generated<number>;
  corporate_id: number;
  /** Null only while the alliance is pending on an RFC not yet in Flujo (migration 011). */
  provider_id: number | null;
  max_rate: string;
  is_active: Generated<boolean>;
  created_at: Timestamp;
  /** Migration 008: the operator's annual rate before IVA (max_rate is the IVA-inclusive rate quotes read). */
  annual_rate: ColumnType<string | null, string | null | undefined, string | null>;
  max_days: ColumnType<number | null, number | null | undefined, number | null>;
  max_amount: ColumnType<Money | null, Money | null | undefined, Money | null>;
  /** Migration 011: the supplier RFC the operator named; pending until that RFC's SAT link is authorized. */
  provider_rfc: ColumnType<string | null, string | null | undefined, string | null>;
  pending: Generated<boolean>;
}

/** Migration 008: every price an alliance had, newest first by effective_from. */
export interface AlliancePricesTable {
  id: Generated<number>;
  alliance_id: number;
  annual_rate: string;
  max_rate: string;
  max_days: number | null;
  max_amount: Money | null;
  effective_from: Timestamp;
  set_by: number | null;
}

export interface InvoicesTable {
  id: Generated<number>;
  cfdi_uuid: string;
  serie: string | null;
  folio: string | null;
  emitter_company_id: number;
  receiver_company_id: number;
  emitter_rfc: string;
  emitter_name: string;
  receiver_rfc: string;
  receiver_name: string;
  issued_at: string;
  date_of_emission: string;
  payment_date: string | null;
  subtotal: Money;
  amount: Money;
  currency: string;
  exchange_rate: string | null;
  amount_with_exchange_rate: Money;
  payment_method: string | null;
  description: Generated<string>;
  status: Generated<number>;
  factoring_date: string | null;
  factoring_rate: string | null;
  cost_financing: Money | null;
  cost_consultancy: Money | null;
  sat_cancelled_at: string | null;
  /** Migration 003: the lifecycle's context, the buyer absorbs the advance's cost. */
  buyer_funds_advance: Generated<boolean>;
  cfdi_xml: string;
  /** Migration 013: where the cfdi-proof machine stands, and what proved the seal (CfdiSealProof). */
  proof_state: Generated<ProofState>;
  cfdi_proof: ColumnType<CfdiSealProofJson | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type ProofState = 'unverified' | 'sealChecked' | 'pending' | 'trusted' | 'refused';
/** What proved a CFDI's seal (server/cfdi/verify-cfdi.ts), as stored in invoices.cfdi_proof. */
export type CfdiSealProofJson = CfdiSealProof;

export interface CfdiSatChecksTable {
  id: Generated<number>;
  invoice_id: number;
  asked_at: Timestamp;
  answered: boolean;
  estado: string | null;
  codigo_estatus: string | null;
  es_cancelable: string | null;
  estatus_cancelacion: string | null;
  validacion_efos: string | null;
  failure: string | null;
}

export interface CfdiConflictsTable {
  id: Generated<number>;
  cfdi_uuid: string;
  invoice_id: number;
  file_name: string;
  source: string;
  cfdi_xml: string;
  received_at: Generated<Timestamp>;
}

export interface EfosListsTable {
  id: Generated<number>;
  file_name: string;
  entries: number;
  imported_at: Generated<Timestamp>;
}

export interface EfosEntriesTable {
  rfc: string;
  list_id: number;
  name: string;
  situation: 'Presunto' | 'Desvirtuado' | 'Definitivo' | 'Sentencia Favorable';
}

export interface SandboxSatCancellationsTable {
  cfdi_uuid: string;
  cancelled_at: Generated<Timestamp>;
}

export interface InvoiceEventsTable {
  id: Generated<number>;
  invoice_id: number;
  event: string;
  from_status: number | null;
  to_status: number;
  actor_user_id: number | null;
  actor: string;
  reason: string | null;
  at: Timestamp;
  /** Set by the database's trigger (migration 007, decision 0044), never by the code. Place in the global chain. */
  chain_seq: Generated<string>;
  /** The previous event of the same invoice's hash (null for its first event). */
  prev_hash: Generated<Uint8Array | null>;
  /** sha256(prev_hash ‖ canonical content). */
  hash: Generated<Uint8Array>;
  /** sha256(previous chain_hash ‖ hash ‖ chain_seq): the chain over all rows. */
  chain_hash: Generated<Uint8Array>;
}

/** The global audit chain's last chain_seq and chain_hash (one row, id 1; migration 007). */
export interface InvoiceEventsChainHeadTable {
  id: number;
  chain_seq: string;
  chain_hash: Uint8Array | null;
}

/**
 * A company's invoices per side, status and counterpart: count and sums, kept by the database's triggers on
 * invoices in the same transaction as every change (migration 005, decision 0039). Read-only for the code.
 */
export interface InvoiceTotalsTable {
  company_id: number;
  side: 'emitter' | 'receiver';
  status: number;
  counterpart_id: number;
  invoices: number;
  /** Sum of amount_with_exchange_rate. */
  amount_mxn: Money;
  /** Sum of amount of the invoices not in USD. */
  amount_own_mxn: Money;
  /** Sum of amount of the USD invoices. */
  amount_own_usd: Money;
}

/**
 * How many of a company's invoices per side and counterpart hold each word of their search text, with their
 * sums (migration 030, decisions 0074 and 0075): a one-word search's exact summary. Kept by triggers; read-only
 * for the code.
 */
export interface InvoiceWordsTable {
  company_id: number;
  side: 'emitter' | 'receiver';
  word: string;
  counterpart_id: number;
  invoices: number;
  amount_mxn: Money;
  amount_own_mxn: Money;
  amount_own_usd: Money;
}

export interface DisbursementsTable {
  id: Generated<number>;
  invoice_id: number;
  amount: Money;
  reference: string;
  at: Timestamp;
  /** Migration 021: the business day the advance falls due (src/domain/maturities.ts `dueOn`). */
  due_on: string;
}

/** Migration 021: a buyer's advances falling due on one day; its id is the payment reference's number. */
export interface MaturityBatchesTable {
  id: Generated<number>;
  corporate_id: number;
  due_on: string;
  created_at: Timestamp;
}

/** Migration 027: a company's statement of a month, per role, generated once by the monthly job. */
export interface MonthlyStatementsTable {
  id: Generated<number>;
  company_id: number;
  month: string;
  kind: 'provider' | 'corporate';
  opening: Money;
  closing: Money;
  movements: number;
  pdf: Uint8Array;
  xlsx: Uint8Array;
  generated_at: Timestamp;
}

/** Migration 027: the CFDI Flujo issued for an advance's commissions. */
export interface CommissionCfdisTable {
  invoice_id: number;
  uuid: string;
  issued_at: Timestamp;
}

/** Migration 023: one incoming SPEI per clave de rastreo (the bank's statement or 'Registrar cobro'). */
export interface BankPaymentsTable {
  id: Generated<number>;
  clave_rastreo: string;
  fecha: string;
  amount: Money;
  rfc_ordenante: string | null;
  nombre_ordenante: ColumnType<string, string | undefined, string>;
  referencia: ColumnType<string, string | undefined, string>;
  concepto: ColumnType<string, string | undefined, string>;
  corporate_id: number | null;
  kind: 'exacta' | 'parcial' | 'sobrepago' | 'no_identificada' | null;
  source: 'archivo' | 'manual';
  recorded_by: number;
  recorded_at: Timestamp;
}

/** Migration 023: a buyer's saldo a favor, as movements (+ an excess kept, − applied to an invoice). */
export interface BuyerCreditsTable {
  id: Generated<number>;
  corporate_id: number;
  amount: Money;
  bank_payment_id: number | null;
  invoice_id: number | null;
  recorded_by: number;
  recorded_at: Timestamp;
}

/** Migration 023: a payment that named no batch nor buyer, waiting for an operator (its machine's state). */
export interface UnidentifiedPaymentsTable {
  id: Generated<number>;
  bank_payment_id: number;
  state: ColumnType<
    'pendiente' | 'propuesta' | 'aplicada' | 'devuelta',
    'pendiente' | 'propuesta' | 'aplicada' | 'devuelta' | undefined
  >;
  invoice_id: number | null;
  proposed_by: number | null;
  proposed_at: string | null;
  decided_by: number | null;
  decided_at: string | null;
  reason: string | null;
}

/** Migration 022: a maturity notice e-mailed to a buyer, once per batch and kind (5 and 1 business days before). */
export interface MaturityNoticesTable {
  id: Generated<number>;
  batch_id: number;
  kind: '5d' | '1d';
  as_of: string;
  outstanding: Money;
  recipients: number;
  sent_at: Timestamp;
}

export interface QuotationsTable {
  id: Generated<number>;
  corporate_id: number;
  created_by: number | null;
  cost_payer: 'provider' | 'corporate';
  status: Generated<'draft' | 'accepted' | 'pre_approved' | 'rejected'>;
  rate: string | null;
  total: ColumnType<Money, Money | undefined, Money>;
  total_financing: ColumnType<Money, Money | undefined, Money>;
  total_consultancy: ColumnType<Money, Money | undefined, Money>;
  created_at: Timestamp;
}

export interface QuotationLinesTable {
  id: Generated<number>;
  quotation_id: number;
  invoice_id: number;
  payment_date: string;
  amount: Money;
  cost_financing: ColumnType<Money, Money | undefined, Money>;
  cost_consultancy: ColumnType<Money, Money | undefined, Money>;
}

export interface FactoringRequestsTable {
  id: Generated<number>;
  invoice_id: number;
  provider_id: number;
  rate: string;
  installments: number;
  installment_payment: Money;
  total_payment: Money;
  advisory_fee: Money;
  amount_to_transfer: Money;
  status: Generated<string>;
  created_at: Timestamp;
  /** The invoice's MXN amount held on the line (migration 004). */
  line_amount: ColumnType<Money, Money | undefined, Money>;
  created_by: number | null;
}

/** Migration 004: the schedule of a factoring record; paying one frees its line_release. */
export interface FactoringInstalmentsTable {
  id: Generated<number>;
  factoring_request_id: number;
  number: number;
  due_date: string;
  amount: Money;
  line_release: Money;
  paid_at: string | null;
}

/** Migration 004: a provider asks for an alliance with one of its clients. */
export interface AllianceRequestsTable {
  id: Generated<number>;
  provider_id: number;
  requested_by: number | null;
  client_rfc: string;
  client_name: string;
  contact_name: string;
  email: string;
  phone: string;
  status: Generated<'requested' | 'allied' | 'declined'>;
  created_at: Timestamp;
}

export interface FactoringEnrolmentsTable {
  id: Generated<number>;
  company_id: number;
  requested_by: number | null;
  status: Generated<'requested' | 'enabled' | 'declined'>;
  created_at: Timestamp;
}

export interface ReferralsTable {
  id: Generated<number>;
  referrer_user_id: number;
  name: string;
  company: string;
  email: string;
  phone: string;
  created_at: Timestamp;
}

export interface DemoRequestsTable {
  id: Generated<number>;
  first_name: string;
  last_name: string;
  phone: string;
  email: string;
  company: string;
  source: Generated<string>;
  created_at: Timestamp;
}

export interface NewsletterSubscriptionsTable {
  id: Generated<number>;
  email: string;
  created_at: Timestamp;
}

export interface PasswordResetTokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: Timestamp;
}

/** One row: bumped by migration 028's triggers whenever what a session reads changes (decision 0072). */
export interface SessionVersionTable {
  id: number;
  version: ColumnType<number, number, number>;
}

/** Migration 031: moved by every committed change an invoice list is made from (decision 0077). */
export interface ListVersionTable {
  id: number;
  version: ColumnType<string, never, never>;
}

export interface RefreshTokensTable {
  id: string;
  user_id: number;
  family_id: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
  created_at: Timestamp;
  /** Migration 008: the login proved the second factor (operators); rotation copies it. */
  mfa_verified: Generated<boolean>;
}

/** Migration 008: an operator's TOTP secret (encrypted) and its lockout counters. */
export interface OperatorTotpTable {
  user_id: number;
  secret_encrypted: string;
  confirmed_at: string | null;
  failed_attempts: Generated<number>;
  locked_until: string | null;
  /** The last TOTP time step accepted (int8 parsed to a number), so a code works once. */
  last_step: number | null;
}

export interface OperatorRecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: string | null;
}

/** Migration 008: a password step waiting for its code; id is the sha256 of the token handed out. */
export interface MfaChallengesTable {
  id: string;
  user_id: number;
  expires_at: string;
  used_at: string | null;
  attempts: Generated<number>;
}

/** Migration 008: one row per /api/operator/ call (server/services/operator.plugin.ts). */
export interface OperatorActionsTable {
  /** bigserial, parsed to a number (database.ts). */
  id: Generated<number>;
  /** Null for what the day's collections run does on its own (migration 024). */
  operator_user_id: number | null;
  operator_username: string;
  action: string;
  method: string;
  route: string;
  params: ColumnType<unknown, string | undefined, string>;
  status_code: number;
  reason: string | null;
  at: Timestamp;
}

export type ProgrammeState = 'borrador' | 'activo' | 'congelado' | 'vencido';

/** Migration 008: a corporate's credit programme; reserved and used are the ledger's running sums. */
export interface CreditProgrammesTable {
  id: Generated<number>;
  corporate_id: number;
  limit_amount: ColumnType<Money, Money | undefined, Money>;
  reserved: ColumnType<Money, Money | undefined, Money>;
  used: ColumnType<Money, Money | undefined, Money>;
  starts_on: string | null;
  ends_on: string | null;
  state: ColumnType<ProgrammeState, ProgrammeState | undefined, ProgrammeState>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Calendar days after a due date before the programme freezes for 'morosidad' (migration 024). */
  grace_days: ColumnType<number, number | undefined, number>;
  /** Moratory annual rate in percent, shown on late invoices, never charged (migration 024). */
  moratory_rate: ColumnType<string, string | undefined, string>;
  /** 'morosidad' while frozen for late payment (only an aprobador lifts it), else null (migration 024). */
  frozen_for: ColumnType<'morosidad' | null, 'morosidad' | null | undefined, 'morosidad' | null>;
}

export type LedgerKind = 'reserve' | 'use' | 'cancel' | 'release';

export interface ProgrammeLedgerTable {
  id: Generated<number>;
  programme_id: number;
  invoice_id: number;
  kind: LedgerKind;
  amount: Money;
  reference: string | null;
  actor_user_id: number | null;
  at: Timestamp;
}

export interface IdempotencyKeysTable {
  user_id: number;
  key: string;
  method: string;
  path: string;
  request_hash: string;
  response_status: number | null;
  response_body: unknown;
  created_at: Timestamp;
}

export interface MailOutboxTable {
  id: Generated<number>;
  recipient: string;
  subject: string;
  body_text: string;
  created_at: Timestamp;
  sent_at: string | null;
  error: string | null;
  attempts: Generated<number>;
  next_attempt_at: string | null;
}

export interface JobRunsTable {
  job: string;
  /** int8: database.ts parses it to a number on both drivers. */
  slot: number;
  owner: string;
  started_at: string;
  lease_until: string;
  finished_at: string | null;
  error: string | null;
}

export interface ThrottleHitsTable {
  id: Generated<number>;
  bucket: string;
  at: string;
}

export interface CaptchaSpentTable {
  id: string;
  expires_at: string;
}

/** Migration 012: what the control desk decided about an advance (decision 0054); queued items have no row. */
export interface DeskItemsTable {
  invoice_id: number;
  state: 'approved' | 'rejected' | 'in_batch' | 'paid' | 'returned';
  /** The aprobador's rejection reason or the bank's return reason. */
  reason: string | null;
  decided_by: number | null;
  decided_by_username: string | null;
  /** Checks that failed when automation approved with --force (JSON array of check ids). */
  forced_checks: ColumnType<string[] | null, string | null | undefined, string | null>;
  updated_at: Timestamp;
}

/** Migration 012: a SPEI batch made by tesorería. */
export interface DisbursementBatchesTable {
  id: Generated<number>;
  created_by: number | null;
  created_by_username: string;
  created_at: Timestamp;
}

/** Migration 012: one SPEI order per advance of a batch. */
export interface SpeiOrdersTable {
  id: Generated<number>;
  batch_id: number;
  invoice_id: number;
  clave_rastreo: string;
  referencia_numerica: number;
  beneficiary_name: string;
  beneficiary_clabe: string | null;
  beneficiary_rfc: string;
  amount: Money;
  concepto: string;
  state: Generated<'pendiente' | 'liquidada' | 'devuelta'>;
  return_reason: string | null;
  confirmed_by: number | null;
  /** Migration 015: the operator's username or the automation account (`ops:<account>`). */
  confirmed_by_username: string | null;
  confirmed_at: string | null;
}

export interface SeedsTable {
  name: string;
  applied_at: Timestamp;
}

/** A new limit (or a raise) waiting for a different aprobador (migration 010). */
export type ProgrammeProposalStatus = 'pendiente' | 'aprobada' | 'rechazada';

export interface ProgrammeLimitProposalsTable {
  id: Generated<number>;
  programme_id: number;
  proposed_limit: Money;
  starts_on: string;
  ends_on: string;
  proposed_by: number;
  status: ColumnType<ProgrammeProposalStatus, ProgrammeProposalStatus | undefined, ProgrammeProposalStatus>;
  decided_by: number | null;
  proposed_at: Timestamp;
  decided_at: string | null;
  grace_days: ColumnType<number, number | undefined, number>;
  moratory_rate: ColumnType<string, string | undefined, string>;
}

/** A buyer's collection log (migration 024): what an operator did to collect, with who and when. */
export interface CollectionLogTable {
  id: Generated<number>;
  corporate_id: number;
  action: 'llamada' | 'correo' | 'promesa_de_pago';
  note: ColumnType<string, string | undefined, string>;
  promised_on: string | null;
  recorded_by: number;
  recorded_at: Timestamp;
}

export interface ProgrammeStateChangesTable {
  id: Generated<number>;
  programme_id: number;
  from_state: string;
  to_state: string;
  reason: string | null;
  actor_user_id: number | null;
  at: Timestamp;
}

/** A corporate's payment of an advanced invoice; clave_rastreo is unique (migration 010). */
export interface CollectionsTable {
  id: Generated<number>;
  invoice_id: number;
  programme_id: number | null;
  amount: Money;
  released: ColumnType<Money, Money | undefined, Money>;
  clave_rastreo: string;
  fecha: string;
  recorded_by: number;
  recorded_at: Timestamp;
  /** Migration 015: the part above what remained to collect, recorded only when the caller said sobrepago. */
  overpaid: ColumnType<Money, Money | undefined, Money>;
}

/** A corporate's KYB file, one row per upload (migration 009); the current one of a kind has replaced_at null. */
export interface CorporateDocumentsTable {
  id: Generated<number>;
  corporate_id: number;
  kind: string;
  file_name: string;
  size_bytes: number;
  sha256: string;
  content: Uint8Array;
  clabe: string | null;
  status: Generated<string>;
  reason: string | null;
  expires_on: string | null;
  uploaded_by: number;
  uploaded_at: Timestamp;
  reviewed_by: number | null;
  reviewed_at: string | null;
  replaced_at: string | null;
}

/** Migration 026: a proven payment CFDI (REP, type P) a supplier issued to a buyer (decision 0070). */
export interface PaymentComplementsTable {
  id: Generated<number>;
  cfdi_uuid: string;
  emitter_company_id: number;
  receiver_company_id: number;
  /** Fecha and FechaTimbrado as written in the CFDI. */
  issued_at: string;
  stamped_at: string;
  file_name: string;
  cfdi_xml: string;
  cfdi_proof: ColumnType<CfdiSealProofJson, string, string>;
  sat_estado: string;
  sat_asked_at: Timestamp;
  imported_by: string;
  imported_at: Timestamp;
}

/** Migration 026: one pago20:DoctoRelacionado of a REP, linked to the invoice it names. */
export interface PaymentComplementLinksTable {
  id: Generated<number>;
  payment_complement_id: number;
  invoice_id: number;
  /** FechaPago as written. */
  paid_at: string;
  currency: string;
  installment: number;
  previous_balance: string;
  paid: string;
  remaining_balance: string;
}

/** Migration 026: the n-th REP reminder of an invoice, inserted with its mail (unique: sent once). */
export interface RepRemindersTable {
  invoice_id: number;
  reminder_number: number;
  sent_on: string;
  recipients: number;
  created_at: Timestamp;
}

/** Migration 025: a concentration cap on a buyer, an economic group or a supplier (four eyes). */
export type ConcentrationCapScope = 'buyer' | 'group' | 'supplier';
export type ConcentrationCapKind = 'percent' | 'amount';
export type ConcentrationCapStatus = 'propuesto' | 'vigente' | 'rechazado' | 'reemplazado';

export interface ConcentrationCapsTable {
  id: Generated<number>;
  scope: ConcentrationCapScope;
  company_id: number | null;
  group_name: string | null;
  kind: ConcentrationCapKind;
  value: Money;
  status: ColumnType<ConcentrationCapStatus, ConcentrationCapStatus | undefined, ConcentrationCapStatus>;
  proposed_by: number;
  proposed_at: Timestamp;
  decided_by: number | null;
  decided_at: string | null;
}

export interface Database {
  companies: CompaniesTable;
  users: UsersTable;
  alliances: AlliancesTable;
  alliance_prices: AlliancePricesTable;
  operator_totp: OperatorTotpTable;
  operator_recovery_codes: OperatorRecoveryCodesTable;
  mfa_challenges: MfaChallengesTable;
  operator_actions: OperatorActionsTable;
  credit_programmes: CreditProgrammesTable;
  programme_ledger: ProgrammeLedgerTable;
  invoices: InvoicesTable;
  invoice_events: InvoiceEventsTable;
  invoice_events_chain_head: InvoiceEventsChainHeadTable;
  invoice_totals: InvoiceTotalsTable;
  invoice_words: InvoiceWordsTable;
  disbursements: DisbursementsTable;
  maturity_batches: MaturityBatchesTable;
  monthly_statements: MonthlyStatementsTable;
  commission_cfdis: CommissionCfdisTable;
  bank_payments: BankPaymentsTable;
  buyer_credits: BuyerCreditsTable;
  unidentified_payments: UnidentifiedPaymentsTable;
  maturity_notices: MaturityNoticesTable;
  collection_log: CollectionLogTable;
  quotations: QuotationsTable;
  quotation_lines: QuotationLinesTable;
  factoring_requests: FactoringRequestsTable;
  factoring_enrolments: FactoringEnrolmentsTable;
  factoring_instalments: FactoringInstalmentsTable;
  alliance_requests: AllianceRequestsTable;
  referrals: ReferralsTable;
  demo_requests: DemoRequestsTable;
  newsletter_subscriptions: NewsletterSubscriptionsTable;
  password_reset_tokens: PasswordResetTokensTable;
  refresh_tokens: RefreshTokensTable;
  session_version: SessionVersionTable;
  list_version: ListVersionTable;
  idempotency_keys: IdempotencyKeysTable;
  mail_outbox: MailOutboxTable;
  job_runs: JobRunsTable;
  throttle_hits: ThrottleHitsTable;
  captcha_spent: CaptchaSpentTable;
  seeds: SeedsTable;
  programme_limit_proposals: ProgrammeLimitProposalsTable;
  programme_state_changes: ProgrammeStateChangesTable;
  collections: CollectionsTable;
  corporate_documents: CorporateDocumentsTable;
  desk_items: DeskItemsTable;
  disbursement_batches: DisbursementBatchesTable;
  spei_orders: SpeiOrdersTable;
  cfdi_sat_checks: CfdiSatChecksTable;
  cfdi_conflicts: CfdiConflictsTable;
  efos_lists: EfosListsTable;
  efos_entries: EfosEntriesTable;
  sandbox_sat_cancellations: SandboxSatCancellationsTable;
  payment_complements: PaymentComplementsTable;
  payment_complement_links: PaymentComplementLinksTable;
  rep_reminders: RepRemindersTable;
  concentration_caps: ConcentrationCapsTable;
}
