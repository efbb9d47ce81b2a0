import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AnyStateMachine } from 'xstate';
import { type CatalogueCoverage, type CoverageRecord, formatCatalogueCoverage } from './coverage-files';
import type { CheckRecord, PathRecord, PathsRecord, StepRecord } from './path-records';

/**
 * `npm run test:model -- --report`: every machine of the catalogue, every generated path with its steps, the
 * assertions that ran at each step, each result and the coverage table, as `report.json` and a self-contained
 * `index.html` for QA and auditors. Written by the model project's global teardown from the per-file records.
 */

export const REPORT_JSON = 'report.json';
export const REPORT_HTML = 'index.html';

export interface MachineReport {
  id: string;
  /** The machine's Spanish title (catalogue), or its id when the catalogue does not know it. */
  title: string;
  description: string;
  /** Its row of the coverage table (a 0/N placeholder when its test file reported nothing). */
  coverage: CoverageRecord;
  /** Whether its model test file wrote a coverage record this run. */
  reported: boolean;
  /** The meta-tests and their findings; null when the file wrote no path record. */
  checks: CheckRecord[] | null;
  paths: PathRecord[];
}

export interface ModelReport {
  generatedAt: string;
  commit: string | null;
  summary: {
    machines: number;
    silent: number;
    paths: { total: number; passed: number; failed: number; notRun: number };
    states: { covered: number; total: number };
    transitions: { covered: number; total: number; waived: number };
    /** expect() calls made by executors and state assertions over every path. */
    expects: number;
  };
  /** `rows` and `silent` are the input of the printed table; `table` is the text the run printed. */
  coverage: CatalogueCoverage & { table: string };
  machines: MachineReport[];
}

export interface ReportInput {
  catalogue: readonly { id: string; title: string; description: string; machine: AnyStateMachine }[];
  coverage: CatalogueCoverage;
  /** The table the run printed (`formatCatalogueCoverage(coverage)`). */
  printed: string;
  paths: readonly PathsRecord[];
  generatedAt?: Date;
  commit?: string | null;
}

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

const stepExpects = (step: StepRecord): number =>
  step.eventExpects + sum(step.assertions.map((a) => a.expects));

function currentCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

export function buildModelReport(input: ReportInput): ModelReport {
  const entries = new Map(input.catalogue.map((entry) => [entry.id, entry]));
  const pathRecords = new Map(input.paths.map((record) => [record.id, record]));
  const silent = new Set(input.coverage.silent);
  const machines: MachineReport[] = input.coverage.rows.map((row) => {
    const entry = entries.get(row.id);
    const record = pathRecords.get(row.id);
    return {
      id: row.id,
      title: entry?.title ?? row.id,
      description: entry?.description ?? '',
      coverage: row,
      reported: !silent.has(row.id),
      checks: record?.checks ?? null,
      paths: record?.paths ?? [],
    };
  });
  const rows = input.coverage.rows;
  const allPaths = machines.flatMap((machine) => machine.paths);
  return {
    generatedAt: (input.generatedAt ?? new Date()).toISOString(),
    commit: input.commit === undefined ? currentCommit() : input.commit,
    summary: {
      machines: rows.length,
      silent: input.coverage.silent.length,
      paths: {
        total: sum(rows.map((r) => r.paths.total)),
        passed: sum(rows.map((r) => r.paths.passed)),
        failed: sum(rows.map((r) => r.paths.failed)),
        notRun: allPaths.filter((path) => path.status === 'not run').length,
      },
      states: {
        covered: sum(rows.map((r) => r.states.covered)),
        total: sum(rows.map((r) => r.states.total)),
      },
      transitions: {
        covered: sum(rows.map((r) => r.transitions.covered)),
        total: sum(rows.map((r) => r.transitions.total)),
        waived: sum(rows.map((r) => r.transitions.waived)),
      },
      expects: sum(allPaths.flatMap((path) => path.steps.map(stepExpects))),
    },
    coverage: { rows: input.coverage.rows, silent: input.coverage.silent, table: input.printed },
    machines,
  };
}

