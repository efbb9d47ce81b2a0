import { describe, expect, it } from 'vitest';
import { prepareSvg, withoutTechnicalNames } from './svg-markup';

describe('prepareSvg', () => {
  it('drops the prolog and sizes the SVG in pixels from its viewBox in points', () => {
    const raw =
      '<?xml version="1.0"?>\n<!DOCTYPE svg>\n<!-- Generated -->\n<svg width="300pt" height="150pt"\n viewBox="0.00 0.00 300.00 150.00" xmlns="http://www.w3.org/2000/svg"><g/></svg>\n';
    const svg = prepareSvg(raw);
    expect(svg.width).toBe(400);
    expect(svg.height).toBe(200);
    expect(svg.markup.startsWith('<svg width="400" height="200" focusable="false"')).toBe(true);
    expect(svg.markup).not.toContain('300pt');
    expect(svg.markup).toContain('viewBox="0.00 0.00 300.00 150.00"');
  });

  it('refuses what is not an SVG', () => {
    expect(() => prepareSvg('<html></html>')).toThrow('no es un SVG');
  });
});

describe('withoutTechnicalNames', () => {
  it('keeps the Spanish labels and drops technical names, guard marks and id tooltips', () => {
    const svg = prepareSvg(
      '<svg viewBox="0 0 30 15"><g id="t:x"><title>invoiceLifecycle.available&#45;&gt;x</title>' +
        '<text x="1" font-family="Helvetica,Arial,sans-serif" font-size="13.00">«Solicitar adelanto»</text>' +
        '<text x="2" font-family="Courier,monospace" font-size="11.00">invoice.requestAuthorization</text>' +
        '<text x="3" font-family="Courier,monospace" font-weight="bold" font-size="11.00">[G1]</text></g></svg>',
    );
    const plain = withoutTechnicalNames(svg);
    expect(plain.markup).toContain('«Solicitar adelanto»');
    expect(plain.markup).not.toContain('invoice.requestAuthorization');
    expect(plain.markup).not.toContain('[G1]');
    expect(plain.markup).not.toContain('<title>');
    expect([plain.width, plain.height]).toEqual([svg.width, svg.height]);
  });
});
