// Issue 31 (decision 0063): a SAT link under review claims an RFC without holding it. companies.rfc (UNIQUE)
// is written only when SAT authorizes the link (or for a corporate, or a company with invoices); the claim
// lives beside it, not unique, so a stranger's pending link cannot squat an RFC.

export const satLinkClaims: readonly string[] = [
  // The RFC last sent with the CIEC and when; kept after a decision so the status still names it.
  'ALTER TABLE companies ADD COLUMN sat_claimed_rfc text',
  'ALTER TABLE companies ADD COLUMN sat_claimed_at timestamptz',
  // Why a claim ended without approval (another account won, it lapsed); null otherwise.
  'ALTER TABLE companies ADD COLUMN sat_status_reason text',
  'CREATE INDEX companies_pending_sat_claims_idx ON companies (sat_claimed_rfc, sat_claimed_at) WHERE sat_status = 10',
  // Links sent or rejected before this change held their RFC: they become claims of it.
  `UPDATE companies SET sat_claimed_rfc = rfc, sat_claimed_at = coalesce(sat_status_changed_at, now())
    WHERE rfc IS NOT NULL AND sat_status IN (10, 40)`,
  // ...and give it back unless something else makes it theirs (a corporate, invoices issued or received).
  `UPDATE companies c SET rfc = NULL
    WHERE c.sat_status IN (10, 40) AND NOT c.is_corporate
      AND NOT EXISTS (
        SELECT 1 FROM invoices i WHERE i.emitter_company_id = c.id OR i.receiver_company_id = c.id
      )`,
];
