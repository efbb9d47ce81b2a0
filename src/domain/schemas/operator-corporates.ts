import {
  array,
  boolean,
  coerce,
  enums,
  type Infer,
  integer,
  nullable,
  optional,
  string,
  type,
  unknown,
} from 'superstruct';
import {
  CORPORATE_DOCUMENT_KINDS,
  CORPORATE_MESSAGES,
  DOCUMENT_DECISIONS,
  DOCUMENT_STATUSES,
  ONBOARDING_STATES,
} from '../corporate-file';
import { EfosStanding } from './cfdi-proof';
import { isoDate } from './common';
import {
  companyRfc,
  crossFieldRule,
  emailAddress,
  flag,
  MAX_LENGTH,
  pageNumber,
  pageSize,
  pathId,
  payload,
  queryChoice,
  requiredDate,
  requiredText,
  tooLongMessage,
} from './fields';
import { PAGE_SIZE, PagedList } from './invoices';

// The corporates' back office (issue 19, decision 0051): the request structs validate the body on the server
// (http/request-validation.ts) and the 'Nuevo corporativo' form (react-hook-form resolver); the response structs
// describe the answers for OpenAPI and the client's checks.

/** The corporates list's largest page. */
export const MAX_CORPORATES_PAGE_SIZE = 100;
/** How much of `search` the corporates list reads; the rest is dropped, not refused. */
const MAX_CORPORATE_SEARCH = 100;

/** GET /api/operator/corporates/: search (RFC or name), onboarding state, page and page_size. */
export const CorporateListQuery = payload({
  search: coerce(nullable(string()), unknown(), (value) => {
    const text = Array.isArray(value) ? value.at(-1) : value;
    return typeof text === 'string' ? text.trim().slice(0, MAX_CORPORATE_SEARCH) || null : (text ?? null);
  }),
  state: queryChoice(ONBOARDING_STATES),
  page: pageNumber(),
  page_size: pageSize(MAX_CORPORATES_PAGE_SIZE, PAGE_SIZE),
});
export type CorporateListQuery = Infer<typeof CorporateListQuery>;

/** /api/operator/corporates/:id/ and its documents' /:doc/. */
export const CorporateParams = payload({ id: pathId() });
export const CorporateDocumentParams = payload({ id: pathId(), doc: pathId() });
export type CorporateDocumentParams = Infer<typeof CorporateDocumentParams>;

/** Longest reason a reviewer may write (a sentence or two). */
export const MAX_DECISION_REASON = 500;

/** POST /api/operator/corporates/: a new corporate (or a provider promoted) and its first user. */
export const CreateCorporateBody = payload({
  rfc: companyRfc(),
  name: requiredText({ maxLength: MAX_LENGTH.company }),
  admin: payload({
    name: requiredText({ maxLength: MAX_LENGTH.personName }),
    last_name: requiredText({ maxLength: MAX_LENGTH.personName }),
    email: emailAddress({ tooLong: tooLongMessage(MAX_LENGTH.email) }),
  }),
  /** True to promote the RFC's existing provider (without it, 409 {confirm_promotion} names the provider). */
  confirm_promotion: optional(flag()),
});
export type CreateCorporateBody = Infer<typeof CreateCorporateBody>;

/**
 * POST .../documents/{doc}/decision/: aprobado (optional expiry), rechazado (reason required) or vencido
 * (expiry date required).
 */
export const DocumentDecisionBody = crossFieldRule(
  payload({
    status: enums([...DOCUMENT_DECISIONS]),
    reason: optional(requiredText({ maxLength: MAX_DECISION_REASON })),
    expires_on: optional(requiredDate(CORPORATE_MESSAGES.expiryRequired, CORPORATE_MESSAGES.dateInvalid)),
  }),
  (value) => {
    if (value.status === 'rechazado' && !value.reason)
      return { field: 'reason', message: CORPORATE_MESSAGES.reasonRequired };
    if (value.status === 'vencido' && !value.expires_on)
      return { field: 'expires_on', message: CORPORATE_MESSAGES.expiryRequired };
    return null;
  },
);
export type DocumentDecisionBody = Infer<typeof DocumentDecisionBody>;

