import { describe, expect, it } from 'vitest';
import { and, createMachine, not, setup, stateIn } from 'xstate';
import { describeMachine, formatGuard, INLINE } from '../../scripts/diagram/describe';
import { renderSvg } from '../../scripts/diagram/render-svg';
import { toDot } from '../../scripts/diagram/to-dot';
import { toMermaid } from '../../scripts/diagram/to-mermaid';
import { generatePaths, measureCoverage } from '../model/harness/model';
import { reviewEvents, reviewMachine } from './review-fixture.machine';

const review = describeMachine(reviewMachine);

describe('describeMachine', () => {
  it('reads labels from live state nodes: named guards and actions, delays, invoke outcomes, always', () => {
    const labels = Object.fromEntries(review.edges.map((edge) => [edge.key, edge.label]));
    expect(labels).toMatchObject({
      'review.editing|note.add|0': 'note.add / addNote',
      'review.editing|request.submit|0': 'request.submit [isLarge]',
      'review.scoring|xstate.done.actor.scoreRequest|0': 'scoreRequest.done / storeScore',
      'review.scoring|xstate.error.actor.scoreRequest|0': 'scoreRequest.error',
      'review.deciding|always|0': 'always [scoreHigh]',
      'review.failed|xstate.after.3000.review.failed|0': 'after 3000ms',
    });
    expect(review.states.get('review.scoring')?.invoke).toEqual(['scoreRequest']);
    // The raise/cancel pair behind `after` is not shown as entry/exit behaviour.
    expect(review.states.get('review.failed')).toMatchObject({ entry: [], exit: [] });
  });

  it('spells out higher-order guards and flags inline ones', () => {
    expect(formatGuard(and(['isLarge', not('hasNotes')]))).toBe('(isLarge && !hasNotes)');
    expect(formatGuard(stateIn('review.scoring'))).toBe('in(review.scoring)');
    expect(formatGuard({ type: 'withinLimit', params: { max: 3 } })).toBe('withinLimit');
    expect(formatGuard(() => true)).toBe(INLINE);
  });
});

