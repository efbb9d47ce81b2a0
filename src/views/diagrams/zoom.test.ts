import { describe, expect, it } from 'vitest';
import {
  fitScale,
  focusView,
  initialView,
  MAX_SCALE,
  MIN_SCALE,
  panBy,
  READABLE_SCALE,
  zoomAt,
  zoomPercent,
} from './zoom';

describe('zoom', () => {
  it('opens a small diagram at its natural size and a wide one at a readable scale', () => {
    expect(initialView(1000, 800)).toEqual({ scale: 1, x: 0, y: 0 });
    expect(initialView(1000, 1200).scale).toBeCloseTo(1000 / 1200);
    expect(initialView(1000, 4000)).toEqual({
      scale: READABLE_SCALE,
      x: (1000 - 4000 * READABLE_SCALE) / 2,
      y: 0,
    });
    expect(fitScale(1000, 4000)).toBe(0.25);
  });

  it('keeps the point under the pointer in place and stays within its limits', () => {
    const view = zoomAt({ scale: 1, x: 0, y: 0 }, 2, 100, 50);
    expect(view).toEqual({ scale: 2, x: -100, y: -50 });
    expect(zoomAt(view, 100, 0, 0).scale).toBe(MAX_SCALE);
    expect(zoomAt(view, 0.001, 0, 0).scale).toBe(MIN_SCALE);
  });

  it('pans and reads as a percentage', () => {
    expect(panBy({ scale: 0.75, x: 10, y: 0 }, -60, 20)).toEqual({ scale: 0.75, x: -50, y: 20 });
    expect(zoomPercent({ scale: 0.75, x: 0, y: 0 })).toBe('75 %');
  });
});

describe('focusView', () => {
  it('fits a tall path into the viewport, centred across, from its top', () => {
    const view = focusView({ left: 100, top: 200, width: 400, height: 1000 }, 800, 548, 24);
    expect(view.scale).toBeCloseTo(0.5);
    expect(view.x).toBeCloseTo((800 - 200) / 2 - 50);
    expect(view.y).toBeCloseTo(24 - 100);
  });
});
