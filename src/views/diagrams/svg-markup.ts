/** A Graphviz SVG made ready to be placed inline: no XML prolog, its size in CSS pixels. */
export interface PreparedSvg {
  markup: string;
  /** Natural size in CSS pixels (Graphviz measures in points: 1 pt = 4/3 px). */
  width: number;
  height: number;
}

const PT_TO_PX = 4 / 3;

/**
 * Drops what precedes `<svg` (the XML declaration, doctype and the generator's comment) and replaces the
 * point sizes with pixel sizes, so a scale of 1 is the size Graphviz laid the text out for.
 */
export function prepareSvg(raw: string): PreparedSvg {
  const start = raw.indexOf('<svg');
  if (start < 0) throw new Error('El diagrama no es un SVG.');
  const svg = raw.slice(start);
  const open = /^<svg\b[^>]*>/.exec(svg)?.[0] ?? '';
  const viewBox = /viewBox="([^"]+)"/.exec(open)?.[1]?.trim().split(/\s+/).map(Number) ?? [];
  const [, , vbWidth = 0, vbHeight = 0] = viewBox;
  const width = Math.round(vbWidth * PT_TO_PX);
  const height = Math.round(vbHeight * PT_TO_PX);
  const sized = open
    .replace(/\s(width|height)="[^"]*"/g, '')
    .replace(/^<svg/, `<svg width="${width}" height="${height}" focusable="false"`);
  return { markup: sized + svg.slice(open.length), width, height };
}

/** The generator writes every technical name in this face (scripts/diagram/to-dot.ts MONO). */
const TECHNICAL_TEXT = /<text\b[^>]*\bfont-family="Courier[^"]*"[^>]*>[^<]*<\/text>/g;
/** Graphviz's tooltips: the element's technical id (`invoiceLifecycle.available`). */
const TOOLTIP = /<title>[^<]*<\/title>/g;

/**
 * The diagram as a supplier or buyer reads it (issue 33, decision 0065): the Spanish labels of states and
 * transitions only, without the technical names, guard marks (`[G1]`) and id tooltips auditors need.
 * Example: an edge labelled «Solicitar adelanto» over `invoice.requestAuthorization [G1]` keeps the first line.
 */
export function withoutTechnicalNames(svg: PreparedSvg): PreparedSvg {
  return { ...svg, markup: svg.markup.replace(TECHNICAL_TEXT, '').replace(TOOLTIP, '') };
}
