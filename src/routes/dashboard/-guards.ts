import { redirect } from '@tanstack/react-router';
import { isSatLinkAuthorized } from '../../domain/sat-status';
import { userStore } from '../../stores/user.store';

export const SAT_CREDENTIALS_PATH = '/dashboard/sat-credentials/';

/**
 * Spec §2: every provider screen but the SAT credentials form needs an authorized SAT link; until then it
 * redirects to /dashboard/sat-credentials/. Call from a guarded route's beforeLoad.
 */
export function requireSatLink(): void {
  if (userStore.role === 'provider' && !isSatLinkAuthorized(userStore.satCredentials)) {
    throw redirect({ to: SAT_CREDENTIALS_PATH, replace: true });
  }
}
