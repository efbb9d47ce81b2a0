import { array, boolean, type Infer, literal, string, type, union } from 'superstruct';
import { payload, requiredSecret, requiredText } from './fields';
import { LoginResponse } from './session';

// Operators' two-step login (docs/decisions/0050-operators-identity.md): POST /api/accounts/login/ answers a
// challenge instead of tokens for a user with operator roles, and POST /api/accounts/login/mfa/ trades the
// challenge and a code for the session.

/** Texts of the operators' login the server answers and the browser shows, written once for both. */
export const OPERATOR_LOGIN_MESSAGES = {
  codeRequired: 'Escribe el código de 6 dígitos de tu aplicación o un código de recuperación.',
  wrongCode:
    'El código no es correcto. Revisa la hora de tu teléfono y escribe el código que se muestra ahora.',
  challengeExpired: 'La verificación expiró o ya se usó. Ingresa de nuevo tu usuario y contraseña.',
  locked: 'Demasiados códigos incorrectos. Tu acceso quedó bloqueado 15 minutos; intenta de nuevo después.',
  /** An operator who typed their password at the providers' and corporates' login (/auth/ingresar/). */
  wrongDoor:
    'Eres operador de Flujo: ingresa en /operacion/ingresar/ con tu contraseña y tu código de verificación.',
  notEnrolled:
    'Tu cuenta de operador no tiene la verificación en dos pasos configurada. Pide una inscripción nueva.',
} as const;

/** The longest code accepted: a recovery code with its dashes, or 6 digits. */
export const MAX_MFA_CODE_LENGTH = 32;

/** POST /login/ for an operator: the password was right; the code comes next. */
export const MfaChallengeResponse = type({
  mfa_required: literal(true),
  mfa_token: string(),
});
export type MfaChallengeResponse = Infer<typeof MfaChallengeResponse>;

const mfaCode = () =>
  requiredText({ message: OPERATOR_LOGIN_MESSAGES.codeRequired, maxLength: MAX_MFA_CODE_LENGTH });

/** The code step's form: the authenticator's 6 digits or a recovery code. */
export const MfaCodeForm = payload({ code: mfaCode() });
export type MfaCodeForm = Infer<typeof MfaCodeForm>;

/** POST /login/mfa/. */
export const MfaLoginRequest = payload({
  mfa_token: requiredSecret(OPERATOR_LOGIN_MESSAGES.challengeExpired),
  code: mfaCode(),
});
export type MfaLoginRequest = Infer<typeof MfaLoginRequest>;

/** Who signed in, as the operators' top bar shows it. */
export const OperatorIdentity = type({
  username: string(),
  first_name: string(),
  last_name: string(),
  roles: array(string()),
});
export type OperatorIdentity = Infer<typeof OperatorIdentity>;

/** POST /login/mfa/: the usual session answer plus the operator's identity. */
export const OperatorSessionResponse = type({
  access: string(),
  refresh: string(),
  is_corporate: boolean(),
  operator: OperatorIdentity,
});
export type OperatorSessionResponse = Infer<typeof OperatorSessionResponse>;

/** What /login/ answers at the operators' door: the challenge, or (for anyone else) the usual tokens. */
export const OperatorLoginAnswer = union([MfaChallengeResponse, LoginResponse]);
export type OperatorLoginAnswer = Infer<typeof OperatorLoginAnswer>;
