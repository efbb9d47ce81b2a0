import { describe, expect, it } from 'vitest';
import { prepareSvg } from './svg-markup';

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
