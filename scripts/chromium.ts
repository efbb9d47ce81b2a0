// Debian's Chromium and the flags every script and the browser tests launch it with: Playwright's own browser
// download cannot work on this network, and without the background-networking flags Chromium's connections
// are refused by it (shared/research/verified-stack.md).
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
] as const;
