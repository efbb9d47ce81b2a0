import type { EventObject } from 'xstate';
import type { Profile, ProfileUpdate } from '../../src/domain/schemas/session';
import { profileMachine } from '../../src/machines/profile.machine';
import type { MachineModel } from './harness/model';

/** The demo provider's profile as seeded (server/seed/demo-world.ts); its company has a wallet CLABE. */
export const DEMO_PROFILE: Profile = {
  first_name: 'Lucía',
  last_name: 'Hernández',
  mobile_phone: '5512345678',
  company: 'Empaques del Bajío, S.A. de C.V.',
  receive_notification: true,
  wallet_clabe: '012180026050783858',
};

/**
 * What the user changes: last name, phone, notifications. The company stays: its SAT link is authorized,
 * so the server refuses a new legal name.
 */
export const PROFILE_EDITS = {
  last_name: 'Hernández Ruiz',
  mobile_phone: '5587654321',
  receive_notification: false,
} as const satisfies Partial<ProfileUpdate>;

export const EDITED_PROFILE: ProfileUpdate = {
  first_name: DEMO_PROFILE.first_name,
  last_name: PROFILE_EDITS.last_name,
  mobile_phone: PROFILE_EDITS.mobile_phone,
  company: DEMO_PROFILE.company,
  receive_notification: PROFILE_EDITS.receive_notification,
};

/** The server's real 400 ({field: [message]}): renaming a company whose SAT link is authorized. */
export const REJECTED_BODY = {
  company: ['La razón social no se puede cambiar después de la vinculación con el SAT.'],
};

/** An access token the server no longer accepts. */
export const SESSION_ENDED_BODY = {
  detail: 'Las credenciales de autenticación no se proveyeron o expiraron.',
};

// Load: loaded, server failure, no response, session over. Save: saved, refused field, no response, session over.
export const profileModel: MachineModel = {
  id: 'profile',
  machine: profileMachine,
  events: [
    { type: 'xstate.done.actor.loadProfile', output: DEMO_PROFILE },
    { type: 'xstate.error.actor.loadProfile', error: { status: 500, body: { detail: 'Error interno' } } },
    { type: 'xstate.error.actor.loadProfile', error: { status: 0, body: null } },
    { type: 'xstate.error.actor.loadProfile', error: { status: 401, body: SESSION_ENDED_BODY } },
    { type: 'profile.retry' },
    { type: 'profile.save', values: EDITED_PROFILE },
    { type: 'profile.dismiss' },
    { type: 'xstate.done.actor.saveProfile', output: { ...DEMO_PROFILE, ...PROFILE_EDITS } },
    { type: 'xstate.error.actor.saveProfile', error: { status: 400, body: REJECTED_BODY } },
    { type: 'xstate.error.actor.saveProfile', error: { status: 0, body: null } },
    { type: 'xstate.error.actor.saveProfile', error: { status: 401, body: SESSION_ENDED_BODY } },
  ] as readonly EventObject[],
};
