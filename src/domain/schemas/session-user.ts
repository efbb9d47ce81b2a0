import { array, boolean, enums, type Infer, type } from 'superstruct';
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
});
export type SessionUser = Infer<typeof SessionUser>;
