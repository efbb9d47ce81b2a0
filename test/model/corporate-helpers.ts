import { setUser } from '../../src/stores/user.store';
import { signInAs } from './harness/render-app';
import { world } from './harness/world';

// Shared by the corporate model tests (pre-authorization, quotation).

/**
 * Signs the world's corporate in (in process the demo corporate), as the session machine leaves it after its
 * login (role corporate).
 */
export async function signInCorporate(): Promise<string> {
  const { corporate } = await world.parties();
  const { access } = await signInAs(corporate.username, corporate.password);
  setUser({ role: 'corporate' });
  return access;
}
