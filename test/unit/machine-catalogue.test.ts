import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createMachine, StateMachine } from 'xstate';
import { machineCatalogue } from '../../src/machines/catalogue';
import { formatCoverageReport } from '../model/harness/coverage-report.global';
import { modelCatalogue } from '../model/models';
import { reviewMachine } from './review-fixture.machine';

const MACHINES_DIR = resolve('src/machines');

/** Every StateMachine exported by src/machines/*.machine.ts, as "file#export". */
async function exportedMachines(): Promise<Map<string, unknown>> {
  const found = new Map<string, unknown>();
  const files = readdirSync(MACHINES_DIR).filter((file) => file.endsWith('.machine.ts'));
  for (const file of files) {
    const module = (await import(pathToFileURL(resolve(MACHINES_DIR, file)).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      if (value instanceof StateMachine) found.set(`${file}#${name}`, value);
    }
  }
  return found;
}

describe('machine catalogue', () => {
  it('lists every machine exported by src/machines/*.machine.ts', async () => {
    const machines = await exportedMachines();
    expect(machines.size).toBeGreaterThanOrEqual(machineCatalogue.length);
    const catalogued = new Set<unknown>(machineCatalogue.map((entry) => entry.machine));
    const missing = [...machines].filter(([, machine]) => !catalogued.has(machine)).map(([name]) => name);
    expect(missing, 'machines missing from src/machines/catalogue.ts').toEqual([]);
  });

  it('has unique ids, each with a model in test/model/models.ts for the same machine', () => {
    const ids = machineCatalogue.map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(
      ids.filter((id) => !(id in modelCatalogue)),
      'catalogue ids without a model',
    ).toEqual([]);
    expect(
      Object.keys(modelCatalogue).filter((id) => !ids.includes(id)),
      'models of no catalogue id',
    ).toEqual([]);
    for (const entry of machineCatalogue) {
      expect(modelCatalogue[entry.id]?.machine, entry.id).toBe(entry.machine);
    }
  });
});

describe('model coverage report', () => {
  const reported = {
    id: 'review',
    states: { covered: 8, total: 8, missing: [] },
    transitions: { covered: 13, total: 13, waived: 0, missing: [] },
    paths: { total: 11, passed: 11, failed: 0 },
  };
  // Three leaf states (a, b, done) and two transitions.
  const silentMachine = createMachine({
    id: 'silent',
    initial: 'a',
    states: { a: { on: { GO: 'b' } }, b: { on: { END: 'done' } }, done: { type: 'final' } },
  });

  it('shows a catalogue machine that reported nothing as a 0/N row with a gap line', () => {
    const report = formatCoverageReport(
      [reported],
      [
        { id: 'review', machine: reviewMachine },
        { id: 'silent', machine: silentMachine },
      ],
    );
    expect(report).toMatch(/review\s+\| 8\/8\s+\| 13\/13 \(waived 0\) \| 11 \(11 passed\)/);
    expect(report).toMatch(/silent\s+\| 0\/3\s+\| 0\/2 \(waived 0\)\s+\| 0 \(0 passed\)/);
    expect(report.split('\n').at(-1)).toBe('  silent: no model test file reported');
    expect(report).toMatch(/\n\n {2}silent: no model test file reported$/);
  });

  it('prints the table unchanged when every catalogue machine reported', () => {
    const report = formatCoverageReport([reported], [{ id: 'review', machine: reviewMachine }]);
    expect(report).not.toContain('no model test file reported');
    expect(report.split('\n')).toHaveLength(4);
  });

  it('still lists every catalogue machine when no file reported at all', () => {
    const report = formatCoverageReport([], [{ id: 'silent', machine: silentMachine }]);
    expect(report).toContain('machine | states | transitions');
    expect(report).toMatch(/silent\s+\| 0\/3/);
  });
});
