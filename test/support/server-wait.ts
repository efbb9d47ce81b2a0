/**
 * How long a test waits for anything behind a real-server round trip (the app behind MSW answers from
 * PGlite; argon2 and the CAPTCHA's proof of work cost CPU). Generous because a loaded machine is slow, not
 * wrong: a sign-up toast found in 0.9 s alone missed testing-library's 1 s default under load. No test
 * asserts on elapsed time; this only bounds how long a failing wait takes to fail.
 */
export const SERVER_WAIT_MS = 15_000;

/** The options argument of `findBy*`, `findAllBy*` and `waitFor` for a wait on the server. */
export const SERVER_WAIT = { timeout: SERVER_WAIT_MS } as const;
