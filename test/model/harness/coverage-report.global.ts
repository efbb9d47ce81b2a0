import { type MachineEntry, machineCatalogue } from '../../../src/machines/catalogue';
import {
  type CoverageRecord,
  catalogueCoverage,
  clearCoverageRecords,
  formatCatalogueCoverage,
  readCoverageRecords,
} from './coverage-files';
import { clearPathsRecords, MODEL_REPORT_ENV, readPathsRecords } from './path-records';
import { writeModelReport } from './report';

/**
 * Vitest global setup of the model project: forget the records of an earlier run, and print the coverage
 * table once every model test file has written its record. With `MODEL_REPORT_DIR` (`--report`), also write
 * the HTML and JSON report there and check that its coverage prints as this very table.
 */
export function setup(): void {
  clearCoverageRecords();
  clearPathsRecords();
}

export function teardown(): void {
  const coverage = catalogueCoverage(readCoverageRecords(), machineCatalogue);
  const printed = formatCatalogueCoverage(coverage);
  console.log(`\n${printed}\n`);
  const dir = process.env[MODEL_REPORT_ENV];
  if (!dir) return;
  try {
    const written = writeModelReport(dir, {
      catalogue: machineCatalogue,
      coverage,
      printed,
      paths: readPathsRecords(),
    });
    console.log(`Model report: ${written.html} (JSON: ${written.json})\n`);
  } catch (error) {
    // Vitest only logs a teardown error; the exit code must say the report is wrong too.
    process.exitCode = 1;
    console.error(`\nMODEL REPORT FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
    throw error;
  }
}

/** The end-of-run table over the whole catalogue, a 0/N row and a gap line for a machine that reported nothing. */
export function formatCoverageReport(
  records: readonly CoverageRecord[],
  catalogue: readonly Pick<MachineEntry, 'id' | 'machine'>[],
): string {
  return formatCatalogueCoverage(catalogueCoverage(records, catalogue));
}
