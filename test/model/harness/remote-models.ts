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
  'test/model/invoice-download.model.test.tsx',
  'test/model/profile.model.test.tsx',
  'test/model/session.model.test.tsx',
  'test/model/pre-authorization.model.test.tsx',
  'test/model/supplier-requests.model.test.tsx',
  'test/model/bulk-authorization.model.test.tsx',
  'test/model/password-reset-request.model.test.tsx',
] as const;

/** Model id → why its generated paths run only in process (printed by the remote run, listed in the README). */
export const IN_PROCESS_ONLY: Record<string, string> = {
  'cfdi-proof':
    "its events are SAT's answers and the seal check, which no HTTP caller sends: its paths drive proofTransition, the function the importer, the desk and the cfdi-sat-check job move proofs with",
  'collection-actions':
    'needs MFA-verified operator sessions (proposer and approver), which only the in-process world makes (world.operatorSession), and disburses its invoice through the desk service in process (ops disburse --force has no HTTP route)',
  'corporate-onboarding':
    'needs an MFA-verified operator session, which only the in-process world makes (world.operatorSession)',
  'credit-programme':
    'needs two MFA-verified operator sessions (proposer and approver), which only the in-process world makes (world.operatorSession)',
  'portfolio-actions':
    'needs an MFA-verified operator session, which only the in-process world makes (world.operatorSession), and reads the demo corporate’s id from the database',
  'demo-request': 'counts the rows of demo_requests, which no API reads; would need a test-support route',
  'desk-actions':
    'needs an MFA-verified operator session (world.operatorSession) and advances on the desk, written in the database (test/support/control-desk.ts)',
  'desk-item':
    'needs an MFA-verified operator session, which only the in-process world makes (world.operatorSession), and the automation’s forced approval calls the desk service in process (ops disburse --force has no HTTP route)',
  'disbursement-actions':
    'needs MFA-verified operator sessions (world.operatorSession) and approved advances on the desk, written in the database (test/support/control-desk.ts)',
  'factoring-enrolment':
    'enables factoring and reads enrolments in the database; no test-support route for factoring:enable yet',
  'operator-session':
    'computes the demo operator’s TOTP codes and resets its last used step, lockout and recovery codes in the database',
  'password-change':
    'changes the demo user’s password, then restores it and clears login throttles in the database',
  'password-reset': 'restores the demo user’s password in the database after each path',
  'programme-actions':
    'needs MFA-verified operator sessions, which only the in-process world makes (world.operatorSession), and disburses its invoice through the desk service in process (ops disburse --force has no HTTP route)',
  referral: 'counts the rows of referrals, which no API reads; would need a test-support route',
  'sat-link': 'creates unlinked companies and approves or rejects their SAT link in the database',
  'sign-up':
    'creates a company without an RFC, so it cannot carry the test-support mark (an HMAC of the RFC) and no route may read it back; the CAPTCHA alone could be solved remotely with altcha-lib',
};
