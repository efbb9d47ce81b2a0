import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyStateMachine } from 'xstate';
import type { DiagramCoverage, DiagramIndexEntry } from '../src/machines/diagram-details';
import { machineEntry } from '../src/machines/machine-entry';
import { discoverModels } from '../test/model/harness/discover-models';
import { generatePaths, type MachineModel, measureCoverage } from '../test/model/harness/model';
import { describeMachine } from './diagram/describe';
import { toDetails } from './diagram/details';
import { discoverMachines, renderCatalogueModule } from './diagram/discover';
import { renderSvg } from './diagram/render-svg';
import { type DotCoverage, toDot } from './diagram/to-dot';
import { toMermaid } from './diagram/to-mermaid';

/**
 * `npm run diagrams` finds every machine (src/machines/*.machine.ts) and every model (test/model/*.model.ts)
 * and writes, per machine, `<id>.mmd`, `<id>.svg`, `<id>.coverage.svg` and `<id>.json` (its Spanish names,
 * transitions and guards) and an `index.json` with each machine's coverage (per transition) for the
 * /diagramas/ page into docs/diagrams/, plus src/machines/catalogue.gen.ts (the catalogue the app imports)
 * and the README's coverage table between its `machines` markers. `--check` regenerates in memory and fails
 * on any stale, missing or extra file, so CI catches a machine changed without its diagrams. Output holds
 * no dates or commit ids: the same machines always give the same bytes.
 */

/** Structurally the catalogue's MachineEntry. */
export interface DiagramEntry {
  id: string;
  title: string;
  description: string;
  machine: AnyStateMachine;
}

export type IndexEntry = DiagramIndexEntry;

export interface WriteOptions {
  check?: boolean;
  /** Defaults to the machines found in src/machines/*.machine.ts. */
  catalogue?: readonly DiagramEntry[];
  /** Defaults to the models found in test/model/*.model.ts. */
  models?: Record<string, MachineModel>;
  /**
   * Files outside `outDir` kept in step with the machines found (not with `catalogue`): the app's catalogue
   * module and the README whose coverage table sits between the `machines` markers. `npm run diagrams` passes both.
   */
  targets?: { catalogueModule: string; readme: string };
}

export interface WriteResult {
  /** Every file name the catalogue produces. */
  files: string[];
  /** Files written (write mode) because their content changed. */
  written: string[];
  /** Check mode: files on disk whose content differs. */
  stale: string[];
  /** Check mode: files that should exist and do not. */
  missing: string[];
  /** Diagram files on disk that no machine produces (removed in write mode). */
  extra: string[];
  warnings: string[];
}

export const DEFAULT_OUT_DIR = fileURLToPath(new URL('../docs/diagrams/', import.meta.url));
export const CATALOGUE_MODULE = fileURLToPath(new URL('../src/machines/catalogue.gen.ts', import.meta.url));
export const README = fileURLToPath(new URL('../README.md', import.meta.url));
export const TABLE_START = '<!-- machines:start -->';
export const TABLE_END = '<!-- machines:end -->';

/** Files in the output directory that this script owns; anything else (a README) is left alone. */
const isManaged = (file: string): boolean => /\.(mmd|svg|json)$/.test(file);

export async function buildDiagrams(
  catalogue: readonly DiagramEntry[],
  models: Record<string, MachineModel>,
): Promise<{ files: Map<string, string>; warnings: string[]; table: string }> {
  const files = new Map<string, string>();
  const warnings: string[] = [];
  const index: IndexEntry[] = [];
  const rows: string[] = [];

  for (const entry of catalogue) {
    const diagram = { ...describeMachine(entry.machine), id: entry.id };
    files.set(`${entry.id}.mmd`, toMermaid(diagram, entry.title));
    files.set(
      `${entry.id}.json`,
      `${JSON.stringify(toDetails(diagram, entry, entry.machine.id), null, 2)}\n`,
    );
    files.set(`${entry.id}.svg`, await renderSvg(toDot(diagram, entry.title)));

    const model = models[entry.id];
    let coverage: DotCoverage;
    let summary: DiagramCoverage | null = null;
    if (model) {
      const measured = measureCoverage(model, generatePaths(model));
      summary = {
        states: `${measured.states.covered.length}/${measured.states.total.length}`,
        transitions: `${measured.transitions.covered.length}/${measured.transitions.total.length}`,
        waived: measured.transitions.waived.length,
        paths: measured.paths,
        covered: [...measured.transitions.covered],
        waivedKeys: [...measured.transitions.waived],
        visitedStates: [...measured.states.covered],
      };
      coverage = {
        covered: new Set(measured.transitions.covered),
        waived: new Set(measured.transitions.waived),
        visitedStates: new Set(measured.states.covered),
        summary,
      };
    } else {
      warnings.push(
        `${entry.id}: no model in test/model/${entry.id}.model.ts; its coverage diagram shows nothing exercised.`,
      );
      coverage = { covered: new Set(), waived: new Set(), visitedStates: new Set(), summary: null };
    }
    files.set(`${entry.id}.coverage.svg`, await renderSvg(toDot(diagram, entry.title, coverage)));

    rows.push(
      `| [${entry.id}](docs/diagrams/${entry.id}.svg) | ${entry.title} | ` +
        (summary && coverage.summary
          ? `${summary.states} | ${summary.transitions} (waived ${summary.waived}) | ${coverage.summary.paths} |`
          : `0/${diagram.leafIds.length} | 0/${diagram.edges.length} | no model |`),
    );
    index.push({
      id: entry.id,
      title: entry.title,
      description: entry.description,
      states: diagram.leafIds.length,
      transitions: diagram.edges.length,
      coverage: summary,
    });
  }
  files.set('index.json', `${JSON.stringify(index, null, 2)}\n`);
  const table = ['| machine | title | states | transitions | paths |', '|---|---|---|---|---|', ...rows].join(
    '\n',
  );
  return { files, warnings, table };
}

