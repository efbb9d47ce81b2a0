/** The diagram viewer's zoom and pan, as pure steps over a view. */
export interface View {
  scale: number;
  x: number;
  y: number;
}

export const MIN_SCALE = 0.25;
export const MAX_SCALE = 3;
export const ZOOM_STEP = 1.25;
export const PAN_STEP = 60;
/**
 * The smallest scale the diagram opens at: 13 pt edge labels stay at 13 px. A wider diagram opens at this
 * scale and is panned; 'Ajustar al ancho' shows it whole.
 */
export const READABLE_SCALE = 0.75;

const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value));

/** The scale at which a diagram `width` px wide fills `available` px, never above 1. */
export function fitScale(available: number, width: number): number {
  if (width <= 0 || available <= 0) return 1;
  return clamp(Math.min(1, available / width), MIN_SCALE, 1);
}

/**
 * The view the diagram opens at: whole when that keeps it readable, else readable and centred across, so the
 * middle of the diagram (where Graphviz puts the initial state and the main path) shows rather than its corner.
 */
export function initialView(available: number, width: number): View {
  const scale = Math.max(fitScale(available, width), Math.min(1, READABLE_SCALE));
  return { scale, x: Math.min(0, (available - width * scale) / 2), y: 0 };
}

/** Zooms by `factor` keeping the diagram point under (`cx`, `cy`) (viewport pixels) where it is. */
export function zoomAt(view: View, factor: number, cx: number, cy: number): View {
  const scale = clamp(view.scale * factor, MIN_SCALE, MAX_SCALE);
  const ratio = scale / view.scale;
  return { scale, x: cx - (cx - view.x) * ratio, y: cy - (cy - view.y) * ratio };
}

export function panBy(view: View, dx: number, dy: number): View {
  return { ...view, x: view.x + dx, y: view.y + dy };
}

/** The zoom as people read it: '75 %'. */
export function zoomPercent(view: View): string {
  return `${Math.round(view.scale * 100)} %`;
}

/** A rectangle in the diagram's natural pixels. */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The view that shows `box` whole in a `width` × `height` viewport (centred across, from the top), at most 1:1. */
export function focusView(box: Box, width: number, height: number, margin = 24): View {
  const scale = clamp(
    Math.min(1, (width - 2 * margin) / box.width, (height - 2 * margin) / box.height),
    MIN_SCALE,
    1,
  );
  return {
    scale,
    x: (width - box.width * scale) / 2 - box.left * scale,
    y: margin - box.top * scale,
  };
}
