import { array, boolean, enums, type Infer, optional, string, type } from 'superstruct';
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
  /**
   * One of Flujo's own operators, signed in at /operacion/ingresar/ (docs/decisions/0050), with their roles
   * (analista, aprobador, tesoreria, auditor) and name for the back office's top bar. Absent for everyone else.
   */
  isOperator: optional(boolean()),
  operatorRoles: optional(array(string())),
  operatorName: optional(string()),
});
export type SessionUser = Infer<typeof SessionUser>;
