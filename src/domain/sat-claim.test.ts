import { describe, expect, it } from 'vitest';
import { SAT_CLAIM_LIFETIME_DAYS, satClaimExpiryCutoff } from './sat-claim';

describe('a pending SAT claim lapses after seven days', () => {
  it('puts the cutoff exactly seven days before now', () => {
    expect(SAT_CLAIM_LIFETIME_DAYS).toBe(7);
    const now = new Date('2026-05-20T17:00:00Z');
    expect(satClaimExpiryCutoff(now).toISOString()).toBe('2026-05-13T17:00:00.000Z');
  });
});
