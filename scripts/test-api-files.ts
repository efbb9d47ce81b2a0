import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const API_DIR = resolve(import.meta.dirname, '../test/api');
const TAG = /^\/\/ @postgresql: (.+)$/;

/** The API test files tagged `// @postgresql: <why>` on their first line, with the reason (decision 0055). */
export function postgresqlFiles(dir = API_DIR): Array<{ file: string; why: string }> {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.test.ts'))
    .sort()
    .flatMap((name) => {
      const first = readFileSync(join(dir, name), 'utf8').split('\n', 1)[0] ?? '';
      const tag = TAG.exec(first);
      return tag ? [{ file: `test/api/${name}`, why: tag[1]! }] : [];
    });
}
