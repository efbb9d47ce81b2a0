// Issue 31 (secrets stay secret, decision 0060). Migrations 001-015 stay as written.
//
// Operator recovery codes are now stored as an HMAC under a key derived from SAT_ENCRYPTION_KEY, and are longer
// (~99 bits). The codes stored before were plain SHA-256 of ~50 bits: they cannot be re-keyed without the codes
// themselves, and keeping them would keep a table anyone with a copy could sweep. They are dropped: an operator
// still signs in with the authenticator, and `npm run ops -- operator:reset-mfa <usuario>` hands out new codes
// (the demo operators get theirs back from the demo seed).

export const keyedRecoveryCodes: readonly string[] = ['DELETE FROM operator_recovery_codes'];
