import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { StateMachine } from 'xstate';
import type { MachineModel } from './model';

// Resolved from the working directory: under happy-dom, import.meta.url is not a file: URL.
export const MODELS_DIR = resolve('test/model');

const isModel = (value: unknown): value is MachineModel =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as MachineModel).id === 'string' &&
  (value as MachineModel).machine instanceof StateMachine &&
  Array.isArray((value as MachineModel).events);

/**
 * Catalogue id → model, found in `<dir>/*.model.ts` (one model per file) instead of a hand list; the
 * coverage diagrams (`npm run diagrams`), the README table and the catalogue test read it. Plain imports
 * rather than `import.meta.glob`, because `npm run diagrams` runs under tsx, not Vite.
 */
export async function discoverModels(dir = MODELS_DIR): Promise<Record<string, MachineModel>> {
  const models: Record<string, MachineModel> = {};
  const files = readdirSync(dir)
    .filter((file) => file.endsWith('.model.ts'))
    .sort();
  for (const file of files) {
    const module = (await import(pathToFileURL(resolve(dir, file)).href)) as Record<string, unknown>;
    const found = Object.values(module).filter(isModel);
    if (found.length !== 1) throw new Error(`${file} exports ${found.length} models; export exactly one.`);
    const model = found[0]!;
    if (models[model.id]) throw new Error(`${file}: a second model for '${model.id}'.`);
    models[model.id] = model;
  }
  return models;
}