/**
 * What is wrong with a report read back from disk: its coverage must print exactly the table the run printed
 * (same `formatCatalogueCoverage` input), every catalogue machine must appear, and each machine's path
 * results must add up to its coverage row. Empty when it is right.
 */
export function verifyModelReport(
  report: ModelReport,
  printed: string,
  catalogueIds: readonly string[],
): string[] {
  const problems: string[] = [];
  const reformatted = formatCatalogueCoverage({ rows: report.coverage.rows, silent: report.coverage.silent });
  if (reformatted !== printed) {
    problems.push(
      `the report's coverage formats to a different table than the run printed:\n--- printed\n${printed}\n--- from ${REPORT_JSON}\n${reformatted}`,
    );
  }
  if (report.coverage.table !== printed) problems.push(`coverage.table is not the printed table`);
  const ids = new Set(report.machines.map((machine) => machine.id));
  for (const id of catalogueIds) if (!ids.has(id)) problems.push(`machine ${id} is missing from the report`);
  for (const machine of report.machines) {
    if (machine.checks === null) continue;
    const count = (status: PathRecord['status']) => machine.paths.filter((p) => p.status === status).length;
    const { total, passed, failed } = machine.coverage.paths;
    if (machine.paths.length !== total || count('passed') !== passed || count('failed') !== failed) {
      problems.push(
        `${machine.id}: paths recorded ${machine.paths.length} (${count('passed')} passed, ${count('failed')} failed), coverage says ${total} (${passed} passed, ${failed} failed)`,
      );
    }
  }
  return problems;
}

/** Writes `report.json` and `index.html` into `dir`, reads the JSON back and verifies it; throws on any problem. */
export function writeModelReport(dir: string, input: ReportInput): { json: string; html: string } {
  const out = resolve(dir);
  mkdirSync(out, { recursive: true });
  const json = join(out, REPORT_JSON);
  const html = join(out, REPORT_HTML);
  const report = buildModelReport(input);
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(html, renderModelReportHtml(report));
  const problems = verifyModelReport(
    JSON.parse(readFileSync(json, 'utf8')) as ModelReport,
    input.printed,
    input.catalogue.map((entry) => entry.id),
  );
  if (problems.length > 0) throw new Error(`${json} does not match this run:\n${problems.join('\n')}`);
  return { json, html };
}

// ---------------------------------------------------------------------------------------------------------
// HTML

export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const STATUS_TEXT: Record<PathRecord['status'], string> = {
  passed: 'aprobado',
  failed: 'fallido',
  'not run': 'no ejecutado',
};

const STATUS_CLASS: Record<PathRecord['status'], string> = {
  passed: 'ok',
  failed: 'bad',
  'not run': 'muted',
};

const PHASE_TEXT = {
  setup: 'al preparar el camino (setup)',
  render: 'al mostrar la vista (render)',
  event: 'al ejecutar el evento',
  state: 'en la aserción del estado',
  teardown: 'al limpiar tras el camino (teardown)',
} as const;

/** `1 aprobado`, `3 fallidos`. */
const count = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

const pathAnchor = (machineId: string, index: number): string => `m-${machineId}-p${index + 1}`;

