import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';
import { type MachineEntry, machineCatalogue } from '../src/machines/catalogue';
import { eventKey, eventLabel, guardSentence, guardTree, stateLabel } from '../src/machines/machine-texts';
import { discoverModels } from '../test/model/harness/discover-models';
import { allStateNodes, listTransitions } from '../test/model/harness/inventory';
import {
  type Coverage,
  generatePaths,
  type MachineModel,
  measureCoverage,
  uncoveredTransitions,
} from '../test/model/harness/model';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';
import { guardSentenceOf } from './diagram/labels';

/**
 * `npm run docs:workflows [-- --out <file>]` writes the "Manual de flujos de Flujo" PDF for auditors: a cover
 * with the date and the commit it was built from, a table of contents, the model tests' coverage over every
 * machine, then per machine of the catalogue its title, description, diagram (docs/diagrams/<id>.svg as it
 * is), states, transitions with their guards in Spanish, and coverage. The document is HTML printed by
 * Chromium (docs/decisions/0046-workflow-manual.md): each part is printed on its own so the contents can give
 * real page numbers, then pdf-lib joins the parts, numbers the pages and sets the metadata.
 */

export const MANUAL_TITLE = 'Manual de flujos de Flujo';
export const DEFAULT_OUT = resolve('.tmp/manual-de-flujos-de-flujo.pdf');
export const DIAGRAMS_DIR = fileURLToPath(new URL('../docs/diagrams/', import.meta.url));
const BRAND = '#0f6894';

export interface ManualSource {
  machines: readonly MachineEntry[];
  models: Record<string, MachineModel>;
  /** `git rev-parse HEAD`. */
  commit: string;
  /** The work tree had uncommitted changes to tracked files. */
  dirty: boolean;
  generatedAt: Date;
  diagramsDir: string;
}

interface MachineCoverage {
  coverage: Coverage;
  waivers: Record<string, string>;
}

function git(args: string[]): string {
  return execFileSync('git', args, { encoding: 'utf8' }).trim();
}

/** The catalogue, its models and the commit the manual is built from. */
export async function loadManualSource(): Promise<ManualSource> {
  return {
    machines: machineCatalogue,
    models: await discoverModels(),
    commit: git(['rev-parse', 'HEAD']),
    // Untracked files are left out: the worktree's node_modules link would always count.
    dirty: git(['status', '--porcelain', '--untracked-files=no']) !== '',
    generatedAt: new Date(),
    diagramsDir: DIAGRAMS_DIR,
  };
}

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const code = (text: string): string => `<code>${escapeHtml(text)}</code>`;

/** As scripts/diagrams.ts measures it: the model's generated paths replayed over the machine. */
function measure(model: MachineModel | undefined): MachineCoverage | null {
  if (!model) return null;
  return { coverage: measureCoverage(model, generatePaths(model)), waivers: { ...model.waivers } };
}

function label(node: AnyStateNode): string {
  return stateLabel(node) ?? node.key;
}

/** A state's technical name within its machine: `ready.idle` for `invoiceDownload.ready.idle`. */
const shortId = (node: AnyStateNode): string => node.path.join('.');

function stateKind(node: AnyStateNode): string {
  const kinds: string[] = [];
  const parent = node.parent;
  if (parent?.initial?.target.includes(node)) kinds.push('inicial');
  if (node.type === 'final') kinds.push('final');
  if (node.type === 'compound') kinds.push('compuesto');
  if (node.type === 'parallel') kinds.push('paralelo');
  if (node.type === 'history') kinds.push('historial');
  return kinds.length > 0 ? kinds.join(', ') : 'intermedio';
}

/** A transition's guard as one Spanish sentence, composed as the diagrams compose it (scripts/diagram/labels.ts). */
export function guardText(machine: AnyStateMachine, guard: unknown): string {
  if (!guard) return '';
  return escapeHtml(guardSentenceOf(guardTree(guard), (name) => guardSentence(machine, name)));
}

function eventCell(machine: AnyStateMachine, eventType: string): string {
  const key = eventKey(eventType === 'always' ? '' : eventType);
  return `${escapeHtml(eventLabel(machine, key) ?? key)}<br>${code(key)}`;
}

function targetCell(transition: AnyTransitionDefinition): string {
  const targets = transition.target ?? [];
  if (targets.length === 0) return '<span class="muted">Se queda en el mismo estado</span>';
  return targets.map((target) => `${escapeHtml(label(target))}<br>${code(shortId(target))}`).join('<br>');
}

