// Issue 31 (money leaves only with two people, decision 0059). Migrations 001-014 stay as written.
//
// Who confirmed each SPEI order by name, as the batch records who created it: an operator's username or the
// automation account that ran `ops disburse` (confirmed_by, the user id, is null for automation).

export const twoPersonMoney: readonly string[] = [
  'ALTER TABLE spei_orders ADD COLUMN confirmed_by_username text',
];