const CSS = `
:root { --ok: #1c6e42; --ok-bg: #e4f4ea; --bad: #a82a2a; --bad-bg: #fbe7e7; --muted: #5f6b7a; --line: #d5dbe3; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1c2127; margin: 0;
  padding: 24px 32px 64px; max-width: 1280px; }
h1 { font-size: 26px; margin: 0 0 4px; } h2 { font-size: 20px; margin: 32px 0 12px; border-bottom: 2px solid var(--line);
  padding-bottom: 4px; } h3 { font-size: 16px; margin: 16px 0 8px; }
.meta, .muted { color: var(--muted); }
code, pre { font: 13px/1.4 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
pre { background: #f5f7fa; border: 1px solid var(--line); padding: 10px; overflow-x: auto; white-space: pre-wrap;
  word-break: break-word; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 16px 0; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 10px 16px; min-width: 190px; }
.card b { display: block; font-size: 24px; } .card.ok { background: var(--ok-bg); } .card.bad { background: var(--bad-bg); }
table { border-collapse: collapse; width: 100%; margin: 8px 0; }
th, td { border: 1px solid var(--line); padding: 5px 8px; text-align: left; vertical-align: top; }
th { background: #eef1f5; } td.num { text-align: right; white-space: nowrap; }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; font-weight: 600; }
.badge.ok { background: var(--ok-bg); color: var(--ok); } .badge.bad { background: var(--bad-bg); color: var(--bad); }
.badge.muted { background: #eceff3; color: var(--muted); }
details { border: 1px solid var(--line); border-radius: 6px; margin: 8px 0; padding: 0 12px; }
details[open] { padding-bottom: 10px; }
summary { cursor: pointer; padding: 8px 0; font-weight: 600; }
details details summary { font-weight: 500; }
.failure { border-left: 4px solid var(--bad); background: var(--bad-bg); padding: 8px 12px; margin: 8px 0; }
tr.failed td { background: var(--bad-bg); } tr.skipped td { color: var(--muted); }
ul.checks { list-style: none; padding-left: 0; } ul.checks li::before { content: attr(data-mark) " "; font-weight: 700; }
ul.checks li.ok::before { color: var(--ok); } ul.checks li.bad::before { color: var(--bad); }
a { color: #215db0; }
@media print { details { break-inside: avoid; } summary { list-style: none; } body { padding: 0; } }
`;

function card(label: string, value: string, detail: string, tone = ''): string {
  return `<div class="card ${tone}"><span>${escapeHtml(label)}</span><b>${escapeHtml(value)}</b><span class="muted">${escapeHtml(detail)}</span></div>`;
}

function badge(status: PathRecord['status']): string {
  return `<span class="badge ${STATUS_CLASS[status]}">${STATUS_TEXT[status]}</span>`;
}

function eventCell(step: StepRecord): string {
  if (step.index === 0) return '<span class="muted">estado inicial</span>';
  const code = `<code>${escapeHtml(step.event)}</code>`;
  return step.eventLabel ? `${escapeHtml(step.eventLabel)}<br>${code}` : code;
}

function stateCell(step: StepRecord): string {
  const code = `<code>${escapeHtml(step.state)}</code>`;
  return step.stateLabels.length > 0 ? `${escapeHtml(step.stateLabels.join(' + '))}<br>${code}` : code;
}

function assertionsCell(step: StepRecord): string {
  const lines = step.assertions.map(
    (a) =>
      `${a.ok ? '' : '✗ '}<code>${escapeHtml(a.key)}</code>: ${a.expects} expect()${a.ok ? '' : ' <b>falló</b>'}`,
  );
  if (step.eventExpects > 0) lines.push(`<span class="muted">ejecutor: ${step.eventExpects} expect()</span>`);
  return lines.length > 0 ? lines.join('<br>') : '<span class="muted">—</span>';
}

function failureBlock(path: PathRecord): string {
  const failure = path.failure;
  if (!failure) return '';
  const where =
    failure.step === undefined
      ? PHASE_TEXT[failure.phase]
      : `en el paso ${failure.step}, ${PHASE_TEXT[failure.phase]}${failure.key ? ` <code>${escapeHtml(failure.key)}</code>` : ''}`;
  return `<div class="failure"><b>Falló ${where}</b><pre>${escapeHtml(failure.message)}</pre></div>`;
}

