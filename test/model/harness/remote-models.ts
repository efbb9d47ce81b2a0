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
    'uploads CFDI of the demo provider to the demo corporate (fixed RFCs) and reads invoices from the database; not yet moved to world.ts',
  'demo-request': 'counts the rows of demo_requests, which no API reads; would need a test-support route',
  'factoring-enrolment':
    'enables factoring and reads enrolments in the database; no test-support route for factoring:enable yet',
  'invoice-download': 'reads the ticked invoice’s UUID from the database; not yet moved to world.ts',
  'password-change':
    'changes the demo user’s password, then restores it and clears login throttles in the database',
  'password-reset': 'restores the demo user’s password in the database after each path',
  'password-reset-request': 'reads the reset e-mail from the mail outbox in the database',
  'pre-authorization':
    'reads its invoices from the database and imports them for the demo corporate; not yet moved to world.ts',
  profile:
    'signs in as the demo provider and reads its profile through the in-process app; not yet moved to world.ts',
  referral: 'counts the rows of referrals, which no API reads; would need a test-support route',
  'sat-link': 'creates unlinked companies and approves or rejects their SAT link in the database',
  session:
    'signs in as the demo user and forwards a held login to the in-process app; not yet moved to world.ts',
  'sign-up': 'reads the new account from the database and solves the CAPTCHA with the in-process app’s key',
  'supplier-requests':
    'walks invoices with the lifecycle service in the database and reads statuses there; not yet moved to world.ts',
};
