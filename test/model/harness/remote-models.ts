/**
 * Which model test files `npm run test:model:remote` runs against a running Flujo (decision 0048), and why each
 * other one stays in process. A file runs remotely when everything its world needs goes through
 * harness/world.ts and the browser's own calls; the reasons below say what keeps the others in.
 */
export const REMOTE_MODEL_FILES = [
  'test/model/invoice-lifecycle.model.test.tsx',
  'test/model/quotation.model.test.tsx',
  'test/model/authorization-request.model.test.tsx',
  'test/model/forward-payment.model.test.tsx',
] as const;

/** Model id → why its generated paths run only in process (printed by the remote run, listed in the README). */
export const IN_PROCESS_ONLY: Record<string, string> = {
  'bulk-authorization':
    'builds its spreadsheet from the demo corporate and reads the pre-authorization batch from the database',
  'demo-request': 'counts the rows of demo_requests, which no API exposes',
  'factoring-enrolment':
    'enables factoring and settles instalments in the database; no test-support route for them yet',
  'invoice-download': 'reads the outbox of the e-mail it sends from the database',
  'password-change': 'signs in as a demo user whose password it changes and restores in the database',
  'password-reset': 'reads the reset link from the mail outbox in the database',
  'password-reset-request': 'reads the mail outbox in the database',
  'pre-authorization': 'lists the demo corporate’s seeded invoices, which a fresh world does not have',
  profile: 'edits the demo provider’s profile and reads it back from the database',
  referral: 'reads the referral and its e-mail from the database',
  'sat-link': 'approves and rejects the SAT link with the sandbox connector in the database',
  session: 'expires and revokes refresh tokens in the database and injects the clock',
  'sign-up': 'creates accounts through the public form and reads them back from the database',
  'supplier-requests': 'lists the demo corporate’s seeded providers and alliances',
};