function stepsTable(path: PathRecord): string {
  const failedAt = path.failure?.step;
  const rows = path.steps.map((step) => {
    const reached =
      path.status === 'passed' ||
      step.executed ||
      step.assertions.length > 0 ||
      (failedAt !== undefined && step.index <= failedAt);
    const cls = step.index === failedAt ? 'failed' : reached ? '' : 'skipped';
    return `<tr class="${cls}"><td class="num">${step.index}</td><td>${eventCell(step)}</td><td>${stateCell(step)}</td><td>${reached ? assertionsCell(step) : '<span class="muted">no alcanzado</span>'}</td><td class="num">${reached ? stepExpects(step) : ''}</td></tr>`;
  });
  return `<table><thead><tr><th>Paso</th><th>Evento</th><th>Estado esperado</th><th>Aserciones que corrieron</th><th>expect()</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function pathDetails(machineId: string, path: PathRecord, index: number): string {
  return `<details id="${escapeHtml(pathAnchor(machineId, index))}"${path.status === 'failed' ? ' open' : ''}><summary>${badge(path.status)} ${index + 1}. ${escapeHtml(path.name)}</summary>${failureBlock(path)}${stepsTable(path)}</details>`;
}

function checksList(checks: CheckRecord[]): string {
  const items = checks.map((check) => {
    const ok = check.problems.length === 0;
    const problems = ok
      ? ''
      : `<ul>${check.problems.map((problem) => `<li><code>${escapeHtml(problem)}</code></li>`).join('')}</ul>`;
    return `<li class="${ok ? 'ok' : 'bad'}" data-mark="${ok ? '✓' : '✗'}">${escapeHtml(check.label)} <span class="muted">(${escapeHtml(check.name)})</span>${problems}</li>`;
  });
  return `<ul class="checks">${items.join('')}</ul>`;
}

function coverageText(row: CoverageRecord): { states: string; transitions: string; paths: string } {
  return {
    states: `${row.states.covered}/${row.states.total}`,
    transitions: `${row.transitions.covered}/${row.transitions.total} (exentas ${row.transitions.waived})`,
    paths: `${row.paths.total} (${count(row.paths.passed, 'aprobado')}${row.paths.failed > 0 ? `, ${count(row.paths.failed, 'fallido')}` : ''})`,
  };
}

function machineSection(machine: MachineReport): string {
  const c = coverageText(machine.coverage);
  const failed = machine.coverage.paths.failed > 0 || !machine.reported;
  const tone = !machine.reported ? 'bad' : machine.coverage.paths.failed > 0 ? 'bad' : 'ok';
  const head = `<summary>${escapeHtml(machine.title)} <code>${escapeHtml(machine.id)}</code> <span class="badge ${tone}">${machine.reported ? escapeHtml(c.paths) : 'sin registro'}</span></summary>`;
  const body: string[] = [];
  if (machine.description) body.push(`<p>${escapeHtml(machine.description)}</p>`);
  body.push(
    `<p>Estados ${escapeHtml(c.states)} · transiciones ${escapeHtml(c.transitions)} · caminos ${escapeHtml(c.paths)}</p>`,
  );
  if (!machine.reported) {
    body.push(
      '<p class="failure">Su archivo de pruebas de modelo no informó nada en esta ejecución (no se ejecutó, se filtró o falló antes de terminar).</p>',
    );
  }
  if (machine.checks) body.push('<h3>Comprobaciones del modelo</h3>', checksList(machine.checks));
  if (machine.paths.length > 0) {
    body.push(
      `<h3>Caminos generados (${machine.paths.length})</h3>`,
      ...machine.paths.map((path, index) => pathDetails(machine.id, path, index)),
    );
  } else if (machine.reported) {
    body.push('<p class="muted">Sin registro de caminos (la ejecución no se hizo con --report).</p>');
  }
  return `<details id="m-${escapeHtml(machine.id)}"${failed ? ' open' : ''}>${head}${body.join('')}</details>`;
}

function coverageTable(report: ModelReport): string {
  const rows = report.machines.map((machine) => {
    const c = coverageText(machine.coverage);
    return `<tr><td><a href="#m-${escapeHtml(machine.id)}">${escapeHtml(machine.id)}</a></td><td>${escapeHtml(machine.title)}</td><td class="num">${escapeHtml(c.states)}</td><td class="num">${escapeHtml(c.transitions)}</td><td class="num">${machine.reported ? escapeHtml(c.paths) : 'sin registro'}</td></tr>`;
  });
  const gaps = report.machines.flatMap((machine) => [
    ...machine.coverage.states.missing.map((id) => `${machine.id}: estado no alcanzado: ${id}`),
    ...machine.coverage.transitions.missing.map((key) => `${machine.id}: transición no tomada: ${key}`),
    ...(machine.reported ? [] : [`${machine.id}: su archivo de pruebas no informó`]),
  ]);
  return [
    `<table><thead><tr><th>Máquina</th><th>Título</th><th>Estados</th><th>Transiciones</th><th>Caminos</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
    gaps.length > 0
      ? `<h3>Faltantes</h3><ul>${gaps.map((gap) => `<li><code>${escapeHtml(gap)}</code></li>`).join('')}</ul>`
      : '<p>Sin faltantes: cada estado hoja y cada transición no exenta se cubren.</p>',
    `<details><summary>Tabla impresa por la ejecución (idéntica a <code>coverage</code> de ${REPORT_JSON})</summary><pre>${escapeHtml(report.coverage.table)}</pre></details>`,
  ].join('');
}

