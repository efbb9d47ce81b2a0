import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadDemoAuthority } from '../../server/cfdi/demo-authority';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db/database';
import { generateSandboxCfdi } from '../../server/modules/sat/sandbox-cfdi';

/** Every path under `root` (itself included) whose mode lets the group or others in, with that mode. */
function openToOthers(root: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    const stat = statSync(path);
    if ((stat.mode & 0o077) !== 0)
      found.push(`${relative(root, path) || '.'} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry));
  };
  walk(root);
  return found;
}

// Issue 31: what Flujo keeps in DATA_DIR (database, secrets, keys) is its user's only (decision 0060).
describe('DATA_DIR', () => {
  let umask: number | null = null;
  let root: string | null = null;
  afterEach(() => {
    if (umask !== null) process.umask(umask);
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('holds only 0700 directories and 0600 files, even under umask 022', async () => {
    umask = process.umask(0o022);
    root = mkdtempSync(join(tmpdir(), 'flujo-modes-'));
    const dataDir = join(root, 'data');
    // As the server starts in development: the secrets beside the data, the database with its lock, the demo
    // authority, and the sandbox SAT's CFDI.
    const config = loadConfig({ DATA_DIR: dataDir });
    const database = await openDatabase({ dataDir: config.dataDir });
    try {
      if (!config.demoAuthorityDir) throw new Error('development has a demo authority');
      const authority = loadDemoAuthority(config.demoAuthorityDir);
      generateSandboxCfdi({
        authority,
        sandboxDir: config.satSandboxDir,
        issuer: { rfc: 'AAA010101AAA', name: 'Emisora de Prueba' },
        receiver: { rfc: 'BBB010101BBB', name: 'Receptora de Prueba' },
        count: 1,
        today: '2026-11-28',
      });
      expect(openToOthers(dataDir)).toEqual([]);
    } finally {
      await database.close();
    }
  }, 60_000);
});
