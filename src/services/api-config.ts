// The SPA reads both service base URLs from build-time configuration, so they can be deployed apart.
export const INVOICES_API_URL: string = import.meta.env.VITE_INVOICES_API_URL ?? '/api';
export const ACCOUNTS_API_URL: string = import.meta.env.VITE_ACCOUNTS_API_URL ?? '/api/accounts';
