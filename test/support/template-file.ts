import { resolve } from 'node:path';

export const TEMPLATE_FILE = resolve('.tmp/pglite-template.tar.gz');
