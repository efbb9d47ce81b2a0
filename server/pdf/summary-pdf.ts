import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';

/** A one-document summary: a titled header, sections of label/value rows, free text and a footer note. */
export interface SummaryDocument {
  /** Document metadata title, e.g. 'Factura A-1003'. */
  title: string;
  /** Shown under the brand in the header band. */
  subtitle: string;
  /** Right side of the header band, e.g. 'Generado el 22/11/2026'. */
  headerNote: string;
  /** Big line under the header. */
  heading: string;
  /** Line under the heading (the status). */
  headingNote?: string;
  sections: SummarySection[];
  /** Small print at the bottom of the last page. */
  footer: string;
}

export interface SummarySection {
  title: string;
  rows?: readonly (readonly [label: string, value: string])[];
  /** Free text under the rows, wrapped (the CFDI concept). */
  text?: string;
}

const BRAND = 'Flujo';
// US Letter in points (1/72 in); the usual paper in Mexico for printed invoices.
const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const MARGIN = 48;
const HEADER_HEIGHT = 64;
const LABEL_WIDTH = 170;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const VALUE_WIDTH = CONTENT_WIDTH - LABEL_WIDTH;
const SIZES = {
  brand: 24,
  headerNote: 10,
  heading: 16,
  headingNote: 11,
  section: 11,
  label: 9,
  value: 10,
  footer: 8,
};
const LINE_GAP = 4;
const BRAND_COLOR = rgb(0.07, 0.35, 0.55);
const TEXT_COLOR = rgb(0.12, 0.12, 0.14);
const MUTED_COLOR = rgb(0.38, 0.4, 0.45);
const RULE_COLOR = rgb(0.82, 0.84, 0.87);
const WHITE = rgb(1, 1, 1);
const REPLACEMENT = '?';

const LINE_SEPARATOR = 0x2028;
const PARAGRAPH_SEPARATOR = 0x2029;

function isControl(code: number): boolean {
  return (
    code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === LINE_SEPARATOR || code === PARAGRAPH_SEPARATOR
  );
}

/**
 * Text that a standard font can draw. NOTE: the 14 standard PDF fonts only encode WinAnsi (CP1252): Spanish
 * letters, «», ¿¡, € and typographic quotes are in it; anything else (ő, Ω, emoji) would make pdf-lib throw, so
 * it becomes its unaccented letter when Unicode decomposition gives one in the set, else '?'. Control
 * characters and line breaks become spaces (a CFDI concept may contain them).
 */
export function toDrawableText(text: string, supported: ReadonlySet<number>): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (isControl(code)) {
      out += ' ';
      continue;
    }
    if (supported.has(code)) {
      out += char;
      continue;
    }
    const base = char.normalize('NFD').replace(/\p{M}/gu, '');
    out += base !== '' && [...base].every((c) => supported.has(c.codePointAt(0) ?? 0)) ? base : REPLACEMENT;
  }
  return out;
}

/** Splits text into lines no wider than `width`; a word wider than a line is cut between characters. */
export function wrapText(text: string, font: PDFFont, size: number, width: number): string[] {
  const fits = (line: string) => font.widthOfTextAtSize(line, size) <= width;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter((w) => w !== '')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line !== '') lines.push(line);
    line = '';
    let rest = word;
    while (!fits(rest)) {
      let cut = rest.length - 1;
      while (cut > 1 && !fits(rest.slice(0, cut))) cut -= 1;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  if (line !== '') lines.push(line);
  return lines.length > 0 ? lines : [''];
}

class Layout {
  private page: PDFPage;
  private y: number;

  constructor(
    private readonly pdf: PDFDocument,
    private readonly regular: PDFFont,
    private readonly bold: PDFFont,
    private readonly supported: ReadonlySet<number>,
    private readonly reservedBottom: number,
  ) {
    this.page = pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    this.y = PAGE_HEIGHT - MARGIN;
  }

  text(value: string): string {
    return toDrawableText(value, this.supported);
  }

  /** Starts a new page when fewer than `height` points are left above the footer. */
  ensure(height: number): void {
    if (this.y - height >= MARGIN + this.reservedBottom) return;
    this.page = this.pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    this.y = PAGE_HEIGHT - MARGIN;
  }

  header(doc: SummaryDocument): void {
    const top = PAGE_HEIGHT;
    this.page.drawRectangle({
      x: 0,
      y: top - HEADER_HEIGHT,
      width: PAGE_WIDTH,
      height: HEADER_HEIGHT,
      color: BRAND_COLOR,
    });
    this.page.drawText(BRAND, { x: MARGIN, y: top - 40, size: SIZES.brand, font: this.bold, color: WHITE });
    this.page.drawText(this.text(doc.subtitle), {
      x: MARGIN,
      y: top - 54,
      size: SIZES.headerNote,
      font: this.regular,
      color: WHITE,
    });
    const note = this.text(doc.headerNote);
    const noteWidth = this.regular.widthOfTextAtSize(note, SIZES.headerNote);
    this.page.drawText(note, {
      x: PAGE_WIDTH - MARGIN - noteWidth,
      y: top - 40,
      size: SIZES.headerNote,
      font: this.regular,
      color: WHITE,
    });
    this.y = top - HEADER_HEIGHT - 32;
  }

