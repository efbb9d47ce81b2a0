import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresqlFiles } from './test-api-files';

describe('the API files CI runs on PostgreSQL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'api-tags-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are the test files tagged on their first line, each with its reason', () => {
    writeFileSync(join(dir, 'locks.test.ts'), '// @postgresql: row locks across connections.\nimport x;\n');
    writeFileSync(join(dir, 'plain.test.ts'), "import { it } from 'vitest';\n");
    writeFileSync(
      join(dir, 'late.test.ts'),
      'import x;\n// @postgresql: a tag below the first line counts not.\n',
    );
    writeFileSync(join(dir, 'helper.ts'), '// @postgresql: not a test file.\n');
    expect(postgresqlFiles(dir)).toEqual([
      { file: 'test/api/locks.test.ts', why: 'row locks across connections.' },
    ]);
  });

  it('include the durability and concurrency files of the real suite', () => {
    const files = postgresqlFiles().map((f) => f.file);
    for (const file of [
      'test/api/money-durability.test.ts',
      'test/api/bulk-durability.test.ts',
      'test/api/backup-restore.test.ts',
      'test/api/programme-ledger.test.ts',
      'test/api/jobs-across-processes.test.ts',
    ]) {
      expect(files).toContain(file);
    }
  });
});
