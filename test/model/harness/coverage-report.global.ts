import { clearCoverageRecords, formatCoverageTable, readCoverageRecords } from './coverage-files';

/**
 * Vitest global setup of the model project: forget the records of an earlier run, and print the coverage
 * table once every model test file has written its record.
 */
export function setup(): void {
  clearCoverageRecords();
}

export function teardown(): void {
  console.log(`\n${formatCoverageTable(readCoverageRecords())}\n`);
}
