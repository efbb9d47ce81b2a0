import { SatStatus, type SatStatusCode } from '../../../src/domain/sat-status';
import type {
  MfaChallengeResponse,
  MfaLoginRequest,
  OperatorSessionResponse,
} from '../../../src/domain/schemas/operator-session';
import {
  type LoginCaptchaRequired,
  type LoginRequest,
  type PasswordChange,
  type ProfileUpdate,
  SERVER_MESSAGES,
  type SignUpRequest,
  type TokenRefreshRequest,
} from '../../../src/domain/schemas/session';
import type { FieldErrors as FieldErrorMap } from '../../../src/domain/schemas/validate';
import { CAPTCHA_FAILED_MESSAGE } from '../../captcha/captcha';
import { inTransaction } from '../../db/transaction';
import { FieldErrors } from '../../http/errors';
import { type AuthenticatedUser, corporateSideOf } from '../auth/authenticate';
import { MESSAGES, UnauthorizedError } from '../auth/http-errors';
import { revokeFamily } from '../auth/refresh-token.repository';
import { revokeUserSessions, rotateSession, type SessionTokens, startSession } from '../auth/session.service';
import {
  type AccountsDeps,
  LOGIN_CAPTCHA_AFTER_FAILURES,
  LOGIN_FAILURES_WINDOW_MINUTES,
  loginFailureDelayMs,
  THROTTLE_RULES,
} from './accounts-deps';
import { ACCOUNT_MESSAGES } from './messages';
import { operatorIdentity, startMfaChallenge, verifyMfa } from './operator-login.service';
import { findOperatorIdentity } from './operator-mfa.repository';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password';
import {
  NEW_PASSWORD_MESSAGES,
  type PasswordPersonalData,
  passwordProblems,
  SIGN_UP_PASSWORD_MESSAGES,
} from './password-rules';
import {
  findProfile,
  findUserByUsername,
  insertAccount,
  type ProfileRow,
  renameCompany,
  sessionFlags,
  updatePasswordHash,
  updateUserProfile,
  usernameOrEmailTaken,
} from './user.repository';

/** The four flags the spec's client keeps in its user store (§3 "Login response", §7 token refresh). */
export interface SessionFlags {
  sat_credentials_status: SatStatusCode;
  corporate_can_pay_costs: boolean;
  has_factoring: boolean;
  is_corporate: boolean;
}

export type SessionResponse = SessionTokens & SessionFlags;

export interface ProfileResponse {
  first_name: string;
  last_name: string;
  mobile_phone: string;
  company: string;
  receive_notification: boolean;
  disbursement_clabe?: string;
  wallet_clabe?: string;
  credit_payment_clabe?: string;
}

async function flagsOf(deps: AccountsDeps, userId: number): Promise<SessionFlags> {
  const row = await sessionFlags(deps.db, userId);
  return {
    // A user without a company has no SAT link yet (spec §4 DONT_SENT).
    sat_credentials_status: (row?.sat_status ?? SatStatus.DONT_SENT) as SatStatusCode,
    corporate_can_pay_costs: row?.corporate_can_pay_costs ?? false,
    has_factoring: row?.has_factoring ?? false,
    // The role switch and the corporate dashboard follow the same access rule as every request.
    is_corporate: corporateSideOf(row).isCorporate,
  };
}

function addErrors(errors: FieldErrorMap, field: string, messages: readonly string[]): void {
  if (messages.length === 0) return;
  const list = errors[field] ?? [];
  for (const message of messages) if (!list.includes(message)) list.push(message);
  errors[field] = list;
}

function hasErrors(errors: FieldErrorMap): boolean {
  return Object.keys(errors).length > 0;
}

/** The 400 of a login that needs the CAPTCHA 'login' first; the body also says captcha_required (the UI shows it). */
class CaptchaRequiredError extends FieldErrors {
  constructor(message: string) {
    super({ captcha_token: [message] });
  }
  override body(): LoginCaptchaRequired {
    return { captcha_token: this.fields.captcha_token ?? [], captcha_required: true };
  }
}