  heading(text: string, note?: string): void {
    for (const line of wrapText(this.text(text), this.bold, SIZES.heading, CONTENT_WIDTH)) {
      this.ensure(SIZES.heading + LINE_GAP);
      this.page.drawText(line, {
        x: MARGIN,
        y: this.y,
        size: SIZES.heading,
        font: this.bold,
        color: TEXT_COLOR,
      });
      this.y -= SIZES.heading + LINE_GAP;
    }
    if (note) {
      this.y -= 2;
      this.page.drawText(this.text(note), {
        x: MARGIN,
        y: this.y,
        size: SIZES.headingNote,
        font: this.bold,
        color: BRAND_COLOR,
      });
      this.y -= SIZES.headingNote + LINE_GAP;
    }
    this.y -= 10;
  }

  section(section: SummarySection): void {
    this.ensure(SIZES.section + 3 * (SIZES.value + LINE_GAP));
    this.page.drawText(this.text(section.title), {
      x: MARGIN,
      y: this.y,
      size: SIZES.section,
      font: this.bold,
      color: BRAND_COLOR,
    });
    this.y -= 5;
    this.page.drawLine({
      start: { x: MARGIN, y: this.y },
      end: { x: PAGE_WIDTH - MARGIN, y: this.y },
      thickness: 0.75,
      color: RULE_COLOR,
    });
    this.y -= SIZES.value + LINE_GAP + 2;
    for (const [label, value] of section.rows ?? []) this.row(label, value);
    if (section.text !== undefined) this.paragraph(section.text, SIZES.value, TEXT_COLOR, CONTENT_WIDTH);
    this.y -= 12;
  }

  private row(label: string, value: string): void {
    const labelLines = wrapText(this.text(label), this.regular, SIZES.label, LABEL_WIDTH - 8);
    const valueLines = wrapText(this.text(value), this.regular, SIZES.value, VALUE_WIDTH);
    const lineCount = Math.max(labelLines.length, valueLines.length);
    this.ensure(lineCount * (SIZES.value + LINE_GAP));
    labelLines.forEach((line, i) => {
      this.page.drawText(line, {
        x: MARGIN,
        y: this.y - i * (SIZES.value + LINE_GAP),
        size: SIZES.label,
        font: this.regular,
        color: MUTED_COLOR,
      });
    });
    valueLines.forEach((line, i) => {
      this.page.drawText(line, {
        x: MARGIN + LABEL_WIDTH,
        y: this.y - i * (SIZES.value + LINE_GAP),
        size: SIZES.value,
        font: this.regular,
        color: TEXT_COLOR,
      });
    });
    this.y -= lineCount * (SIZES.value + LINE_GAP);
  }

  private paragraph(text: string, size: number, color: ReturnType<typeof rgb>, width: number): void {
    for (const line of wrapText(this.text(text), this.regular, size, width)) {
      this.ensure(size + LINE_GAP);
      this.page.drawText(line, { x: MARGIN, y: this.y, size, font: this.regular, color });
      this.y -= size + LINE_GAP;
    }
  }

  /** The footer note at the bottom of the current (last) page. */
  footer(text: string): void {
    const lines = wrapText(this.text(text), this.regular, SIZES.footer, CONTENT_WIDTH);
    let y = MARGIN + (lines.length - 1) * (SIZES.footer + LINE_GAP);
    for (const line of lines) {
      this.page.drawText(line, { x: MARGIN, y, size: SIZES.footer, font: this.regular, color: MUTED_COLOR });
      y -= SIZES.footer + LINE_GAP;
    }
  }
}

/**
 * Renders a summary as a PDF with the standard Helvetica fonts (nothing embedded, so each file stays a few KB).
 * `createdAt` fixes the metadata dates so the same data gives the same document.
 */
export async function renderSummaryPdf(doc: SummaryDocument, createdAt: Date): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  // Helvetica and Helvetica-Bold share the WinAnsi encoding.
  const supported = new Set(regular.getCharacterSet());
  const text = (value: string) => toDrawableText(value, supported);
  pdf.setTitle(text(doc.title));
  pdf.setAuthor(BRAND);
  pdf.setCreator(BRAND);
  pdf.setProducer(BRAND);
  pdf.setLanguage('es-MX');
  pdf.setCreationDate(createdAt);
  pdf.setModificationDate(createdAt);

  const footerLines = wrapText(text(doc.footer), regular, SIZES.footer, CONTENT_WIDTH).length;
  const layout = new Layout(pdf, regular, bold, supported, footerLines * (SIZES.footer + LINE_GAP) + 16);
  layout.header(doc);
  layout.heading(doc.heading, doc.headingNote);
  for (const section of doc.sections) layout.section(section);
  layout.footer(doc.footer);
  return pdf.save();
}
