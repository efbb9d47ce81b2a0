import { fromPromise } from 'xstate';
import { paths } from '../domain/paths';
import type { SatLinkStatus, TaxLink } from '../domain/schemas/session';
import { satLinkMachine } from '../machines/sat-link.machine';
import { navigateTo } from '../services/navigation';
import { satLinkStatus, submitTaxLink } from '../services/sat.service';
import { setUser } from '../stores/user.store';

// The SAT-link machine wired to the real calls, the user store and navigation, as -account-machines.ts
// does for the account machines. (The '-' prefix keeps this file out of the route tree.)

export const wiredSatLinkMachine = satLinkMachine.provide({
  actors: {
    loadStatus: fromPromise<SatLinkStatus>(() => satLinkStatus()),
    submitTaxLink: fromPromise<unknown, TaxLink>(({ input }) => submitTaxLink(input)),
  },
  actions: {
    // The dashboard guards read the store: it must hold the new status before any navigation.
    storeStatus: (_, { status }) => setUser({ satCredentials: status }),
    goToProntoPago: () => navigateTo(paths.prontoPago, { replace: true }),
  },
});
