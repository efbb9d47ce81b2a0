// Prints the corporate alliance checklist (src/views/public/requirements-checklist.ts) as an A4 PDF.
// The build writes it to dist/documentos/ with the configured contact e-mail (scripts/prerender.ts);
// `npx tsx scripts/requirements-pdf.ts out.pdf` writes one by hand.
import { writeFileSync } from 'node:fs';
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import {
  REQUIREMENT_GROUPS,
  REQUIREMENTS_NOTES,
  REQUIREMENTS_TITLE,
} from '../src/views/public/requirements-checklist';

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const BRAND = rgb(0.059, 0.408, 0.58);
const INK = rgb(0.11, 0.13, 0.15);
const MUTED = rgb(0.31, 0.35, 0.41);
/** Fixed so the same checklist always prints the same bytes. */
const DOCUMENT_DATE = new Date('2026-01-15T12:00:00Z');

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width || !line) line = candidate;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

export async function buildRequirementsPdf(contactEmail: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Flujo · ${REQUIREMENTS_TITLE}`);
  pdf.setAuthor('Flujo');
  pdf.setSubject('Lista de documentos e información para dar de alta a una empresa compradora');
  pdf.setLanguage('es-MX');
  pdf.setCreator('Flujo');
  pdf.setProducer('Flujo (pdf-lib)');
  pdf.setCreationDate(DOCUMENT_DATE);
  pdf.setModificationDate(DOCUMENT_DATE);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const width = A4[0] - 2 * MARGIN;

  let page: PDFPage = pdf.addPage(A4);
  let y = A4[1] - MARGIN;
  const ensureRoom = (height: number) => {
    if (y - height >= MARGIN + 30) return;
    page = pdf.addPage(A4);
    y = A4[1] - MARGIN;
  };
  const paragraph = (text: string, font: PDFFont, size: number, color = INK, indent = 0) => {
    for (const line of wrap(text, font, size, width - indent)) {
      ensureRoom(size * 1.45);
      page.drawText(line, { x: MARGIN + indent, y: y - size, size, font, color });
      y -= size * 1.45;
    }
  };

  page.drawRectangle({ x: MARGIN, y: y - 26, width: 26, height: 26, color: BRAND });
  page.drawText('Flujo', { x: MARGIN + 36, y: y - 20, size: 20, font: bold, color: BRAND });
  y -= 48;
  paragraph(REQUIREMENTS_TITLE, bold, 18);
  y -= 4;
  paragraph(
    'Reúne estos documentos y datos para dar de alta a tu empresa como comprador aliado. Marca cada casilla ' +
      'conforme los tengas listos.',
    regular,
    11,
    MUTED,
  );

  for (const group of REQUIREMENT_GROUPS) {
    y -= 14;
    ensureRoom(40);
    paragraph(group.title, bold, 13, BRAND);
    y -= 2;
    for (const item of group.items) {
      const lines = wrap(item, regular, 11, width - 22);
      ensureRoom(lines.length * 16 + 4);
      page.drawRectangle({
        x: MARGIN,
        y: y - 11,
        width: 10,
        height: 10,
        borderColor: INK,
        borderWidth: 1,
      });
      paragraph(item, regular, 11, INK, 22);
      y -= 4;
    }
  }

  y -= 14;
  ensureRoom(60);
  paragraph('Notas', bold, 13, BRAND);
  for (const note of REQUIREMENTS_NOTES) paragraph(`• ${note}`, regular, 10.5, MUTED);

  for (const [index, each] of pdf.getPages().entries()) {
    each.drawText(`Dudas: ${contactEmail} · Página ${index + 1} de ${pdf.getPageCount()}`, {
      x: MARGIN,
      y: MARGIN - 20,
      size: 9,
      font: regular,
      color: MUTED,
    });
  }
  return pdf.save();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = process.argv[2] ?? 'requisitos-alianza-corporativa.pdf';
  void buildRequirementsPdf(process.env.CONTACT_EMAIL || 'contacto@flujo.mx').then((bytes) => {
    writeFileSync(out, bytes);
    console.log(`wrote ${out}`);
  });
}
