// Blueprint's icon loader, which every Blueprint component that can show an icon imports, builds its
// `IconNames` table when its module is evaluated: a regex-based pascalCase and snakeCase of each of the ~700
// icon names, about 60 ms of main thread on a phone-class CPU (4× slowdown) before a page can hydrate. This
// plugin replaces that module with the table Blueprint itself computes, evaluated once at build time, so
// the browser reads a literal instead (decision 0026).
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

const ICON_NAMES_MODULE = /[\\/]@blueprintjs[\\/]icons[\\/]lib[\\/](esm|esnext)[\\/]iconNames\.js$/;

/** The module's source with Blueprint's own table inlined (the CommonJS build runs in Node as it is). */
export function precomputedIconNamesModule(): string {
  const { IconNames } = createRequire(import.meta.url)('@blueprintjs/icons/lib/cjs/iconNames.js') as {
    IconNames: Record<string, string>;
  };
  return [
    `export const IconNames = ${JSON.stringify(IconNames)};`,
    'export const IconNamesSet = new Set(Object.values(IconNames));',
  ].join('\n');
}

export function precomputedIconNames(): Plugin {
  return {
    name: 'flujo:precomputed-icon-names',
    enforce: 'pre',
    load(id) {
      return ICON_NAMES_MODULE.test(id) ? precomputedIconNamesModule() : null;
    },
  };
}
