import { resolve } from 'node:path';
import { type DemoAuthority, loadDemoAuthority } from '../../server/cfdi/demo-authority';
import type { Db } from '../../server/db/database';
import type { Clock } from '../../server/modules/auth/clock';
import { type CfdiAuthenticity, createCfdiAuthenticity } from '../../server/modules/sat/cfdi-authenticity';

/**
 * One demo authority for a whole test run: fixtures sign with it, and every app, template and server the
 * tests start trusts it (vitest.config.ts and playwright.config.ts export DEMO_AUTHORITY_DIR).
 */
export const TEST_DEMO_AUTHORITY_DIR = resolve(process.env.DEMO_AUTHORITY_DIR ?? '.tmp/demo-authority');

let authority: DemoAuthority | undefined;

export function testAuthority(): DemoAuthority {
  authority ??= loadDemoAuthority(TEST_DEMO_AUTHORITY_DIR);
  return authority;
}

/** What an app built for tests proves CFDI with: the test authority and the in-process sandbox SAT. */
export function testAuthenticity(db: Db, now: Clock = () => new Date()): CfdiAuthenticity {
  return createCfdiAuthenticity(
    {
      production: false,
      satTrustDir: null,
      demoAuthorityDir: TEST_DEMO_AUTHORITY_DIR,
      satStatusUrl: null,
      satStatusTimeoutMs: 10_000,
    },
    db,
    now,
  );
}
