import { describe, expect, it } from 'vitest';
import {
  canSubmitSatCredentials,
  isSatLinkAuthorized,
  isSatStatusCode,
  SAT_STATUS_LABELS,
  SatStatus,
} from './sat-status';

describe('SAT link status', () => {
  it('has the spec §4 codes and Spanish labels', () => {
    expect(SatStatus).toEqual({ SENT: 10, DONT_SENT: 20, AUTHORIZED: 30, UNAUTHORIZED: 40 });
    expect(SAT_STATUS_LABELS[SatStatus.AUTHORIZED]).toBe('Autorizada');
  });

  it('only AUTHORIZED unlocks the dashboard', () => {
    expect(isSatLinkAuthorized(SatStatus.AUTHORIZED)).toBe(true);
    expect(isSatLinkAuthorized(SatStatus.SENT)).toBe(false);
    expect(isSatLinkAuthorized(SatStatus.DONT_SENT)).toBe(false);
    expect(isSatLinkAuthorized(SatStatus.UNAUTHORIZED)).toBe(false);
  });

  it('the form is open while not linked or rejected', () => {
    expect(canSubmitSatCredentials(SatStatus.DONT_SENT)).toBe(true);
    expect(canSubmitSatCredentials(SatStatus.UNAUTHORIZED)).toBe(true);
    expect(canSubmitSatCredentials(SatStatus.SENT)).toBe(false);
    expect(isSatStatusCode(30)).toBe(true);
    expect(isSatStatusCode(35)).toBe(false);
  });
});
