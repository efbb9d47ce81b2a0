import { array, boolean, enums, type Infer, literal, nullable, optional, string, type } from 'superstruct';
import { satStatusCode } from './common';
import {
  companyRfc,
  emailAddress,
  flag,
  MAX_LENGTH,
  MESSAGES,
  mustMatch,
  password,
  payload,
  phoneNumber,
  requiredSecret,
  requiredText,
  tooLongMessage,
  username,
} from './fields';

/** Answers of the server that the browser shows or recognises, written once for both. */
export const SERVER_MESSAGES = {
  demoRequestSent: 'Solicitud enviada con éxito',
  // NOTE: the spec's client (§8) maps this exact English text to 'El correo electrónico no está registrado'.
  unknownResetEmail: 'User with this email does not exist',
  taxLinkSent: 'Credenciales enviadas correctamente. Espera a que tu vinculación sea aprobada',
  // The 429 of every public form (demo request, newsletter, referral, sign-up, reset request); the forms show it.
  tooManyRequests: 'Demasiadas solicitudes. Intenta de nuevo en unos minutos.',
  // After a few failed logins for a username (from any address) the next one needs the CAPTCHA 'login'.
  loginCaptchaRequired: 'Por seguridad, confirma que no eres un robot y vuelve a ingresar.',
} as const;

// User-service payloads and responses (spec §3, §5, §7). Payloads strip unknown fields on coercion
// (see `payload`); responses tolerate extra fields.

/**
 * POST /login/. `captcha_token` (the CAPTCHA action 'login') is needed only once the server has answered
 * `captcha_required: true` for the username (a few failures from any address).
 */
export const LoginRequest = payload({
  username: requiredText(),
  password: requiredSecret(),
  captcha_token: optional(string()),
});
export type LoginRequest = Infer<typeof LoginRequest>;

/** The 400 of a login that needs the CAPTCHA first (missing, wrong or already used token). */
export const LoginCaptchaRequired = type({
  captcha_required: literal(true),
  captcha_token: array(string()),
});
export type LoginCaptchaRequired = Infer<typeof LoginCaptchaRequired>;

/** Login returns the tokens; the flags may come with it or from the token refresh. */
export const LoginResponse = type({
  access: string(),
  refresh: string(),
  sat_credentials_status: optional(satStatusCode),
  corporate_can_pay_costs: optional(boolean()),
  has_factoring: optional(boolean()),
  is_corporate: optional(boolean()),
});
export type LoginResponse = Infer<typeof LoginResponse>;

export const TokenRefreshRequest = payload({ refresh: requiredSecret() });
export type TokenRefreshRequest = Infer<typeof TokenRefreshRequest>;

export const TokenRefreshResponse = type({
  access: string(),
  refresh: optional(string()),
  sat_credentials_status: satStatusCode,
  corporate_can_pay_costs: boolean(),
  has_factoring: boolean(),
  is_corporate: boolean(),
});
export type TokenRefreshResponse = Infer<typeof TokenRefreshResponse>;

// The column bounds, the username rule and the all-digits rule are here, not only on the server, so the
// browser refuses what the server would before it spends a CAPTCHA proof of work. The rules only the server
// can check (similar to the personal data, common passwords) are in server/modules/accounts/password-rules.ts.
const signUpFields = {
  company: requiredText({ maxLength: MAX_LENGTH.company }),
  email: emailAddress({ tooLong: tooLongMessage(MAX_LENGTH.email) }),
  last_name: requiredText({ maxLength: MAX_LENGTH.personName }),
  mobile_phone: phoneNumber(),
  name: requiredText({ maxLength: MAX_LENGTH.personName }),
  password1: password({
    required: MESSAGES.passwordRequired,
    tooShort: MESSAGES.passwordTooShort,
    numeric: MESSAGES.passwordNumeric,
  }),
  password2: requiredSecret(MESSAGES.confirmRequired),
  username: username(),
  receive_notification: flag(),
};

/** The sign-up form's fields (spec §5); the CAPTCHA token is added when the form is sent. */
export const SignUpForm = mustMatch(
  payload(signUpFields),
  'password1',
  'password2',
  MESSAGES.passwordsMustMatch,
);
export type SignUpForm = Infer<typeof SignUpForm>;

/** POST /register/; spec §5 sign-up rules, passwords must match (reported on password2). */
export const SignUpRequest = mustMatch(
  payload({
    ...signUpFields,
    // The CAPTCHA action 'register' runs before sign-up; no token, no sign-up (spec §5).
    recaptcha_token: requiredSecret(),
  }),
  'password1',
  'password2',
  MESSAGES.passwordsMustMatch,
);
export type SignUpRequest = Infer<typeof SignUpRequest>;

/** POST /users/request-reset-password/. */
export const PasswordResetRequest = payload({ email: emailAddress() });
export type PasswordResetRequest = Infer<typeof PasswordResetRequest>;

/** POST /users/reset-password/: at least 8 characters, not entirely numeric (spec §5). */
export const PasswordReset = payload({
  new_password: password({
    required: MESSAGES.passwordRequired,
    tooShort: MESSAGES.passwordTooShort,
    numeric: MESSAGES.newPasswordNumeric,
  }),
  token: requiredSecret(),
});
export type PasswordReset = Infer<typeof PasswordReset>;

