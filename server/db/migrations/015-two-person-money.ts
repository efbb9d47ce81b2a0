// Issue 31 (money leaves only with two people, decision 0059). Migrations 001-014 stay as written.
//
// Who confirmed each SPEI order by name, as the batch records who created it: an operator's username or the
// automation account that ran `ops disburse` (confirmed_by, the user id, is null for automation).
// A corporate's payment above what remained to collect on its invoice is its own recorded case (the caller
// said so explicitly): `overpaid` is the part above, 0 for every ordinary payment.

export const twoPersonMoney: readonly string[] = [
  'ALTER TABLE spei_orders ADD COLUMN confirmed_by_username text',
  `ALTER TABLE collections ADD COLUMN overpaid numeric(18,2) NOT NULL DEFAULT 0
    CHECK (overpaid >= 0 AND overpaid <= amount)`,
];
