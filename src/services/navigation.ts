import { paths } from '../domain/paths';

// Machines' provided actions navigate through this seam; the app registers the router at start-up
// (a direct import of the router here would make a cycle: router → routes → wiring → router).
type Navigate = (to: string, options?: { replace?: boolean }) => void;

// Without a router (the prerendered login page, decision 0026) a navigation is a document load.
let navigateImpl: Navigate = (to, options) =>
  options?.replace ? window.location.replace(to) : window.location.assign(to);

export function registerNavigator(navigate: Navigate): void {
  navigateImpl = navigate;
}

export function navigateTo(to: string, options?: { replace?: boolean }): void {
  navigateImpl(to, options);
}

/**
 * Where a browser goes when its session ends: the operators' door from a back-office page (decision 0050),
 * else the start page (spec §8).
 */
export function signedOutDestination(): string {
  return window.location.pathname.startsWith(paths.operatorHome) ? paths.operatorLogin : paths.root;
}