export function renderModelReportHtml(report: ModelReport): string {
  const s = report.summary;
  const failedPaths = report.machines.flatMap((machine) =>
    machine.paths.flatMap((path, index) => (path.status === 'failed' ? [{ machine, path, index }] : [])),
  );
  const generated = report.generatedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
  const cards = [
    card(
      'Máquinas',
      String(s.machines),
      s.silent > 0 ? `${s.silent} sin registro` : 'todas informaron',
      s.silent > 0 ? 'bad' : 'ok',
    ),
    card(
      'Caminos',
      String(s.paths.total),
      `${count(s.paths.passed, 'aprobado')} · ${count(s.paths.failed, 'fallido')}${s.paths.notRun > 0 ? ` · ${s.paths.notRun} no ejecutado${s.paths.notRun === 1 ? '' : 's'}` : ''}`,
      s.paths.failed > 0 ? 'bad' : 'ok',
    ),
    card('Estados cubiertos', `${s.states.covered}/${s.states.total}`, 'estados hoja'),
    card(
      'Transiciones cubiertas',
      `${s.transitions.covered}/${s.transitions.total}`,
      `${s.transitions.waived} exentas`,
    ),
    card('Aserciones', String(s.expects), 'llamadas a expect() en los caminos'),
  ];
  const failures =
    failedPaths.length > 0
      ? `<h2>Caminos fallidos (${failedPaths.length})</h2><ul>${failedPaths
          .map(
            ({ machine, path, index }) =>
              `<li><a href="#${escapeHtml(pathAnchor(machine.id, index))}">${escapeHtml(machine.id)} · ${escapeHtml(path.name)}</a>${path.failure?.step !== undefined ? ` (paso ${path.failure.step})` : ''}</li>`,
          )
          .join('')}</ul>`
      : '';
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Informe de pruebas basadas en modelos · Flujo</title>
<style>${CSS}</style>
</head>
<body>
<h1>Informe de pruebas basadas en modelos · Flujo</h1>
<p class="meta">Generado ${escapeHtml(generated)}${report.commit ? ` · commit <code>${escapeHtml(report.commit)}</code>` : ''} · <code>npm run test:model -- --report</code></p>
<p>Cada máquina de flujo genera sus caminos de prueba (todas las transiciones y estados); cada camino se ejecuta contra la vista real con la aplicación real detrás de MSW, y en cada paso corren las aserciones del estado esperado.</p>
<h2>Resumen</h2>
<div class="cards">${cards.join('')}</div>
${failures}
<h2>Cobertura</h2>
${coverageTable(report)}
<h2>Máquinas</h2>
${report.machines.map(machineSection).join('\n')}
</body>
</html>
`;
}
