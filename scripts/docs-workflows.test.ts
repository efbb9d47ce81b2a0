import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { machineCatalogue } from '../src/machines/catalogue';
import { eventKey, guardSentence, guardTree } from '../src/machines/machine-texts';
import { allStateNodes, listTransitions } from '../test/model/harness/inventory';
import { guardSentenceOf } from './diagram/labels';
import { escapeHtml, loadManualSource, MANUAL_TITLE, type ManualSource, writeManual } from './docs-workflows';

/** The document's text as a reader sees it: tags dropped, character references decoded. */
function visibleText(html: string): string {
  return html
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/\s+/g, ' ');
}

describe('the workflow manual (npm run docs:workflows)', () => {
  let dir: string;
  let source: ManualSource;
  let html: string;
  let text: string;
  let pdf: PDFDocument;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flujo-manual-'));
    source = await loadManualSource();
    html = await writeManual(join(dir, 'manual.pdf'), source);
    text = visibleText(html);
    pdf = await PDFDocument.load(readFileSync(join(dir, 'manual.pdf')));
    // Chromium prints every part of the manual on a busy 2-core machine.
  }, 240_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is a titled PDF naming its commit, with at least one page per machine', () => {
    expect(pdf.getTitle()).toBe(MANUAL_TITLE);
    expect(pdf.getSubject()).toContain(source.commit);
    expect(pdf.getCreationDate()?.getTime()).toBe(Math.floor(source.generatedAt.getTime() / 1000) * 1000);
    expect(pdf.getPageCount()).toBeGreaterThanOrEqual(machineCatalogue.length + 2);
  });

  it('has a cover with the commit, and contents that list every machine', () => {
    expect(text).toContain(MANUAL_TITLE);
    expect(text).toContain(source.commit);
    expect(text).toContain('Contenido');
    expect(text).toContain('Cobertura de las pruebas de modelo');
  });

  it.each(machineCatalogue.map((entry) => [entry.id, entry] as const))(
    'describes %s: title, states, transitions and guard sentences',
    (_id, entry) => {
      expect(text).toContain(entry.title);
      expect(text).toContain(entry.description);
      expect(html).toContain(`docs/diagrams/${entry.id}.svg`);
      for (const node of allStateNodes(entry.machine).filter((node) => node !== entry.machine.root)) {
        expect(text, `state ${node.id}`).toContain(node.id);
      }
      for (const { eventType } of listTransitions(entry.machine)) {
        const key = eventKey(eventType === 'always' ? '' : eventType);
        expect(text, `event ${key}`).toContain(key);
      }
      for (const { transition } of listTransitions(entry.machine)) {
        if (!transition.guard) continue;
        const sentence = guardSentenceOf(guardTree(transition.guard), (name) =>
          guardSentence(entry.machine, name),
        );
        expect(text, `guard of ${transition.eventType}`).toContain(escapeHtml(sentence));
      }
    },
  );

  it('combines the sentences of an and-guard', () => {
    const lifecycle = machineCatalogue.find((entry) => entry.id === 'invoice-lifecycle')!;
    const receiver = guardSentence(lifecycle.machine, 'isReceiverWithSatLink')!.replace(/\.$/, '');
    expect(text).toContain(
      escapeHtml(`Se cumplen todas: ${receiver.charAt(0).toLowerCase()}${receiver.slice(1)}`),
    );
  });
});
