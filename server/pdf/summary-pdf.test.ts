import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { renderSummaryPdf, type SummaryDocument, toDrawableText, wrapText } from './summary-pdf';

describe('summary PDF', () => {
  it('keeps WinAnsi text, strips accents it cannot draw and replaces the rest', async () => {
    const font = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
    const winAnsi = new Set(font.getCharacterSet());
    expect(toDrawableText('¿Año? «€» “ñ” – ¡Á!', winAnsi)).toBe('¿Año? «€» “ñ” – ¡Á!');
    expect(toDrawableText('ő Ω 😀\tA\nB', winAnsi)).toBe('o ? ? A B');
  });

  it('wraps by words and cuts a word longer than a line', async () => {
    const font = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
    const lines = wrapText(`uno dos tres ${'x'.repeat(200)}`, font, 10, 100);
    expect(lines[0]).toBe('uno dos tres');
    for (const line of lines) expect(font.widthOfTextAtSize(line, 10)).toBeLessThanOrEqual(100);
    expect(lines.slice(1).join('')).toBe('x'.repeat(200));
    expect(wrapText('', font, 10, 100)).toEqual(['']);
  });

  it('renders a long document on as many pages as it needs', async () => {
    const doc: SummaryDocument = {
      title: 'Factura A-1',
      subtitle: 'Resumen',
      headerNote: 'Generado el 22/11/2026',
      heading: 'Factura A-1',
      headingNote: 'Estado: Pagada',
      sections: [{ title: 'Comprobante', rows: [['Folio', 'A-1']], text: 'palabra '.repeat(2000) }],
      footer: 'Documento informativo.',
    };
    const bytes = await renderSummaryPdf(doc, new Date('2026-11-22T12:00:00Z'));
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBeGreaterThan(1);
    expect(pdf.getTitle()).toBe('Factura A-1');
  });
});