/** POST .../reject/: the corporate is turned down, with the reason. */
export const RejectCorporateBody = payload({
  reason: requiredText({ message: CORPORATE_MESSAGES.reasonRequired, maxLength: MAX_DECISION_REASON }),
});
export type RejectCorporateBody = Infer<typeof RejectCorporateBody>;

/** POST .../suspend/: an active corporate loses its access, with the reason. */
export const SuspendCorporateBody = payload({
  reason: requiredText({
    message: CORPORATE_MESSAGES.suspensionReasonRequired,
    maxLength: MAX_DECISION_REASON,
  }),
});
export type SuspendCorporateBody = Infer<typeof SuspendCorporateBody>;

const onboardingState = enums([...ONBOARDING_STATES]);

/** A row of GET /api/operator/corporates/. */
export const CorporateRow = type({
  id: integer(),
  rfc: nullable(string()),
  name: string(),
  state: onboardingState,
});
export type CorporateRow = Infer<typeof CorporateRow>;

export const CorporatePage = PagedList(CorporateRow);
export type CorporatePage = Infer<typeof CorporatePage>;

/** A document of the file: the current upload of its kind, with its review. */
export const CorporateDocument = type({
  id: integer(),
  kind: enums([...CORPORATE_DOCUMENT_KINDS]),
  file_name: string(),
  size_bytes: integer(),
  sha256: string(),
  clabe: nullable(string()),
  /** As stored; an aprobado past its expiry is answered vencido. */
  status: enums([...DOCUMENT_STATUSES]),
  reason: nullable(string()),
  expires_on: nullable(isoDate),
  uploaded_by: string(),
  uploaded_at: string(),
  reviewed_by: nullable(string()),
  reviewed_at: nullable(string()),
});
export type CorporateDocument = Infer<typeof CorporateDocument>;

/** The programme's figures (foundation's programmeBalances()), money as strings. */
export const CorporateProgramme = type({
  state: string(),
  limit: string(),
  reserved: string(),
  used: string(),
  available: string(),
  starts_on: nullable(string()),
  ends_on: nullable(string()),
});
export type CorporateProgramme = Infer<typeof CorporateProgramme>;

/** GET /api/operator/corporates/{id}/. */
export const CorporateDetail = type({
  id: integer(),
  rfc: nullable(string()),
  name: string(),
  state: onboardingState,
  state_reason: nullable(string()),
  sat_status: integer(),
  admins: array(
    type({
      id: integer(),
      username: string(),
      first_name: string(),
      last_name: string(),
      email: string(),
      /** False until the invitation's link sets a password (the account stays usable; the flag is only shown). */
      has_password: boolean(),
    }),
  ),
  documents: array(CorporateDocument),
  /** The kinds still missing an aprobado, valid document today ('Activar corporativo' says why not). */
  missing_kinds: array(enums([...CORPORATE_DOCUMENT_KINDS])),
  programme: nullable(CorporateProgramme),
  /** The corporate on SAT's 69-B list (issue 30). */
  efos: EfosStanding,
  /** The operator who created (or promoted) it; null before migration 014. Another aprobador activates it. */
  created_by_id: nullable(integer()),
  created_by: nullable(string()),
  /** Migration 025: the economic group the corporate belongs to (its exposure adds up with the group's). */
  economic_group: nullable(string()),
  /** The operator asking: the screen asks the onboarding machine whether this one may activate. */
  viewer_id: integer(),
});
export type CorporateDetail = Infer<typeof CorporateDetail>;

/** POST /api/operator/corporates/ answers the new corporate's row and its admin. */
export const CorporateCreated = type({
  id: integer(),
  rfc: nullable(string()),
  name: string(),
  state: onboardingState,
  /** True when an existing provider company became the corporate. */
  promoted: boolean(),
  admin_user_id: integer(),
});
export type CorporateCreated = Infer<typeof CorporateCreated>;

/** POST .../decision/: the decision is recorded. */
export const DecisionRecorded = type({ message: string() });
export type DecisionRecorded = Infer<typeof DecisionRecorded>;

/** POST .../documents/, .../activate/, .../reject/, .../suspend/, .../reactivate/: the state after the change. */
export const OnboardingStateAnswer = type({ id: integer(), state: onboardingState });
export type OnboardingStateAnswer = Infer<typeof OnboardingStateAnswer>;