/** The username's failures from any address: they ask for the CAPTCHA and slow answers, never refuse. */
const usernameFailuresBucket = (username: string) => `login:user:${username.toLowerCase()}`;

/**
 * POST /login/: the same 401 for unknown user and wrong password. Hard limits per address and per username from
 * that address (429); a username's failures from any address ask for the CAPTCHA 'login' after a few and delay
 * each wrong answer (loginFailureDelayMs), so a stranger cannot lock the owner out (decision 0061). An operator
 * gets a challenge for the code instead of tokens (operator-login.service.ts); the username's failures are
 * forgiven only once the code is right too.
 */
export async function login(
  deps: AccountsDeps,
  form: LoginRequest,
  address: string,
): Promise<SessionResponse | MfaChallengeResponse> {
  const username = form.username.toLowerCase();
  const usernameBucket = usernameFailuresBucket(username);
  const earlierFailures = await deps.throttle.count(usernameBucket, LOGIN_FAILURES_WINDOW_MINUTES);
  // Every attempt counts before the password is checked; a success gives its hits back below.
  const ticket = await deps.throttle.take(
    [
      [`login:user-ip:${username}|${address}`, THROTTLE_RULES.loginPerUsernameAndAddress],
      [`login:ip:${address}`, THROTTLE_RULES.loginPerAddress],
    ],
    [usernameBucket],
  );
  if (earlierFailures >= LOGIN_CAPTCHA_AFTER_FAILURES) {
    // No password is checked without the proof of work; the attempt still counts against the address.
    if (!form.captcha_token) throw new CaptchaRequiredError(SERVER_MESSAGES.loginCaptchaRequired);
    if (!(await deps.captcha.verify(form.captcha_token, 'login', address))) {
      throw new CaptchaRequiredError(CAPTCHA_FAILED_MESSAGE);
    }
  }

  const candidate = await findUserByUsername(deps.db, form.username);
  // An unknown username still costs one argon2 verification, so timing does not tell which usernames exist.
  const passwordMatches = await verifyPassword(
    candidate?.password_hash ?? (await dummyPasswordHash()),
    form.password,
  );
  if (!candidate || !passwordMatches || !candidate.is_active) {
    await deps.pause(loginFailureDelayMs(earlierFailures));
    throw new UnauthorizedError(MESSAGES.badCredentials);
  }
  await deps.throttle.refund(ticket);
  if (candidate.operator_roles.length > 0) return startMfaChallenge(deps, candidate.id);
  await deps.throttle.clear(usernameBucket);
  const tokens = await startSession(deps, candidate.id);
  return { ...tokens, ...(await flagsOf(deps, candidate.id)) };
}

/** POST /login/mfa/: the operator's code; the session is marked MFA-verified and carries who signed in. */
export async function loginWithCode(
  deps: AccountsDeps,
  form: MfaLoginRequest,
  address: string,
): Promise<OperatorSessionResponse> {
  const { userId, tokens } = await verifyMfa(deps, form, address);
  const operator = await findOperatorIdentity(deps.db, userId);
  if (!operator) throw new UnauthorizedError(MESSAGES.notAuthenticated);
  await deps.throttle.clear(usernameFailuresBucket(operator.username));
  return { ...tokens, ...(await flagsOf(deps, userId)), operator: operatorIdentity(operator) };
}

/**
 * POST /logout/: ends the caller's session, every refresh token rotated from its login (the access token dies
 * with it: authenticate.ts reads the family). The user's other sessions stay.
 */
export async function logout(deps: AccountsDeps, user: AuthenticatedUser): Promise<void> {
  await revokeFamily(deps.db, user.sessionFamilyId, deps.now());
}

/** POST /token/refresh/: rotation; a reused token revokes its family. */
export async function refresh(deps: AccountsDeps, form: TokenRefreshRequest): Promise<SessionResponse> {
  const result = await rotateSession(deps, form.refresh);
  if (!result.ok) throw new UnauthorizedError(MESSAGES.badRefreshToken);
  return { ...result.tokens, ...(await flagsOf(deps, result.userId)) };
}

