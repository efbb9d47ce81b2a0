import { redirect } from '@tanstack/react-router';
import { homePathFor } from '../../domain/dashboard-home';
import { paths } from '../../domain/paths';
import { isSatLinkAuthorized } from '../../domain/sat-status';
import { userStore } from '../../stores/user.store';

/**
 * Spec §2: the provider dashboard's screens (SAT credentials, Pronto Pago, advanced invoices) are the
 * provider's; any other role goes to its own home. Call first in such a route's beforeLoad.
 */
export function requireProvider(): void {
  if (userStore.role !== 'provider') throw redirect({ to: homePathFor(userStore.role), replace: true });
}

/**
 * Spec §2: every provider screen but the SAT credentials form needs an authorized SAT link; until then it
 * redirects to /dashboard/sat-credentials/. Call from a guarded route's beforeLoad. Other roles pass: the
 * catch-all section route serves both dashboards.
 */
export function requireSatLink(): void {
  if (userStore.role === 'provider' && !isSatLinkAuthorized(userStore.satCredentials)) {
    throw redirect({ to: paths.satCredentials, replace: true });
  }
}

/** Spec §2: the corporate dashboard's screens are the corporate view's; the provider view goes to its own home. */
export function requireCorporate(): void {
  if (userStore.role !== 'corporate') throw redirect({ to: homePathFor(userStore.role), replace: true });
}