/** `text` with the lines between the `machines` markers replaced by `block`. */
export function replaceTable(text: string, block: string): string {
  const start = text.indexOf(TABLE_START);
  const end = text.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md needs the lines ${TABLE_START} and ${TABLE_END}.`);
  return `${text.slice(0, start + TABLE_START.length)}\n${block}\n${text.slice(end)}`;
}

async function loadDefaults(): Promise<{
  catalogue: readonly DiagramEntry[];
  models: Record<string, MachineModel>;
  catalogueModule: string;
}> {
  // Found on disk, not through catalogue.gen.ts, which is one of this script's outputs and may be stale.
  const found = await discoverMachines();
  return {
    catalogue: found.map(({ id, machine }) => machineEntry(id, machine)),
    models: await discoverModels(),
    catalogueModule: renderCatalogueModule(found),
  };
}

function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

export async function writeDiagrams(outDir: string, options: WriteOptions = {}): Promise<WriteResult> {
  const defaults = options.catalogue && options.models && !options.targets ? undefined : await loadDefaults();
  const catalogue = options.catalogue ?? defaults!.catalogue;
  const models = options.models ?? defaults!.models;
  const { files, warnings, table } = await buildDiagrams(catalogue, models);

  let onDisk: string[] = [];
  try {
    onDisk = readdirSync(outDir).filter(isManaged).sort();
  } catch {
    // A missing directory is the same as an empty one.
  }
  const result: WriteResult = {
    files: [...files.keys()],
    written: [],
    stale: [],
    missing: [],
    extra: onDisk.filter((file) => !files.has(file)),
    warnings,
  };

  const sync = (path: string, name: string, content: string): void => {
    const current = readIfExists(path);
    if (current === content) return;
    if (options.check) {
      (current === undefined ? result.missing : result.stale).push(name);
    } else {
      writeFileSync(path, content);
      result.written.push(name);
    }
  };
  if (!options.check) mkdirSync(outDir, { recursive: true });
  for (const [file, content] of files) sync(join(outDir, file), file, content);
  if (options.targets) {
    const { catalogueModule, readme } = options.targets;
    sync(catalogueModule, relative(process.cwd(), catalogueModule), defaults!.catalogueModule);
    sync(readme, relative(process.cwd(), readme), replaceTable(readIfExists(readme) ?? '', table));
  }
  if (!options.check) {
    for (const file of result.extra) rmSync(join(outDir, file));
  }
  return result;
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const result = await writeDiagrams(DEFAULT_OUT_DIR, {
    check,
    targets: { catalogueModule: CATALOGUE_MODULE, readme: README },
  });
  for (const warning of result.warnings) console.warn(`warning: ${warning}`);
  if (check) {
    const problems = [
      ...result.stale.map((file) => `stale:   ${file}`),
      ...result.missing.map((file) => `missing: ${file}`),
      ...result.extra.map((file) => `extra:   ${file}`),
    ];
    if (problems.length > 0) {
      console.error(
        `Diagrams, the machine catalogue or the README table are out of date (run \`npm run diagrams\`):\n${problems.join('\n')}`,
      );
      process.exitCode = 1;
      return;
    }
    console.log(`Diagrams are up to date (${result.files.length} files).`);
    return;
  }
  console.log(
    `Diagrams: ${result.written.length} written (${result.written.join(', ') || 'none'}), ${result.extra.length} removed, ${result.files.length} in docs/diagrams/.`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
