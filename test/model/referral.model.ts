import type { EventObject } from 'xstate';
import { PROVIDER_REQUEST_MESSAGES } from '../../src/domain/provider-requests';
import type { Referral } from '../../src/domain/schemas/session';
import { referralMachine } from '../../src/machines/referral.machine';
import type { MachineModel } from './harness/model';

export const VALID_REFERRAL: Referral = {
  name: 'Marta Ibáñez',
  company: 'Distribuidora Ibáñez',
  email: 'marta@ibanez.example.mx',
  phone: '5511223344',
};

/** The server's real 400 shape for this call (see test/api/providers-referrals-alliances.test.ts). */
export const REFERRAL_REJECTED = { email: ['Debe ser un correo valido'] };

// One payload per partition of the call's outcome: stored, rejected per field, server failure, no response.
export const referralModel: MachineModel = {
  id: 'referral',
  machine: referralMachine,
  events: [
    { type: 'referral.submit', values: VALID_REFERRAL },
    { type: 'referral.dismiss' },
    {
      type: 'xstate.done.actor.submitReferral',
      output: { message: PROVIDER_REQUEST_MESSAGES.referralSent },
    },
    { type: 'xstate.error.actor.submitReferral', error: { status: 400, body: REFERRAL_REJECTED } },
    { type: 'xstate.error.actor.submitReferral', error: { status: 500, body: { detail: 'Error interno' } } },
    { type: 'xstate.error.actor.submitReferral', error: { status: 0, body: null } },
  ] as readonly EventObject[],
};
