import { OPERATOR_LOGIN_MESSAGES, OperatorLoginAnswer } from '../domain/schemas/operator-session';
import {
  CaptchaConfig,
  type DemoRequest,
  type LoginRequest,
  type LoginResponse,
  type PasswordChange,
  type PasswordReset,
  type PasswordResetRequest,
  PlainMessageResponse,
  Profile,
  type ProfileUpdate,
  type SignUpRequest,
  TokenRefreshResponse,
} from '../domain/schemas/session';
import { INVALID_REFRESH_TOKEN } from '../domain/session';
import { REFRESH_TOKEN_KEY } from '../stores/storage-keys';
import { ACCOUNTS_API_URL, INVOICES_API_URL } from './api-config';
import { ApiError, request, requestFile } from './http';

export function requestDemo(values: DemoRequest, source = 'solicitar-demo'): Promise<PlainMessageResponse> {
  return request(
    `${ACCOUNTS_API_URL}/request-demo/?source=${encodeURIComponent(source)}`,
    PlainMessageResponse,
    {
      method: 'POST',
      body: values,
    },
  );
}

/**
 * POST /login/ at the providers' and corporates' door. An operator's password answers a challenge for the code
 * instead of tokens (decision 0050); this login cannot finish it, so the form says where operators sign in.
 */
export async function login(credentials: LoginRequest): Promise<LoginResponse> {
  const answer = await request(`${ACCOUNTS_API_URL}/login/`, OperatorLoginAnswer, {
    method: 'POST',
    body: credentials,
  });
  if ('mfa_required' in answer) throw new ApiError(403, { detail: OPERATOR_LOGIN_MESSAGES.wrongDoor });
  return answer;
}

/** POST /logout/ with the stored session: the server revokes this login's refresh tokens (decision 0061). */
export async function logout(): Promise<void> {
  await requestFile(`${ACCOUNTS_API_URL}/logout/`, 'application/json', { method: 'POST' });
}

/** Spec §8: a missing refresh token raises 'Invalid refresh token' (the session then ends). */
export function refreshToken(): Promise<TokenRefreshResponse> {
  const refresh = localStorage.getItem(REFRESH_TOKEN_KEY);
  if (!refresh) return Promise.reject(new Error(INVALID_REFRESH_TOKEN));
  return request(`${ACCOUNTS_API_URL}/token/refresh/`, TokenRefreshResponse, {
    method: 'POST',
    body: { refresh },
    renewToken: false,
  });
}

export function register(values: SignUpRequest): Promise<PlainMessageResponse> {
  return request(`${ACCOUNTS_API_URL}/register/`, PlainMessageResponse, { method: 'POST', body: values });
}

export function captchaConfig(): Promise<CaptchaConfig> {
  return request(`${ACCOUNTS_API_URL}/captcha/config/`, CaptchaConfig);
}

export const CAPTCHA_CHALLENGE_URL = `${ACCOUNTS_API_URL}/captcha/challenge/`;
/** The ALTCHA widget's challenges for a login the server asked to prove (decision 0061). */
export const LOGIN_CAPTCHA_CHALLENGE_URL = `${CAPTCHA_CHALLENGE_URL}?action=login`;

export function getProfile(): Promise<Profile> {
  return request(`${ACCOUNTS_API_URL}/profile/`, Profile);
}

export function updateProfile(values: ProfileUpdate): Promise<Profile> {
  return request(`${ACCOUNTS_API_URL}/profile/`, Profile, { method: 'PUT', body: values });
}

export function changePassword(values: PasswordChange): Promise<PlainMessageResponse> {
  return request(`${ACCOUNTS_API_URL}/update-password/`, PlainMessageResponse, {
    method: 'POST',
    body: values,
  });
}

// The two reset calls live on the invoices service (spec §7 "Invoices service, common").
export function requestPasswordReset(values: PasswordResetRequest): Promise<PlainMessageResponse> {
  return request(`${INVOICES_API_URL}/users/request-reset-password/`, PlainMessageResponse, {
    method: 'POST',
    body: values,
  });
}

export function resetPassword(values: PasswordReset): Promise<PlainMessageResponse> {
  return request(`${INVOICES_API_URL}/users/reset-password/`, PlainMessageResponse, {
    method: 'POST',
    body: values,
  });
}