/** Django's UNIQUE violation mapped to the sign-up field it concerns; null for any other error. */
export function uniqueViolationField(error: unknown): 'username' | 'email' | null {
  const { code, constraint, message } = (error ?? {}) as {
    code?: unknown;
    constraint?: unknown;
    message?: unknown;
  };
  if (code !== '23505') return null;
  const where = `${String(constraint ?? '')} ${String(message ?? '')}`;
  if (where.includes('users_username_key')) return 'username';
  if (where.includes('users_email_key')) return 'email';
  return null;
}

function textField(body: unknown, field: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[field];
  return typeof value === 'string' ? value.trim() : undefined;
}

type SignUpPersonalFields = Partial<Record<'username' | 'name' | 'last_name' | 'email', string>>;

/** Django's password rules for a sign-up, in Django's order: the shared struct's and the server-only ones. */
function signUpPasswordProblems(password: string, fields: SignUpPersonalFields): string[] {
  const personal: PasswordPersonalData = {
    username: fields.username,
    firstName: fields.name,
    lastName: fields.last_name,
    email: fields.email,
  };
  return passwordProblems(password, personal, SIGN_UP_PASSWORD_MESSAGES);
}

/** POST /register/ is throttled per address before anything else, so refused forms count too. */
export async function throttleSignUp(deps: AccountsDeps, address: string): Promise<void> {
  await deps.publicWrites.take('signUp', { address });
}

/**
 * The 400 of a sign-up its struct refused: a missing CAPTCHA token reads as a failed CAPTCHA, and a typed
 * password lists every rule it breaks in Django's order, the server-only ones too (similar, common), so the
 * user sees them all at once.
 */
export function signUpRefusal(errors: FieldErrorMap, body: unknown): FieldErrors {
  const reported: FieldErrorMap = { ...errors };
  if (reported.recaptcha_token) reported.recaptcha_token = [CAPTCHA_FAILED_MESSAGE];
  const password =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>).password1 : null;
  if (typeof password === 'string' && password !== '') {
    delete reported.password1;
    const personal = {
      username: textField(body, 'username'),
      name: textField(body, 'name'),
      last_name: textField(body, 'last_name'),
      email: textField(body, 'email'),
    };
    addErrors(reported, 'password1', signUpPasswordProblems(password, personal));
  }
  return new FieldErrors(reported);
}

/**
 * POST /register/ with a body its struct accepted (registerRequestValidation): the server-only password rules,
 * free username and e-mail, then the CAPTCHA (spent last, so a form error does not cost the user a new proof of
 * work), then user + company in one transaction.
 */
export async function register(
  deps: AccountsDeps,
  value: SignUpRequest,
  address: string,
): Promise<{ message: string }> {
  const errors: FieldErrorMap = {};
  addErrors(errors, 'password1', signUpPasswordProblems(value.password1, value));
  if (hasErrors(errors)) throw new FieldErrors(errors);

  const taken = await usernameOrEmailTaken(deps.db, value.username, value.email);
  if (taken.username) addErrors(errors, 'username', [ACCOUNT_MESSAGES.usernameTaken]);
  if (taken.email) addErrors(errors, 'email', [ACCOUNT_MESSAGES.emailTaken]);
  if (hasErrors(errors)) throw new FieldErrors(errors);

  if (!(await deps.captcha.verify(value.recaptcha_token, 'register', address))) {
    throw new FieldErrors({ recaptcha_token: [CAPTCHA_FAILED_MESSAGE] });
  }

  const passwordHash = await hashPassword(value.password1);
  try {
    await inTransaction(deps.db, (trx) =>
      insertAccount(trx, {
        username: value.username,
        email: value.email,
        passwordHash,
        firstName: value.name,
        lastName: value.last_name,
        mobilePhone: value.mobile_phone,
        receiveNotification: value.receive_notification,
        companyName: value.company,
      }),
    );
  } catch (error) {
    // Two sign-ups racing for the same username or e-mail: the index decides, the loser gets the field error.
    const field = uniqueViolationField(error);
    if (field === 'username') throw new FieldErrors({ username: [ACCOUNT_MESSAGES.usernameTaken] });
    if (field === 'email') throw new FieldErrors({ email: [ACCOUNT_MESSAGES.emailTaken] });
    throw error;
  }
  return { message: ACCOUNT_MESSAGES.registered };
}

