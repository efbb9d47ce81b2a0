import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import {
  type CoverageRecord,
  catalogueCoverage,
  formatCatalogueCoverage,
} from '../model/harness/coverage-files';
import type { PathsRecord } from '../model/harness/path-records';
import {
  buildModelReport,
  type ModelReport,
  REPORT_HTML,
  REPORT_JSON,
  renderModelReportHtml,
  verifyModelReport,
  writeModelReport,
} from '../model/harness/report';
import { reviewMachine } from './review-fixture.machine';

/** The report writer with synthetic records: what QA and auditors read must say what the run did. */

const HOSTILE = '<script>alert("x")</script> & \'y\'';

// Three leaf states (a, b, done) and two transitions; no model test file reports for it.
const silentMachine = createMachine({
  id: 'silent',
  initial: 'a',
  states: { a: { on: { GO: 'b' } }, b: { on: { END: 'done' } }, done: { type: 'final' } },
});

const catalogue = [
  { id: 'review', title: `Revisión ${HOSTILE}`, description: 'Revisa un monto.', machine: reviewMachine },
  { id: 'silent', title: 'Silenciosa', description: 'Nadie la prueba.', machine: silentMachine },
];

const reviewCoverage: CoverageRecord = {
  id: 'review',
  states: { covered: 8, total: 8, missing: [] },
  transitions: { covered: 12, total: 13, waived: 1, missing: [] },
  paths: { total: 2, passed: 1, failed: 1 },
};

const reviewPaths: PathsRecord = {
  id: 'review',
  checks: [{ name: 'has an assertion for every reachable leaf state', label: 'Cada estado…', problems: [] }],
  paths: [
    {
      name: 'amount.set(amount=5000) ⇒ editing',
      status: 'passed',
      steps: [
        {
          index: 0,
          eventType: 'xstate.init',
          event: '(inicio)',
          state: 'editing',
          stateLabels: ['Editando'],
          executed: false,
          eventExpects: 0,
          assertions: [{ key: '#review.editing', expects: 2, ok: true }],
        },
        {
          index: 1,
          eventType: 'amount.set',
          event: 'amount.set(amount=5000)',
          eventLabel: 'Capturar monto',
          state: 'editing',
          stateLabels: ['Editando'],
          executed: true,
          eventExpects: 1,
          assertions: [{ key: '#review.editing', expects: 2, ok: true }],
        },
      ],
    },
    {
      name: `request.submit → scoreRequest.error ⇒ failed ${HOSTILE}`,
      status: 'failed',
      failure: {
        message: `expected "${HOSTILE}" to be visible`,
        phase: 'state',
        step: 1,
        key: '#review.scoring',
      },
      steps: [
        {
          index: 0,
          eventType: 'xstate.init',
          event: '(inicio)',
          state: 'editing',
          stateLabels: [],
          executed: false,
          eventExpects: 0,
          assertions: [{ key: '#review.editing', expects: 3, ok: true }],
        },
        {
          index: 1,
          eventType: 'request.submit',
          event: 'request.submit',
          state: 'scoring',
          stateLabels: [],
          executed: true,
          eventExpects: 0,
          assertions: [{ key: '#review.scoring', expects: 1, ok: false }],
        },
        {
          index: 2,
          eventType: 'xstate.error.actor.scoreRequest',
          event: 'scoreRequest.error',
          state: 'failed',
          stateLabels: [],
          executed: false,
          eventExpects: 0,
          assertions: [],
        },
      ],
    },
  ],
};

const coverage = catalogueCoverage([reviewCoverage], catalogue);
const printed = formatCatalogueCoverage(coverage);
const input = { catalogue, coverage, printed, paths: [reviewPaths], commit: 'abc1234' };

describe('model report', () => {
  const dir = mkdtempSync(join(tmpdir(), 'model-report-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes JSON whose coverage prints exactly the table the run printed', () => {
    writeModelReport(dir, input);
    const report = JSON.parse(readFileSync(join(dir, REPORT_JSON), 'utf8')) as ModelReport;
    expect(formatCatalogueCoverage(report.coverage)).toBe(printed);
    expect(report.coverage.table).toBe(printed);
    expect(report.summary).toMatchObject({
      machines: 2,
      silent: 1,
      paths: { total: 2, passed: 1, failed: 1, notRun: 0 },
      expects: 2 + 1 + 2 + 3 + 1,
    });
    expect(readFileSync(join(dir, REPORT_HTML), 'utf8')).toContain('<pre>Model coverage\nmachine');
  });

  it('lists every catalogue machine, also one whose test file reported nothing', () => {
    const report = buildModelReport(input);
    expect(report.machines.map((m) => [m.id, m.reported])).toEqual([
      ['review', true],
      ['silent', false],
    ]);
    const html = renderModelReportHtml(report);
    expect(html).toContain('id="m-review"');
    expect(html).toMatch(/id="m-silent"[^>]*>.*Silenciosa.*sin registro/s);
    expect(html).toContain('silent: su archivo de pruebas no informó');
  });

  it('shows a failing path with its failure, its step and the assertion that threw', () => {
    const html = renderModelReportHtml(buildModelReport(input));
    expect(html).toContain('Caminos fallidos (1)');
    expect(html).toMatch(/Falló en el paso 1, en la aserción del estado <code>#review.scoring<\/code>/);
    expect(html).toContain('expected &quot;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    // The step after the failure was never reached; the executor's and the assertions' expect() are counted.
    expect(html).toContain('no alcanzado');
    expect(html).toContain('Capturar monto<br><code>amount.set(amount=5000)</code>');
    expect(html).toContain('<code>#review.editing</code>: 2 expect()');
  });

  it('escapes every text it did not write itself', () => {
    const html = renderModelReportHtml(buildModelReport(input));
    expect(html).not.toContain('<script>');
    expect(html).toContain('Revisión &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;');
    // Self-contained: no stylesheet, script or image is fetched.
    expect(html).not.toMatch(/<link|<script|src=|@import|url\(/);
  });

  it('fails loudly when the report does not print the table the run printed', () => {
    const report = buildModelReport(input);
    const tampered: ModelReport = {
      ...report,
      coverage: {
        ...report.coverage,
        rows: report.coverage.rows.map((row) => ({ ...row, paths: { ...row.paths, passed: 9 } })),
      },
    };
    expect(verifyModelReport(report, printed, ['review', 'silent'])).toEqual([]);
    expect(verifyModelReport(tampered, printed, ['review', 'silent']).join('\n')).toMatch(
      /formats to a different table than the run printed/,
    );
    expect(verifyModelReport(report, printed, ['review', 'silent', 'gone'])).toEqual([
      'machine gone is missing from the report',
    ]);
    expect(() => writeModelReport(dir, { ...input, printed: `${printed}\nextra` })).toThrow(
      /does not match this run/,
    );
  });

  it('fails when the path records disagree with the coverage counts', () => {
    const wrong = { ...input, paths: [{ ...reviewPaths, paths: reviewPaths.paths.slice(0, 1) }] };
    expect(() => writeModelReport(dir, wrong)).toThrow(
      /review: paths recorded 1 \(1 passed, 0 failed\), coverage says 2/,
    );
  });
});
