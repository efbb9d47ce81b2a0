import { fromPromise } from 'xstate';
import type { PlainMessageResponse, Referral } from '../domain/schemas/session';
import { referralMachine } from '../machines/referral.machine';
import { referCustomer } from '../services/provider-sections.service';

// The referral form's machine wired to the real call. (The '-' prefix keeps this file out of the route tree.)
export const wiredReferralMachine = referralMachine.provide({
  actors: {
    submitReferral: fromPromise<PlainMessageResponse, Referral>(({ input }) => referCustomer(input)),
  },
});
