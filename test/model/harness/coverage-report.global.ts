import { type MachineEntry, machineCatalogue } from '../../../src/machines/catalogue';
import {
  type CoverageRecord,
  clearCoverageRecords,
  formatCoverageTable,
  readCoverageRecords,
} from './coverage-files';
import { leafStateIds, listTransitions } from './inventory';

/**
 * Vitest global setup of the model project: forget the records of an earlier run, and print the coverage
 * table once every model test file has written its record.
 */
export function setup(): void {
  clearCoverageRecords();
}

export function teardown(): void {
  console.log(`\n${formatCoverageReport(readCoverageRecords(), machineCatalogue)}\n`);
}

/**
 * The coverage table over the whole catalogue: a machine whose model test file reported nothing (deleted,
 * not run, or crashed before its suite ended) gets a 0/N row and a gap line instead of dropping out.
 */
export function formatCoverageReport(
  records: readonly CoverageRecord[],
  catalogue: readonly Pick<MachineEntry, 'id' | 'machine'>[],
): string {
  const reported = new Set(records.map((record) => record.id));
  const silent = catalogue.filter((entry) => !reported.has(entry.id));
  const placeholders: CoverageRecord[] = silent.map((entry) => ({
    id: entry.id,
    states: { covered: 0, total: leafStateIds(entry.machine).length, missing: [] },
    transitions: { covered: 0, total: listTransitions(entry.machine).length, waived: 0, missing: [] },
    paths: { total: 0, passed: 0, failed: 0 },
  }));
  const table = formatCoverageTable([...records, ...placeholders].sort((a, b) => a.id.localeCompare(b.id)));
  if (silent.length === 0) return table;
  const gaps = silent.map((entry) => `  ${entry.id}: no model test file reported`).sort();
  // formatCoverageTable ends with its own gap lines, if any; these join that list.
  return table.includes('\n\n  ') ? [table, ...gaps].join('\n') : [table, '', ...gaps].join('\n');
}
