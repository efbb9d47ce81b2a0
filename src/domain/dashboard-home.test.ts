import { describe, expect, it } from 'vitest';
import { canSwitchView, homePathFor, landingPath, landingRole } from './dashboard-home';
import { paths } from './paths';
import { SatStatus } from './sat-status';

describe('where a login lands', () => {
  it('opens a corporate account with authorized SAT credentials on its corporate summary', () => {
    const user = { isCorporate: true, satCredentials: SatStatus.AUTHORIZED };
    expect(canSwitchView(user)).toBe(true);
    expect(landingRole(user)).toBe('corporate');
    expect(landingPath(user)).toBe(paths.invoiceSummary);
  });

  it('opens a provider on Pronto Pago', () => {
    const user = { isCorporate: false, satCredentials: SatStatus.AUTHORIZED };
    expect(canSwitchView(user)).toBe(false);
    expect(landingPath(user)).toBe(paths.prontoPago);
  });

  it('keeps a corporate without authorized SAT credentials on the provider view, where the SAT form is', () => {
    for (const satCredentials of [SatStatus.SENT, SatStatus.DONT_SENT, SatStatus.UNAUTHORIZED]) {
      const user = { isCorporate: true, satCredentials };
      expect(canSwitchView(user)).toBe(false);
      expect(landingRole(user)).toBe('provider');
    }
  });

  it("sends /dashboard/ to the current view's first screen", () => {
    expect(homePathFor('corporate')).toBe(paths.invoiceSummary);
    expect(homePathFor('provider')).toBe(paths.prontoPago);
  });
});