function coverageLine(measured: MachineCoverage | null): string {
  if (!measured) return 'Sin modelo: ninguna prueba generada recorre esta máquina.';
  const { states, transitions, paths } = measured.coverage;
  return (
    `Estados ${states.covered.length}/${states.total.length} · transiciones ` +
    `${transitions.covered.length}/${transitions.total.length} · exentas ${transitions.waived.length} · ` +
    `caminos generados ${paths}`
  );
}

function stateTable(entry: MachineEntry): string {
  const nodes = allStateNodes(entry.machine).filter((node) => node !== entry.machine.root);
  // The description column only when some state has one (xstate's optional `description`).
  const described = nodes.some((node) => node.description);
  const rows = nodes.map((node) => {
    const depth = node.path.length - 1;
    return (
      `<tr><td style="padding-left:${6 + depth * 14}px">${escapeHtml(label(node))}</td>` +
      `<td>${code(node.id)}</td><td>${escapeHtml(stateKind(node))}</td>` +
      (described ? `<td>${escapeHtml(node.description ?? '')}</td>` : '') +
      '</tr>'
    );
  });
  const columns = described ? ['34%', '28%', '14%', '24%'] : ['40%', '42%', '18%'];
  return (
    `<table class="states"><colgroup>${columns.map((width) => `<col style="width:${width}">`).join('')}</colgroup>` +
    '<thead><tr><th>Estado</th><th>Identificador técnico</th><th>Tipo</th>' +
    `${described ? '<th>Descripción</th>' : ''}</tr></thead><tbody>${rows.join('')}</tbody></table>`
  );
}

