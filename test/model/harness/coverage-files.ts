import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AnyStateMachine } from 'xstate';
import { leafStateIds, listTransitions } from './inventory';

/**
 * The hand-off between test files and the end-of-run table: each model test file writes one JSON record,
 * the global setup's teardown reads them all. Files, because test files run in separate workers.
 */

/**
 * Whose records these are: `npm test` runs the in-process model run and the remote self-test side by side
 * (decision 0055), so the self-test sets MODEL_RUN=remote and neither clears nor reads the other's records.
 */
export const MODEL_RUN = process.env.MODEL_RUN?.trim() || 'local';

// Resolved from the working directory: under happy-dom, import.meta.url is not a file: URL.
export const COVERAGE_DIR = resolve('.tmp/model-coverage', MODEL_RUN);

export interface CoverageRecord {
  id: string;
  states: { covered: number; total: number; missing: string[] };
  transitions: { covered: number; total: number; waived: number; missing: string[] };
  paths: { total: number; passed: number; failed: number };
}

/** One test file's record as `<dir>/<id>.json`: the hand-off from a worker to the run's global teardown. */
export function writeJsonRecord(dir: string, record: { id: string }): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${record.id}.json`), `${JSON.stringify(record, null, 2)}\n`);
}

/** Every record of `dir`, by id; none when the directory does not exist. */
export function readJsonRecords<T extends { id: string }>(dir: string): T[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((file) => file.endsWith('.json'));
  } catch {
    return [];
  }
  return files
    .map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as T)
    .sort((a, b) => a.id.localeCompare(b.id));
}

export function writeCoverageRecord(record: CoverageRecord, dir = COVERAGE_DIR): void {
  writeJsonRecord(dir, record);
}

export function readCoverageRecords(dir = COVERAGE_DIR): CoverageRecord[] {
  return readJsonRecords<CoverageRecord>(dir);
}

export function clearCoverageRecords(dir = COVERAGE_DIR): void {
  rmSync(dir, { recursive: true, force: true });
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]): string =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join(' | ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('-|-');
  return [line(rows[0]!), rule, ...rows.slice(1).map(line)].join('\n');
}

/** machine | states covered/total | transitions covered/total (waived n) | paths, plus what is missing. */
export function formatCoverageTable(records: readonly CoverageRecord[]): string {
  if (records.length === 0) return 'Model coverage: no model test file reported.';
  const rows = [
    ['machine', 'states', 'transitions', 'paths'],
    ...records.map((r) => [
      r.id,
      `${r.states.covered}/${r.states.total}`,
      `${r.transitions.covered}/${r.transitions.total} (waived ${r.transitions.waived})`,
      `${r.paths.total} (${r.paths.passed} passed${r.paths.failed > 0 ? `, ${r.paths.failed} failed` : ''})`,
    ]),
  ];
  const gaps = records.flatMap((r) => [
    ...r.states.missing.map((id) => `  ${r.id}: state not reached: ${id}`),
    ...r.transitions.missing.map((key) => `  ${r.id}: transition not taken: ${key}`),
  ]);
  return ['Model coverage', table(rows), ...(gaps.length > 0 ? ['', ...gaps] : [])].join('\n');
}

/**
 * The coverage over a whole catalogue: `rows` is exactly what `formatCoverageTable` is given (one per machine,
 * sorted), `silent` the machines whose model test file reported nothing (deleted, not run, or crashed before
 * its suite ended): their rows are 0/N placeholders. The end-of-run table and the report both start here.
 */
export interface CatalogueCoverage {
  rows: CoverageRecord[];
  silent: string[];
}

export function catalogueCoverage(
  records: readonly CoverageRecord[],
  catalogue: readonly { id: string; machine: AnyStateMachine }[],
): CatalogueCoverage {
  const reported = new Set(records.map((record) => record.id));
  const silent = catalogue.filter((entry) => !reported.has(entry.id));
  const placeholders: CoverageRecord[] = silent.map((entry) => ({
    id: entry.id,
    states: { covered: 0, total: leafStateIds(entry.machine).length, missing: [] },
    transitions: { covered: 0, total: listTransitions(entry.machine).length, waived: 0, missing: [] },
    paths: { total: 0, passed: 0, failed: 0 },
  }));
  return {
    rows: [...records, ...placeholders].sort((a, b) => a.id.localeCompare(b.id)),
    silent: silent.map((entry) => entry.id).sort(),
  };
}

/** The table printed at the end of `npm run test:model`: `formatCoverageTable` plus a gap line per silent machine. */
export function formatCatalogueCoverage({ rows, silent }: CatalogueCoverage): string {
  const table = formatCoverageTable(rows);
  if (silent.length === 0) return table;
  const gaps = silent.map((id) => `  ${id}: no model test file reported`);
  // formatCoverageTable ends with its own gap lines, if any; these join that list.
  return table.includes('\n\n  ') ? [table, ...gaps].join('\n') : [table, '', ...gaps].join('\n');
}
