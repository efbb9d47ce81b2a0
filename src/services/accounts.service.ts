import type { DemoRequest } from '../domain/schemas/session';
import { ACCOUNTS_API_URL } from './api-config';
import { request } from './http';

export interface MessageResponse {
  message: string;
}

export function requestDemo(values: DemoRequest, source = 'solicitar-demo'): Promise<MessageResponse> {
  return request<MessageResponse>(`${ACCOUNTS_API_URL}/request-demo/?source=${encodeURIComponent(source)}`, {
    method: 'POST',
    body: values,
  });
}
