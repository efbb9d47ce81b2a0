import {
  type MfaLoginRequest,
  OperatorLoginAnswer,
  OperatorSessionResponse,
} from '../domain/schemas/operator-session';
import type { LoginRequest } from '../domain/schemas/session';
import { ACCOUNTS_API_URL } from './api-config';
import { request } from './http';

/** POST /login/ at the operators' door: a challenge for an operator (docs/decisions/0050). */
export function operatorLogin(credentials: LoginRequest): Promise<OperatorLoginAnswer> {
  return request(`${ACCOUNTS_API_URL}/login/`, OperatorLoginAnswer, { method: 'POST', body: credentials });
}

/** POST /login/mfa/: the challenge and the code → the operator's session. */
export function verifyOperatorCode(form: MfaLoginRequest): Promise<OperatorSessionResponse> {
  return request(`${ACCOUNTS_API_URL}/login/mfa/`, OperatorSessionResponse, { method: 'POST', body: form });
}
