import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import {
  type DiagramEntry,
  type IndexEntry,
  TABLE_END,
  TABLE_START,
  writeDiagrams,
} from '../../scripts/diagrams';
import type { MachineDetails } from '../../src/machines/diagram-details';
import type { MachineModel } from '../model/harness/model';
import { reviewEvents, reviewMachine } from './review-fixture.machine';

const toggle = createMachine({
  id: 'toggle',
  initial: 'off',
  states: { off: { on: { flip: 'on' } }, on: { on: { flip: 'off' } } },
});

const catalogue: DiagramEntry[] = [
  {
    id: 'review',
    title: 'Revisión de solicitud',
    description: 'Una solicitud se revisa.',
    machine: reviewMachine,
  },
  { id: 'toggle', title: 'Interruptor', description: 'Sin modelo.', machine: toggle },
];
const models: Record<string, MachineModel> = {
  review: { id: 'review', machine: reviewMachine, events: reviewEvents },
};

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'diagrams-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// Each case lays out machines and writes SVGs several times: CPU-bound work that takes seconds on a busy 2-core
// machine, so the limit is a hang guard well above it, not vitest's 5 s default.
describe('writeDiagrams', { timeout: 60_000 }, () => {
  it('writes mmd, svg, coverage svg and details per machine and an index; warns about machines without a model', async () => {
    const dir = tempDir();
    const result = await writeDiagrams(dir, { catalogue, models });
    expect(result.written.sort()).toEqual([
      'index.json',
      'review.coverage.svg',
      'review.json',
      'review.mmd',
      'review.svg',
      'toggle.coverage.svg',
      'toggle.json',
      'toggle.mmd',
      'toggle.svg',
    ]);
    expect(result.warnings).toEqual([expect.stringContaining('toggle: no model')]);
    const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as IndexEntry[];
    expect(index).toEqual([
      {
        id: 'review',
        title: 'Revisión de solicitud',
        description: 'Una solicitud se revisa.',
        states: 8,
        transitions: 13,
        coverage: expect.objectContaining({ states: '8/8', transitions: '13/13', waived: 0, paths: 11 }),
      },
      {
        id: 'toggle',
        title: 'Interruptor',
        description: 'Sin modelo.',
        states: 2,
        transitions: 2,
        coverage: null,
      },
    ]);
    // Per transition, so the page colours each edge itself.
    const review = index[0]!.coverage!;
    expect(review.covered).toHaveLength(13);
    expect(review.covered).toContain('review.editing|request.submit|0');
    expect(review.waivedKeys).toEqual([]);
    expect(review.visitedStates).toContain('review.approved');
    expect(readFileSync(join(dir, 'toggle.coverage.svg'), 'utf8')).toContain('Sin modelo de pruebas');
    const details = JSON.parse(readFileSync(join(dir, 'toggle.json'), 'utf8')) as MachineDetails;
    expect(details).toMatchObject({ id: 'toggle', machineId: 'toggle', title: 'Interruptor', guards: [] });
    expect(details.states.map((state) => [state.id, state.label, state.initial])).toEqual([
      ['toggle.off', 'off', true],
      ['toggle.on', 'on', false],
    ]);
    expect(details.transitions[0]).toEqual({
      key: 'toggle.off|flip|0',
      source: 'toggle.off',
      targets: ['toggle.on'],
      event: 'flip',
      technical: 'flip',
      label: 'flip',
      actions: [],
    });
  });

  it('check mode passes on fresh output and lists stale, missing and extra files', async () => {
    const dir = tempDir();
    await writeDiagrams(dir, { catalogue, models });
    expect(await writeDiagrams(dir, { catalogue, models, check: true })).toMatchObject({
      stale: [],
      missing: [],
      extra: [],
    });

    writeFileSync(join(dir, 'review.mmd'), 'stateDiagram-v2\n');
    rmSync(join(dir, 'toggle.svg'));
    writeFileSync(join(dir, 'old-machine.svg'), '<svg/>');
    writeFileSync(join(dir, 'README.md'), 'not managed');
    const check = await writeDiagrams(dir, { catalogue, models, check: true });
    expect(check).toMatchObject({
      stale: ['review.mmd'],
      missing: ['toggle.svg'],
      extra: ['old-machine.svg'],
    });
    expect(check.written).toEqual([]);
    expect(readFileSync(join(dir, 'review.mmd'), 'utf8')).toBe('stateDiagram-v2\n');

    // Write mode repairs all three and leaves unmanaged files alone.
    await writeDiagrams(dir, { catalogue, models });
    expect(existsSync(join(dir, 'old-machine.svg'))).toBe(false);
    expect(existsSync(join(dir, 'README.md'))).toBe(true);
    expect(await writeDiagrams(dir, { catalogue, models, check: true })).toMatchObject({
      stale: [],
      missing: [],
      extra: [],
    });
  });

  it('detects a machine change as stale output', async () => {
    const dir = tempDir();
    await writeDiagrams(dir, { catalogue, models });
    const changed = createMachine({
      id: 'toggle',
      initial: 'off',
      states: { off: { on: { flip: 'on' } }, on: { on: { flip: 'off', reset: 'off' } } },
    });
    const check = await writeDiagrams(dir, {
      catalogue: [catalogue[0]!, { ...catalogue[1]!, machine: changed }],
      models,
      check: true,
    });
    expect(check.stale).toEqual([
      'toggle.mmd',
      'toggle.json',
      'toggle.svg',
      'toggle.coverage.svg',
      'index.json',
    ]);
  });

  it('keeps the catalogue module and the README table between its markers in step', async () => {
    const dir = tempDir();
    const readme = join(dir, 'README.md');
    const catalogueModule = join(dir, 'catalogue.gen.ts');
    const targets = { readme, catalogueModule };
    writeFileSync(readme, `# Flujo\n\n${TABLE_START}\n| old |\n${TABLE_END}\n\nDespués.\n`);

    const before = await writeDiagrams(join(dir, 'out'), { catalogue, models, targets, check: true });
    expect(before.missing).toContain(relative(process.cwd(), catalogueModule));
    expect(before.stale).toEqual([relative(process.cwd(), readme)]);

    await writeDiagrams(join(dir, 'out'), { catalogue, models, targets });
    expect(readFileSync(readme, 'utf8')).toBe(
      [
        '# Flujo',
        '',
        TABLE_START,
        '| machine | title | states | transitions | paths |',
        '|---|---|---|---|---|',
        '| [review](docs/diagrams/review.svg) | Revisión de solicitud | 8/8 | 13/13 (waived 0) | 11 |',
        '| [toggle](docs/diagrams/toggle.svg) | Interruptor | 0/2 | 0/2 | no model |',
        TABLE_END,
        '',
        'Después.',
        '',
      ].join('\n'),
    );
    // The module lists the machines found in src/machines, whatever `catalogue` the call was given.
    const module = readFileSync(catalogueModule, 'utf8');
    expect(module).toContain("import { signUpMachine } from './sign-up.machine';");
    expect(module).toContain("  ['sign-up', signUpMachine],");
    expect(await writeDiagrams(join(dir, 'out'), { catalogue, models, targets, check: true })).toMatchObject({
      stale: [],
      missing: [],
      extra: [],
    });
  });
});
