import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { discoverMachines } from '../../scripts/diagram/discover';
import { machineCatalogue } from '../../src/machines/catalogue';
import { machineEntry } from '../../src/machines/machine-entry';
import { formatCoverageReport } from '../model/harness/coverage-report.global';
import { discoverModels } from '../model/harness/discover-models';
import { reviewMachine } from './review-fixture.machine';

describe('machine catalogue', () => {
  it('lists every machine exported by src/machines/*.machine.ts', async () => {
    const machines = await discoverMachines();
    expect(machines.length).toBeGreaterThanOrEqual(machineCatalogue.length);
    const catalogued = new Set<unknown>(machineCatalogue.map((entry) => entry.machine));
    const missing = machines.filter(({ machine }) => !catalogued.has(machine)).map(({ id }) => id);
    expect(missing, 'machines missing from src/machines/catalogue.gen.ts (run `npm run diagrams`)').toEqual(
      [],
    );
  });

  it('has unique ids, each with a model in test/model/<id>.model.ts for the same machine', async () => {
    const models = await discoverModels();
    const ids = machineCatalogue.map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(
      ids.filter((id) => !(id in models)),
      'catalogue ids without a model',
    ).toEqual([]);
    expect(
      Object.keys(models).filter((id) => !ids.includes(id)),
      'models of no catalogue id',
    ).toEqual([]);
    for (const entry of machineCatalogue) {
      expect(models[entry.id]?.machine, entry.id).toBe(entry.machine);
    }
  });

  it("takes each entry's title and description from the machine's own config", () => {
    const sample = createMachine({
      id: 'sample',
      meta: { title: 'Muestra' },
      description: 'Una máquina de muestra.',
      initial: 'a',
      states: { a: {} },
    });
    expect(machineEntry('sample', sample)).toEqual({
      id: 'sample',
      title: 'Muestra',
      description: 'Una máquina de muestra.',
      machine: sample,
    });
    const untitled = createMachine({
      id: 'untitled',
      description: 'Sin título.',
      initial: 'a',
      states: { a: {} },
    });
    expect(() => machineEntry('untitled', untitled)).toThrow(/meta: \{ title \}/);
    for (const entry of machineCatalogue) {
      expect(entry.title, entry.id).toBe(entry.machine.root.meta.title);
      expect(entry.description.length, entry.id).toBeGreaterThan(80);
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
