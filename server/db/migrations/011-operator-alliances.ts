// Issue 19, the operator's alliances (decision 0053). Builds on 008's price columns and alliance_prices.
// An alliance may name a supplier RFC not yet in Flujo (or not yet SAT-authorized): it waits as a pending row
// with no provider_id, keyed by the RFC, and becomes active when that RFC's SAT link is authorized. One table
// keeps one id per alliance, so its price history (alliance_prices) runs from the operator's first price.
export const operatorAlliances: readonly string[] = [
  'ALTER TABLE alliances ALTER COLUMN provider_id DROP NOT NULL',
  'ALTER TABLE alliances ADD COLUMN provider_rfc text',
  'ALTER TABLE alliances ADD COLUMN pending boolean NOT NULL DEFAULT false',
  // Every query that reads provider_id with is_active = true never meets a pending row.
  `ALTER TABLE alliances ADD CONSTRAINT alliances_pending_shape CHECK (
    (pending AND provider_id IS NULL AND provider_rfc IS NOT NULL AND NOT is_active)
    OR (NOT pending AND provider_id IS NOT NULL)
  )`,
  'CREATE UNIQUE INDEX alliances_pending_rfc_key ON alliances (corporate_id, provider_rfc) WHERE pending',
  // The SAT approval looks the pending alliances of one RFC up.
  'CREATE INDEX alliances_pending_rfc_idx ON alliances (provider_rfc) WHERE pending',
];