describe('toMermaid', () => {
  const text = toMermaid(review, 'Revisión de solicitud');

  it('writes a stateDiagram-v2 with labelled edges', () => {
    expect(text).toContain('stateDiagram-v2');
    expect(text).toContain('title: "review · Revisión de solicitud"');
    expect(text).toContain('review_editing --> review_manualReview : request.submit [isLarge]');
    expect(text).toContain('review_scoring --> review_deciding : scoreRequest.done / storeScore');
    expect(text).toContain('review_deciding --> review_approved : always [scoreHigh]');
    expect(text).toContain('review_failed --> review_editing : after 3000ms');
    expect(text).toContain('review_scoring : invoke / scoreRequest');
    expect(text).toContain('review_approved --> [*]');
  });

  it('nests compound states and declares inner edges inside them', () => {
    const block = text.slice(text.indexOf('state "editing" as review_editing {'), text.indexOf('  }\n'));
    expect(block).toContain('[*] --> review_editing_empty');
    expect(block).toContain('review_editing_empty --> review_editing_filled : amount.set / setAmount');
    // A targetless transition is a self-loop.
    expect(block).toContain('review_editing_filled --> review_editing_filled : amount.set / setAmount');
  });

  it('separates parallel regions with --, and starts root transitions from a pseudo-state', () => {
    const machine = createMachine({
      id: 'upload',
      type: 'parallel',
      on: { 'session.expired': '.files.idle' },
      states: {
        files: { initial: 'idle', states: { idle: { on: { pick: 'picked' } }, picked: {} } },
        network: { initial: 'online', states: { online: { on: { drop: 'offline' } }, offline: {} } },
      },
    });
    const mermaid = toMermaid(describeMachine(machine), 'Carga');
    expect(mermaid).toMatch(
      /state "files" as upload_files \{[\s\S]*\n {2}--\n {2}state "network" as upload_network \{/,
    );
    expect(mermaid).toContain('upload__any --> upload_files_idle : session.expired');
  });
});

describe('toDot and renderSvg', () => {
  it('renders an SVG with every state, the header and labelled edges', async () => {
    const svg = await renderSvg(toDot(review, 'Revisión de solicitud'));
    expect(svg.startsWith('<?xml')).toBe(true);
    for (const name of [
      'editing',
      'empty',
      'filled',
      'scoring',
      'deciding',
      'failed',
      'manualReview',
      'approved',
    ]) {
      expect(svg).toContain(`>${name}</text>`);
    }
    expect(svg).toContain('Revisión de solicitud');
    // Without Spanish labels, the technical name and the guard's mark.
    expect(svg).toMatch(
      />request\.submit<\/text>\s*<text[^>]*>[\s\u00a0]*<\/text>\s*<text[^>]*>\[G1\]<\/text>/,
    );
    expect(svg).toContain('invoke / scoreRequest');
    // The element ids and classes the pages style and highlight.
    expect(svg).toContain('id="t:review.editing|request.submit|0:0" class="edge flujo&#45;edge"');
    expect(svg).toContain(
      'id="state:review.scoring" class="node flujo&#45;state flujo&#45;state&#45;&#45;atomic"',
    );
    expect(svg).toContain('id="init:review.editing"');
    expect(svg).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it('draws nested states as clusters, final states double-bordered and targetless loops dashed', () => {
    const dot = toDot(review, 'Revisión de solicitud');
    expect(dot).toContain('subgraph "cluster_review.editing"');
    expect(dot).toMatch(/"review\.approved" \[[^\]]*peripheries=2/);
    expect(dot).toMatch(/"review\.editing\.filled" -> "review\.editing\.filled" \[[^\]]*style="dashed"/);
    // An edge into a compound state ends at its border.
    expect(dot).toMatch(/-> "__initial:review\.editing" \[[^\]]*lhead="cluster_review\.editing"/);
  });

  it('colours exercised, unexercised and waived edges and prints the numbers', async () => {
    const model = {
      id: 'review',
      machine: reviewMachine,
      events: reviewEvents.filter((event) => event.type !== 'review.retry'),
      waivers: { 'review.failed|review.retry|0': 'covered end to end' },
    };
    const coverage = measureCoverage(model, generatePaths(model));
    const dot = toDot(review, 'Revisión de solicitud', {
      covered: new Set(coverage.transitions.covered.filter((key) => key !== 'review.deciding|always|1')),
      waived: new Set(coverage.transitions.waived),
      visitedStates: new Set(coverage.states.covered),
      summary: { states: '8/8', transitions: '11/13', waived: 1, paths: coverage.paths },
    });
    const edge = (key: string) => dot.split('\n').find((line) => line.includes(`id="t:${key}:0"`))!;
    expect(edge('review.editing|request.submit|0')).toMatch(/color="#1a7f37".*penwidth=2\.2/);
    expect(edge('review.deciding|always|1')).toMatch(/color="#cf222e".*style="dashed"/);
    expect(edge('review.failed|review.retry|0')).toMatch(/color="#8c959f".*style="dotted"/);
    const svg = await renderSvg(dot);
    expect(svg).toContain('estados 8/8 · transiciones 11/13 · exentas 1');
  });

  it('is byte-stable', async () => {
    const render = async () => renderSvg(toDot(describeMachine(reviewMachine), 'Revisión de solicitud'));
    expect(await render()).toBe(await render());
  });

  it('keeps inline implementations visible as such', () => {
    const machine = setup({}).createMachine({
      id: 'inline',
      initial: 'a',
      states: { a: { on: { go: { target: 'b', guard: () => true, actions: () => {} } } }, b: {} },
    });
    expect(describeMachine(machine).edges[0]?.label).toBe(`go [${INLINE}] / ${INLINE}`);
  });
});
