// Every localStorage key the app owns, in one place (spec §9: user store, pre-authorization, token, dark mode).
export const ACCESS_TOKEN_KEY = 'access';
export const REFRESH_TOKEN_KEY = 'refresh';
export const USER_STORE_KEY = 'flujo.user';
export const PRE_AUTHORIZATION_STORE_KEY = 'flujo.preAuthorization';
export const DARK_MODE_KEY = 'flujo.darkMode';
