import { proxy, subscribe } from 'valtio';
import { DARK_MODE_KEY } from './storage-keys';

/** Spec §3 "Theme": the visitor's dark-mode preference, persisted in localStorage. */
export interface ThemeState {
  darkMode: boolean;
}

function load(): boolean {
  try {
    return localStorage.getItem(DARK_MODE_KEY) === 'true';
  } catch {
    // No storage (prerendering in Node, or a browser that blocks it): light mode.
    return false;
  }
}

export const themeStore = proxy<ThemeState>({ darkMode: load() });

subscribe(themeStore, () => {
  try {
    localStorage.setItem(DARK_MODE_KEY, String(themeStore.darkMode));
  } catch {
    // Storage blocked or full: the choice still applies to this page, it just is not remembered.
  }
});

export function setDarkMode(darkMode: boolean): void {
  themeStore.darkMode = darkMode;
}
