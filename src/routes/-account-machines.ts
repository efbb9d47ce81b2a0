import { fromPromise } from 'xstate';
import { paths } from '../domain/paths';
import type {
  PasswordChange,
  PasswordReset,
  PasswordResetRequest,
  PlainMessageResponse,
  Profile,
  ProfileUpdate,
} from '../domain/schemas/session';
import { passwordChangeMachine } from '../machines/password-change.machine';
import { passwordResetMachine } from '../machines/password-reset.machine';
import { passwordResetRequestMachine } from '../machines/password-reset-request.machine';
import { profileMachine } from '../machines/profile.machine';
import {
  changePassword,
  getProfile,
  requestPasswordReset,
  resetPassword,
  updateProfile,
} from '../services/accounts.service';
import { navigateTo } from '../services/navigation';

// The account machines (password reset, password change, profile) wired to the real calls and
// navigation, as -machines.ts does for the others. (The '-' prefix keeps this file out of the route tree.)

export const wiredPasswordResetRequestMachine = passwordResetRequestMachine.provide({
  actors: {
    requestPasswordReset: fromPromise<PlainMessageResponse, PasswordResetRequest>(({ input }) =>
      requestPasswordReset(input),
    ),
  },
});

export const wiredPasswordResetMachine = passwordResetMachine.provide({
  actors: {
    resetPassword: fromPromise<PlainMessageResponse, PasswordReset>(({ input }) => resetPassword(input)),
  },
  // The reset link is spent: replacing it keeps Back from returning to a dead form.
  actions: { goToLogin: () => navigateTo(paths.login, { replace: true }) },
});

export const wiredPasswordChangeMachine = passwordChangeMachine.provide({
  actors: {
    changePassword: fromPromise<PlainMessageResponse, PasswordChange>(({ input }) => changePassword(input)),
  },
});

export const wiredProfileMachine = profileMachine.provide({
  actors: {
    loadProfile: fromPromise<Profile>(() => getProfile()),
    saveProfile: fromPromise<Profile, ProfileUpdate>(({ input }) => updateProfile(input)),
  },
});
