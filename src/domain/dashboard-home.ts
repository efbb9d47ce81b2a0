import { paths } from './paths';
import { isSatLinkAuthorized } from './sat-status';
import type { Role, SessionUser } from './schemas/session-user';

// Where a signed-in user lands in the dashboard (spec §1, §2, §6; issue 33, decision 0065): the one rule the
// login, the /dashboard/ redirect, the role guards, the brand link and the view switch read.

type ViewFacts = Pick<SessionUser, 'isCorporate' | 'satCredentials'>;

/**
 * Spec §1/§6: a corporate account whose SAT credentials are authorized switches between 'Cuentas por Cobrar'
 * (the provider view) and 'Cuentas por Pagar' (the corporate view).
 */
export function canSwitchView(user: ViewFacts): boolean {
  return user.isCorporate && isSatLinkAuthorized(user.satCredentials);
}

/**
 * The view a login opens. A corporate account that can switch lands on its corporate dashboard ('Cuentas por
 * Pagar', spec §2 "The corporate role gets the corporate dashboard"); everyone else on the provider view, a
 * corporate without authorized SAT credentials too: only that view has the SAT form, and without the switch the
 * corporate view would hold it away from it.
 * Example: landingRole({ isCorporate: true, satCredentials: SatStatus.AUTHORIZED }) === 'corporate'.
 */
export function landingRole(user: ViewFacts): Role {
  return canSwitchView(user) ? 'corporate' : 'provider';
}

/**
 * Spec §2: a role's first screen, where /dashboard/ and every unknown dashboard path go: the corporate's
 * 'Resumen de facturas', the provider's Pronto Pago. A plain string for the router: the sections the catch-all
 * route serves (the corporate home among them) are not in the route tree's typed paths.
 */
export function homePathFor(role: Role): string {
  return role === 'corporate' ? paths.invoiceSummary : paths.prontoPago;
}

/** Where a login goes: the landing role's first screen. */
export function landingPath(user: ViewFacts): string {
  return homePathFor(landingRole(user));
}
