import { setUser } from '../../src/stores/user.store';
import { signInAs } from './harness/render-app';

// Shared by the corporate model tests (pre-authorization, quotation).

/** The demo corporate (server/seed/demo-world.ts): Grupo Altamira Alimentos, the demo providers' buyer. */
export const CORPORATE = 'corporativo.demo';

/** Signs the demo corporate in, as the session machine leaves it after its login (role corporate). */
export async function signInCorporate(): Promise<string> {
  const { access } = await signInAs(CORPORATE);
  setUser({ role: 'corporate' });
  return access;
}