function transitionTable(entry: MachineEntry, measured: MachineCoverage | null): string {
  const covered = new Set(measured?.coverage.transitions.covered ?? []);
  const waived = new Set(measured?.coverage.transitions.waived ?? []);
  const rows = listTransitions(entry.machine).map(({ key, source, eventType, index, transition }) => {
    let guard = guardText(entry.machine, transition.guard);
    // A later unguarded alternative of the same event runs only when the earlier ones' guards fail.
    if (!guard && index > 0) guard = '<span class="muted">En cualquier otro caso.</span>';
    const mark = covered.has(key)
      ? '<span class="ok">sí</span>'
      : waived.has(key)
        ? '<span class="waived">exenta</span>'
        : '<span class="no">no</span>';
    return (
      `<tr><td>${escapeHtml(label(source))}<br>${code(shortId(source))}</td>` +
      `<td>${eventCell(entry.machine, eventType)}</td><td class="guard">${guard}</td>` +
      `<td>${targetCell(transition)}</td><td class="mark">${mark}</td></tr>`
    );
  });
  return (
    '<table class="transitions"><colgroup><col style="width:17%"><col style="width:22%">' +
    '<col style="width:35%"><col style="width:17%"><col style="width:9%"></colgroup><thead><tr><th>Desde</th><th>Evento</th><th>Condición</th><th>Hacia</th>' +
    `<th>Probada</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
  );
}

function coverageSection(entry: MachineEntry, measured: MachineCoverage | null): string {
  if (!measured) return `<p>${coverageLine(null)}</p>`;
  const byKey = new Map(listTransitions(entry.machine).map((info) => [info.key, info]));
  const describe = (key: string): string => {
    const info = byKey.get(key);
    if (!info) return code(key);
    const target = info.transition.target?.map(label).join(', ') ?? 'el mismo estado';
    return (
      `${escapeHtml(label(info.source))} → ${escapeHtml(target)} con ` +
      `«${escapeHtml(eventLabel(entry.machine, eventKey(info.eventType === 'always' ? '' : info.eventType)) ?? info.eventType)}» ${code(key)}`
    );
  };
  const uncovered = uncoveredTransitions(measured.coverage);
  const waived = measured.coverage.transitions.waived;
  return (
    `<p class="coverage-line">${escapeHtml(coverageLine(measured))}</p>` +
    (uncovered.length === 0
      ? '<p>Todas las transiciones no exentas las recorre al menos un camino generado.</p>'
      : `<p>Transiciones sin cubrir:</p><ul>${uncovered.map((key) => `<li>${describe(key)}</li>`).join('')}</ul>`) +
    (waived.length === 0
      ? ''
      : `<p>Transiciones exentas (se prueban fuera de los caminos generados; motivo en la nota técnica):</p><ul>${waived
          .map(
            (key) =>
              `<li>${describe(key)}<br><span class="note">${escapeHtml(measured.waivers[key] ?? '')}</span></li>`,
          )
          .join('')}</ul>`)
  );
}

function diagram(entry: MachineEntry, diagramsDir: string): string {
  let svg: string;
  try {
    svg = readFileSync(join(diagramsDir, `${entry.id}.svg`), 'utf8');
  } catch {
    return `<p class="muted">Falta docs/diagrams/${escapeHtml(entry.id)}.svg (ejecuta npm run diagrams).</p>`;
  }
  // An <img> keeps the SVG as vector graphics in the PDF (it can be zoomed) and isolates its styles.
  const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  return (
    `<figure class="diagram"><img src="${src}" alt="Diagrama de ${escapeHtml(entry.title)}">` +
    `<figcaption>Diagrama generado de la máquina (docs/diagrams/${escapeHtml(entry.id)}.svg). Es vectorial: ` +
    'al ampliar el PDF se leen todas sus etiquetas.</figcaption></figure>'
  );
}

function machineSection(entry: MachineEntry, measured: MachineCoverage | null, diagramsDir: string): string {
  return (
    `<section class="part machine" id="machine-${escapeHtml(entry.id)}" data-part="machine-${escapeHtml(entry.id)}">` +
    `<p class="kicker">Máquina ${code(entry.id)}</p><h1>${escapeHtml(entry.title)}</h1>` +
    `<p class="description">${escapeHtml(entry.description)}</p>` +
    `${diagram(entry, diagramsDir)}` +
    `<h2>Estados</h2>${stateTable(entry)}` +
    `<h2>Transiciones</h2>${transitionTable(entry, measured)}` +
    `<h2>Cobertura de las pruebas de modelo</h2>${coverageSection(entry, measured)}</section>`
  );
}

function coverageSummary(source: ManualSource, measured: Map<string, MachineCoverage | null>): string {
  const rows = source.machines.map((entry) => {
    const found = measured.get(entry.id);
    const cells = found
      ? [
          `${found.coverage.states.covered.length}/${found.coverage.states.total.length}`,
          `${found.coverage.transitions.covered.length}/${found.coverage.transitions.total.length}`,
          `${found.coverage.transitions.waived.length}`,
          `${found.coverage.paths}`,
        ]
      : ['—', '—', '—', 'sin modelo'];
    return `<tr><td>${escapeHtml(entry.title)}<br>${code(entry.id)}</td>${cells.map((cell) => `<td class="num">${cell}</td>`).join('')}</tr>`;
  });
  const found = [...measured.values()].filter((value): value is MachineCoverage => value !== null);
  const sum = (count: (coverage: Coverage) => number) =>
    found.reduce((total, value) => total + count(value.coverage), 0);
  rows.push(
    '<tr class="total"><td>Total</td>' +
      [
        `${sum((c) => c.states.covered.length)}/${sum((c) => c.states.total.length)}`,
        `${sum((c) => c.transitions.covered.length)}/${sum((c) => c.transitions.total.length)}`,
        `${sum((c) => c.transitions.waived.length)}`,
        `${sum((c) => c.paths)}`,
      ]
        .map((cell) => `<td class="num">${cell}</td>`)
        .join('') +
      '</tr>',
  );
  return (
    '<section class="part" id="coverage" data-part="coverage"><h1>Cobertura de las pruebas de modelo</h1>' +
    '<p>Las pruebas de modelo se generan a partir de cada máquina: recorren sus caminos en la aplicación real ' +
    'y comprueban en cada estado lo que ve el usuario. La tabla cuenta los estados finales o sin subestados ' +
    'visitados, las transiciones recorridas por al menos un camino, las exentas (probadas por otras pruebas, ' +
    'con su motivo en el capítulo de la máquina) y los caminos generados.</p>' +
    '<table class="summary"><thead><tr><th>Máquina</th><th>Estados</th><th>Transiciones</th><th>Exentas</th>' +
    `<th>Caminos</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`
  );
}

const dateFormat = new Intl.DateTimeFormat('es-MX', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'America/Mexico_City',
});

function cover(source: ManualSource): string {
  return (
    '<section class="part cover" data-part="cover"><div class="band"><p class="brand">Flujo</p>' +
    `<h1>${MANUAL_TITLE}</h1><p class="subtitle">Los flujos de trabajo de la plataforma, tal como los ejecuta ` +
    'el código: estados, eventos, condiciones y cobertura de las pruebas generadas.</p></div>' +
    '<dl class="facts">' +
    `<dt>Generado</dt><dd>${escapeHtml(dateFormat.format(source.generatedAt))} (hora de la Ciudad de México)</dd>` +
    `<dt>Commit</dt><dd>${code(source.commit)}</dd>` +
    `<dt>Máquinas</dt><dd>${source.machines.length}</dd></dl>` +
    (source.dirty
      ? '<p class="dirty">Atención: el árbol de trabajo tenía cambios sin confirmar; este manual puede no ' +
        'corresponder exactamente al commit indicado.</p>'
      : '') +
    '</section>'
  );
}

function toc(source: ManualSource): string {
  const line = (part: string, title: string, extra = '') =>
    `<li><a href="#${part}">${title}${extra}</a><span class="dots"></span>` +
    `<span class="page" data-page-of="${part}">00</span></li>`;
  return (
    '<section class="part toc" data-part="toc"><h1>Contenido</h1><ol>' +
    line('coverage', 'Cobertura de las pruebas de modelo') +
    source.machines
      .map((entry) =>
        line(`machine-${escapeHtml(entry.id)}`, escapeHtml(entry.title), ` <small>${code(entry.id)}</small>`),
      )
      .join('') +
    '</ol></section>'
  );
}

const STYLE = `
@page { size: A4; }
* { box-sizing: border-box; }
html { font-family: 'Liberation Sans', 'DejaVu Sans', Arial, sans-serif; font-size: 10pt; color: #1c2126; }
body { margin: 0; }
code { font-family: 'DejaVu Sans Mono', 'Liberation Mono', monospace; font-size: 7.5pt; color: #4f5a68;
  overflow-wrap: anywhere; }
h1 { color: ${BRAND}; font-size: 20pt; margin: 0 0 6pt; }
h2 { color: ${BRAND}; font-size: 13pt; margin: 16pt 0 6pt; border-bottom: 1.5pt solid ${BRAND}; padding-bottom: 2pt;
  break-after: avoid; }
.part { break-before: page; }
.kicker { margin: 0 0 2pt; text-transform: uppercase; letter-spacing: 0.08em; font-size: 8pt; color: #4f5a68; }
.description { line-height: 1.45; }
.muted { color: #6b7682; }
.note { color: #4f5a68; font-size: 8pt; }
table { width: 100%; border-collapse: collapse; font-size: 8.5pt; line-height: 1.3; }
thead { display: table-header-group; }
th { background: ${BRAND}; color: #fff; text-align: left; font-weight: bold; padding: 4pt 6px; }
td { border-bottom: 0.75pt solid #d5dbe1; padding: 4pt 6px; vertical-align: top; }
tr { break-inside: avoid; }
tbody tr:nth-child(even) td { background: #f3f7fa; }
td.guard ul { margin: 2pt 0 0; padding-left: 12pt; }
td.num, td.mark { text-align: center; white-space: nowrap; }
.ok { color: #1c7c3a; font-weight: bold; }
.no { color: #b42318; font-weight: bold; }
.waived { color: #8a5a00; font-weight: bold; }
.diagram { margin: 10pt 0; text-align: center; }
.diagram figcaption { font-size: 8pt; color: #6b7682; margin-top: 3pt; }
.diagram img { width: 100%; max-height: 150mm; object-fit: contain; }
.coverage-line { font-weight: bold; }
tr.total td { font-weight: bold; border-top: 1.5pt solid ${BRAND}; background: #fff; }
.cover .band { background: ${BRAND}; color: #fff; padding: 40mm 14mm 16mm; margin: 0 0 14mm; border-radius: 3mm; }
.cover .brand { font-size: 14pt; letter-spacing: 0.2em; text-transform: uppercase; margin: 0 0 8mm; }
.cover h1 { color: #fff; font-size: 32pt; margin: 0 0 6mm; }
.cover .subtitle { font-size: 12pt; line-height: 1.45; margin: 0; }
.facts { display: grid; grid-template-columns: 30mm 1fr; row-gap: 4pt; font-size: 11pt; }
.facts dt { font-weight: bold; color: ${BRAND}; }
.facts dd { margin: 0; }
.facts code { font-size: 10pt; }
.dirty { margin-top: 10mm; padding: 8pt 10pt; border-left: 3pt solid #b42318; background: #fdf0ef; }
.toc ol { list-style: none; padding: 0; margin: 0; }
.toc li { display: flex; align-items: baseline; gap: 6pt; padding: 4pt 0; border-bottom: 0.5pt solid #e3e8ec; }
.toc a { color: inherit; text-decoration: none; }
.toc .dots { flex: 1; }
.toc .page { font-weight: bold; color: ${BRAND}; min-width: 16pt; text-align: right; }
`;

/** The whole manual as one HTML document, every part a `section.part[data-part]` starting a page. */
export function buildManualHtml(source: ManualSource): string {
  const measured = new Map(source.machines.map((entry) => [entry.id, measure(source.models[entry.id])]));
  return (
    `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>${MANUAL_TITLE}</title>` +
    `<style>${STYLE}</style></head><body>${cover(source)}${toc(source)}${coverageSummary(source, measured)}` +
    source.machines
      .map((entry) => machineSection(entry, measured.get(entry.id) ?? null, source.diagramsDir))
      .join('') +
    '</body></html>'
  );
}

const MARGIN = { top: '16mm', bottom: '18mm', left: '15mm', right: '15mm' };

/**
 * Prints `html` part by part with Chromium (so each part's page count, and from it the contents' page
 * numbers, are known), joins the parts with pdf-lib, numbers every page but the cover and sets the metadata.
 */
export async function printManual(html: string, source: ManualSource): Promise<Uint8Array> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS],
    timeout: 120_000,
  });
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(120_000);
    await page.setContent(html, { waitUntil: 'load', timeout: 120_000 });
    const parts = await page.$$eval('section.part', (sections) =>
      sections.map((section) => section.getAttribute('data-part') ?? ''),
    );
    const printPart = async (part: string): Promise<Uint8Array> => {
      await page.evaluate((shown) => {
        for (const section of document.querySelectorAll<HTMLElement>('section.part')) {
          section.style.display = section.dataset.part === shown ? '' : 'none';
        }
      }, part);
      return page.pdf({ format: 'A4', margin: MARGIN, printBackground: true });
    };
    const printed = new Map<string, PDFDocument>();
    for (const part of parts) printed.set(part, await PDFDocument.load(await printPart(part)));

    // The contents now get the first page of every part; their own length does not change with the numbers.
    const firstPages: Record<string, number> = {};
    let next = 1;
    for (const part of parts) {
      firstPages[part] = next;
      next += printed.get(part)!.getPageCount();
    }
    await page.evaluate((pages) => {
      for (const cell of document.querySelectorAll<HTMLElement>('[data-page-of]')) {
        cell.textContent = String(pages[cell.dataset.pageOf ?? ''] ?? '');
      }
    }, firstPages);
    printed.set('toc', await PDFDocument.load(await printPart('toc')));

    const pdf = await PDFDocument.create();
    for (const part of parts) {
      const from = printed.get(part)!;
      for (const copied of await pdf.copyPages(from, from.getPageIndices())) pdf.addPage(copied);
    }
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const total = pdf.getPageCount();
    const footerLeft = `${MANUAL_TITLE} · commit ${source.commit.slice(0, 12)}`;
    pdf.getPages().forEach((pdfPage, index) => {
      if (index === 0) return;
      const { width } = pdfPage.getSize();
      const right = `Página ${index + 1} de ${total}`;
      const grey = rgb(0.42, 0.46, 0.51);
      pdfPage.drawLine({
        start: { x: 42.5, y: 36 },
        end: { x: width - 42.5, y: 36 },
        thickness: 0.5,
        color: rgb(0.06, 0.41, 0.58),
      });
      pdfPage.drawText(footerLeft, { x: 42.5, y: 24, size: 8, font, color: grey });
      pdfPage.drawText(right, {
        x: width - 42.5 - font.widthOfTextAtSize(right, 8),
        y: 24,
        size: 8,
        font,
        color: grey,
      });
    });
    pdf.setTitle(MANUAL_TITLE);
    pdf.setSubject(
      `Flujos de trabajo de Flujo, commit ${source.commit}${source.dirty ? ' (con cambios sin confirmar)' : ''}`,
    );
    pdf.setAuthor('Flujo');
    pdf.setLanguage('es-MX');
    pdf.setCreator('npm run docs:workflows');
    pdf.setProducer('Chromium y pdf-lib');
    pdf.setCreationDate(source.generatedAt);
    pdf.setModificationDate(source.generatedAt);
    return await pdf.save();
  } finally {
    await browser.close();
  }
}

/** Builds the manual and writes it to `outFile`; returns the HTML it printed. */
export async function writeManual(outFile: string, source?: ManualSource): Promise<string> {
  const loaded = source ?? (await loadManualSource());
  const html = buildManualHtml(loaded);
  const bytes = await printManual(html, loaded);
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, bytes);
  return html;
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--out');
  const value = at >= 0 ? process.argv[at + 1] : undefined;
  if (at >= 0 && !value)
    throw new Error('--out needs a file name: npm run docs:workflows -- --out manual.pdf');
  const out = value ? resolve(value) : DEFAULT_OUT;
  await writeManual(out);
  console.log(`${MANUAL_TITLE}: ${out}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
