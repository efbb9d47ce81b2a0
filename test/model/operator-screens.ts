import { cleanup } from '@testing-library/react';
import type { OperatorRole } from '../../src/domain/operator-roles';
import { ACCESS_TOKEN_KEY } from '../../src/stores/storage-keys';
import { setUser } from '../../src/stores/user.store';
import { renderApp } from './harness/render-app';

/** An operator of the world (`createOperatorSession`, `world.operatorSession`) and the roles it holds. */
export interface ScreenOperator {
  access: string;
  roles: readonly OperatorRole[];
}

/**
 * The operator's session as the browser keeps it after the sign-in (the sign-in itself, with its second factor,
 * is the operator-session model's): the access token in storage and the roles in the user store.
 */
export function signInOperator(operator: ScreenOperator): void {
  localStorage.setItem(ACCESS_TOKEN_KEY, operator.access);
  setUser({ isAuthenticated: true, operatorRoles: [...operator.roles] });
}

/**
 * A back-office screen opened fresh by `operator`, as after a reload: whatever was rendered before is unmounted
 * first, so a model whose gestures happen on several screens (or by several operators) opens each one anew.
 */
export function openOperatorScreen(path: string, operator: ScreenOperator): ReturnType<typeof renderApp> {
  cleanup();
  signInOperator(operator);
  return renderApp(path);
}