/** POST /update-password/; confirmation reported on new_password2. */
export const PasswordChange = mustMatch(
  payload({
    old_password: requiredSecret(),
    new_password1: password({
      required: MESSAGES.passwordRequired,
      tooShort: MESSAGES.newPasswordTooShort,
      numeric: MESSAGES.newPasswordNumeric,
    }),
    new_password2: requiredSecret(MESSAGES.confirmRequired),
  }),
  'new_password1',
  'new_password2',
  MESSAGES.passwordsMustMatch,
);
export type PasswordChange = Infer<typeof PasswordChange>;

/** Responses that only carry a server message (password change, reset, referral). */
export const PlainMessageResponse = type({ message: string() });
export type PlainMessageResponse = Infer<typeof PlainMessageResponse>;

/** GET /profile/; the CLABEs are read-only and shown only when present. */
export const Profile = type({
  first_name: string(),
  last_name: string(),
  mobile_phone: string(),
  company: string(),
  receive_notification: boolean(),
  disbursement_clabe: optional(nullable(string())),
  wallet_clabe: optional(nullable(string())),
  credit_payment_clabe: optional(nullable(string())),
});
export type Profile = Infer<typeof Profile>;

/** PUT /profile/: the editable fields only. */
export const ProfileUpdate = payload({
  first_name: requiredText({ maxLength: MAX_LENGTH.personName }),
  last_name: requiredText({ maxLength: MAX_LENGTH.personName }),
  mobile_phone: phoneNumber(),
  company: requiredText({ maxLength: MAX_LENGTH.company }),
  receive_notification: flag(),
});
export type ProfileUpdate = Infer<typeof ProfileUpdate>;

/**
 * POST /request-demo/: all five required, email valid, the texts bounded (names as the account's, the company at
 * MAX_LENGTH.demoCompany) with 'no más de N caracteres' at the field. Shared by the browser form and the server.
 */
export const DemoRequest = payload({
  first_name: requiredText({ maxLength: MAX_LENGTH.personName }),
  last_name: requiredText({ maxLength: MAX_LENGTH.personName }),
  phone: phoneNumber(),
  email: emailAddress({ tooLong: tooLongMessage(MAX_LENGTH.email) }),
  company: requiredText({ maxLength: MAX_LENGTH.demoCompany }),
});
export type DemoRequest = Infer<typeof DemoRequest>;

/**
 * POST /api/newsletter/ (the footer's one field). An address over the RFC 5321 bound cannot be delivered,
 * so it gets the same 'Debe ser un correo valido'. `origen`: only the public pages' plain HTML form sends it,
 * the page to go back to.
 */
export const NewsletterSubscription = payload({
  email: emailAddress({ tooLong: MESSAGES.email }),
  origen: optional(string()),
});
export type NewsletterSubscription = Infer<typeof NewsletterSubscription>;

/** POST providers/refer-customer/: all four required, the phone 10 digits (src/domain/phone.ts). */
export const Referral = payload({
  name: requiredText({ maxLength: MAX_LENGTH.personName }),
  company: requiredText({ maxLength: MAX_LENGTH.company }),
  email: emailAddress({ tooLong: tooLongMessage(MAX_LENGTH.email) }),
  phone: phoneNumber(),
});
export type Referral = Infer<typeof Referral>;

/**
 * POST providers/alliances/: the provider asks Flujo to bring one of its clients into an alliance (decision
 * 0038). The client's RFC must be a real company's; the phone is 10 digits.
 */
export const AllianceRequest = payload({
  rfc: companyRfc(),
  company: requiredText({ maxLength: MAX_LENGTH.company }),
  contact_name: requiredText({ maxLength: MAX_LENGTH.personName }),
  email: emailAddress({ tooLong: tooLongMessage(MAX_LENGTH.email) }),
  phone: phoneNumber(),
});
export type AllianceRequest = Infer<typeof AllianceRequest>;

/** POST /ciec/: SAT link credentials. The RFC is also checked (format, date, not generic). */
export const TaxLink = payload({
  rfc: companyRfc(),
  ciec: requiredSecret(),
});
export type TaxLink = Infer<typeof TaxLink>;

/** POST /ciec/: the link is now under review (SENT). */
export const TaxLinkSent = type({ message: string(), sat_credentials_status: satStatusCode });
export type TaxLinkSent = Infer<typeof TaxLinkSent>;

/** GET /captcha/config/: which CAPTCHA the browser runs before sign-up; reCAPTCHA comes with its site key. */
export const CaptchaConfig = type({
  provider: enums(['altcha', 'recaptcha']),
  site_key: optional(string()),
});
export type CaptchaConfig = Infer<typeof CaptchaConfig>;

/** GET /ciec/: the company's SAT-link status, which the waiting screen polls. */
export const SatLinkStatus = type({
  sat_credentials_status: satStatusCode,
  rfc: nullable(string()),
  /** Why a claim ended without approval (another account won the RFC, it lapsed); absent otherwise. */
  reason: optional(string()),
});
export type SatLinkStatus = Infer<typeof SatLinkStatus>;
