import { array, boolean, enums, type Infer, optional, string, type } from 'superstruct';
import { OperatorRole } from '../operator-roles';
import { satStatusCode } from './common';

// Spec §3 "Session user": what the browser keeps in local storage between visits. Each field has a
// default (the signed-out user, src/stores/user.store.ts); a stored value is used only if it passes here.

export const Role = enums(['provider', 'corporate']);
export type Role = Infer<typeof Role>;

export const SessionUser = type({
  role: Role,
  satCredentials: satStatusCode,
  corporate_can_pay_costs: boolean(),
  hasFactoring: boolean(),
  isCorporate: boolean(),
  isAuthenticated: boolean(),
  /** Flujo's operators (issue 19's back office): their roles; empty for providers and corporates. */
  operatorRoles: array(OperatorRole),
  /** An operator's name for the back office's top bar (docs/decisions/0050); absent for everyone else. */
  operatorName: optional(string()),
});
export type SessionUser = Infer<typeof SessionUser>;
