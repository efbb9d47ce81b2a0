import type {
  DemoRequest,
  LoginRequest,
  LoginResponse,
  PasswordChange,
  PasswordReset,
  PasswordResetRequest,
  Profile,
  ProfileUpdate,
  SignUpRequest,
  TokenRefreshResponse,
} from '../domain/schemas/session';
import { INVALID_REFRESH_TOKEN } from '../domain/session';
import { REFRESH_TOKEN_KEY } from '../stores/storage-keys';
import { ACCOUNTS_API_URL, INVOICES_API_URL } from './api-config';
import { request } from './http';

export interface MessageResponse {
  message: string;
}

export interface CaptchaConfig {
  provider: 'altcha' | 'recaptcha';
  site_key?: string;
}

export function requestDemo(values: DemoRequest, source = 'solicitar-demo'): Promise<MessageResponse> {
  return request<MessageResponse>(`${ACCOUNTS_API_URL}/request-demo/?source=${encodeURIComponent(source)}`, {
    method: 'POST',
    body: values,
  });
}

export function login(credentials: LoginRequest): Promise<LoginResponse> {
  return request<LoginResponse>(`${ACCOUNTS_API_URL}/login/`, { method: 'POST', body: credentials });
}

/** Spec §8: a missing refresh token raises 'Invalid refresh token' (the session then ends). */
export function refreshToken(): Promise<TokenRefreshResponse> {
  const refresh = localStorage.getItem(REFRESH_TOKEN_KEY);
  if (!refresh) return Promise.reject(new Error(INVALID_REFRESH_TOKEN));
  return request<TokenRefreshResponse>(`${ACCOUNTS_API_URL}/token/refresh/`, {
    method: 'POST',
    body: { refresh },
    renewToken: false,
  });
}

export function register(values: SignUpRequest): Promise<MessageResponse> {
  return request<MessageResponse>(`${ACCOUNTS_API_URL}/register/`, { method: 'POST', body: values });
}

export function captchaConfig(): Promise<CaptchaConfig> {
  return request<CaptchaConfig>(`${ACCOUNTS_API_URL}/captcha/config/`);
}

export const CAPTCHA_CHALLENGE_URL = `${ACCOUNTS_API_URL}/captcha/challenge/`;

export function getProfile(): Promise<Profile> {
  return request<Profile>(`${ACCOUNTS_API_URL}/profile/`);
}

export function updateProfile(values: ProfileUpdate): Promise<Profile> {
  return request<Profile>(`${ACCOUNTS_API_URL}/profile/`, { method: 'PUT', body: values });
}

export function changePassword(values: PasswordChange): Promise<MessageResponse> {
  return request<MessageResponse>(`${ACCOUNTS_API_URL}/update-password/`, { method: 'POST', body: values });
}

// The two reset calls live on the invoices service (spec §7 "Invoices service, common").
export function requestPasswordReset(values: PasswordResetRequest): Promise<MessageResponse> {
  return request<MessageResponse>(`${INVOICES_API_URL}/users/request-reset-password/`, {
    method: 'POST',
    body: values,
  });
}

export function resetPassword(values: PasswordReset): Promise<MessageResponse> {
  return request<MessageResponse>(`${INVOICES_API_URL}/users/reset-password/`, {
    method: 'POST',
    body: values,
  });
}
