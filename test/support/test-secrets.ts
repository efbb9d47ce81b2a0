/**
 * The tests' SAT_ENCRYPTION_KEY: fixed, so the demo operators' TOTP secrets sealed into the PGlite template open in
 * every test app (testConfig). Not a secret: nothing real is ever sealed with it.
 */
export const TEST_SECRET_KEY = Buffer.alloc(32, 0x5a);
