import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Profile, ProfileUpdate } from '../domain/schemas/session';
import {
  PROFILE_LOAD_FAILED,
  PROFILE_SAVE_FAILED,
  profileMachine,
  profileSaveErrorMessage,
} from './profile.machine';

const PROFILE: Profile = {
  first_name: 'Ana',
  last_name: 'Torres',
  mobile_phone: '5598765432',
  company: 'Maquiladora Norte',
  receive_notification: false,
};

describe('profileSaveErrorMessage', () => {
  it('shows the first message of the first refused field of a 400', () => {
    expect(
      profileSaveErrorMessage({ status: 400, body: { company: ['No se puede'], last_name: ['Otro'] } }),
    ).toBe('No se puede');
  });
  it('uses the generic text otherwise', () => {
    expect(profileSaveErrorMessage({ status: 500, body: { detail: 'Error interno' } })).toBe(
      PROFILE_SAVE_FAILED,
    );
    expect(profileSaveErrorMessage({ status: 0, body: null })).toBe(PROFILE_SAVE_FAILED);
  });
});

describe('profileMachine', () => {
  it('retries a failed load, then keeps what the server saved', async () => {
    let loads = 0;
    const machine = profileMachine.provide({
      actors: {
        loadProfile: fromPromise<Profile>(async () => {
          loads++;
          if (loads === 1) throw { status: 0, body: null };
          return PROFILE;
        }),
        saveProfile: fromPromise<Profile, ProfileUpdate>(async ({ input }) => ({
          ...input,
          wallet_clabe: '1',
        })),
      },
      delays: { TOAST_MS: 10 },
    });
    const actor = createActor(machine).start();
    expect((await waitFor(actor, (s) => s.matches('loadFailed'))).context.error).toBe(PROFILE_LOAD_FAILED);
    actor.send({ type: 'profile.retry' });
    expect((await waitFor(actor, (s) => s.matches({ ready: 'editing' }))).context.profile).toEqual(PROFILE);
    actor.send({ type: 'profile.save', values: { ...PROFILE, last_name: 'Ruiz' } });
    const saved = await waitFor(actor, (s) => s.matches({ ready: 'saved' }));
    expect(saved.context.profile).toEqual({ ...PROFILE, last_name: 'Ruiz', wallet_clabe: '1' });
    await waitFor(actor, (s) => s.matches({ ready: 'editing' }));
  });
});