function toProfile(row: ProfileRow): ProfileResponse {
  const profile: ProfileResponse = {
    first_name: row.first_name,
    last_name: row.last_name,
    mobile_phone: row.mobile_phone,
    company: row.company_name ?? '',
    receive_notification: row.receive_notification,
  };
  // Read-only, and only when present (spec §3 "Profile").
  if (row.disbursement_clabe) profile.disbursement_clabe = row.disbursement_clabe;
  if (row.wallet_clabe) profile.wallet_clabe = row.wallet_clabe;
  if (row.credit_payment_clabe) profile.credit_payment_clabe = row.credit_payment_clabe;
  return profile;
}

async function loadProfile(deps: AccountsDeps, user: AuthenticatedUser): Promise<ProfileRow> {
  const row = await findProfile(deps.db, user.id);
  if (!row) throw new UnauthorizedError(MESSAGES.notAuthenticated);
  return row;
}

export async function getProfile(deps: AccountsDeps, user: AuthenticatedUser): Promise<ProfileResponse> {
  return toProfile(await loadProfile(deps, user));
}

/** PUT /profile/: names, phone, company and the notification flag; CLABEs are ignored if sent. */
export async function updateProfile(
  deps: AccountsDeps,
  user: AuthenticatedUser,
  form: ProfileUpdate,
): Promise<ProfileResponse> {
  const current = await loadProfile(deps, user);
  const { company, ...personal } = form;
  const renames = current.company_id !== null && company !== (current.company_name ?? '');
  // The legal name of a company whose SAT link is authorized comes from SAT; users cannot rename it.
  if (renames && current.sat_status === SatStatus.AUTHORIZED) {
    throw new FieldErrors({ company: [ACCOUNT_MESSAGES.companyLockedBySat] });
  }
  await inTransaction(deps.db, async (trx) => {
    await updateUserProfile(trx, user.id, personal);
    if (renames && current.company_id !== null) await renameCompany(trx, current.company_id, company);
  });
  return toProfile(await loadProfile(deps, user));
}

/**
 * The 400 of a password change its struct refused. Django reports password-rule failures on their field; the
 * spec's client shows the first old_password message (§8), so every message is also listed under old_password.
 */
export function passwordChangeRefusal(errors: FieldErrorMap): FieldErrors {
  const reported: FieldErrorMap = { ...errors };
  addErrors(reported, 'old_password', [...(errors.new_password1 ?? []), ...(errors.new_password2 ?? [])]);
  return new FieldErrors(reported);
}

/**
 * POST /update-password/ with a body its struct accepted: the current password, then the server-only rules
 * (Django: on new_password2), every message again under old_password with the wrong current password first.
 * Other sessions of the user end; the caller's stays (docs/decisions/0008).
 */
export async function changePassword(
  deps: AccountsDeps,
  user: AuthenticatedUser,
  form: PasswordChange,
): Promise<{ message: string }> {
  const failuresBucket = `password-change:user:${user.id}`;
  // Counted up front (parallel guesses cannot slip under the limit), given back when the current password is right.
  const ticket = await deps.throttle.take([[failuresBucket, THROTTLE_RULES.passwordChangeFailuresPerUser]]);

  const errors: FieldErrorMap = {};
  const row = await loadProfile(deps, user);
  if (await verifyPassword(row.password_hash, form.old_password)) await deps.throttle.refund(ticket);
  else errors.old_password = [ACCOUNT_MESSAGES.wrongCurrentPassword];

  const personal = {
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
  };
  addErrors(errors, 'new_password2', passwordProblems(form.new_password1, personal, NEW_PASSWORD_MESSAGES));
  addErrors(errors, 'old_password', errors.new_password2 ?? []);
  if (hasErrors(errors)) throw new FieldErrors(errors);

  await updatePasswordHash(deps.db, user.id, await hashPassword(form.new_password1));
  await revokeUserSessions(deps, user.id, user.sessionFamilyId);
  return { message: ACCOUNT_MESSAGES.passwordChanged };
}
