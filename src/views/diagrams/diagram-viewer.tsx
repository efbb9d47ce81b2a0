import { Button, ButtonGroup } from '@blueprintjs/core';
import { Reset, ZoomIn, ZoomOut, ZoomToFit } from '@blueprintjs/icons';
import {
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import type { PreparedSvg } from './svg-markup';
import {
  type Box,
  fitScale,
  focusView,
  initialView,
  PAN_STEP,
  panBy,
  type View,
  ZOOM_STEP,
  zoomAt,
  zoomPercent,
} from './zoom';
import './diagrams.css';

/** What is drawn over the diagram: the coverage overlay and/or a path's numbered steps. */
export interface DiagramMarks {
  coverage?: {
    covered: ReadonlySet<string>;
    waived: ReadonlySet<string>;
    visitedStates: ReadonlySet<string>;
  } | null;
  /** Step numbers per SVG element id (`t:…`, `init:…`): those edges are highlighted and numbered. */
  steps?: ReadonlyMap<string, readonly number[]>;
  /** State ids a path passes through. */
  pathStates?: ReadonlySet<string>;
}

export interface DiagramViewerProps {
  svg: PreparedSvg;
  /** Open on the marked path (its steps and states) rather than at the diagram's top-left corner. */
  focusPath?: boolean;
  /** The machine's title, for the diagram's accessible name. */
  title: string;
  marks?: DiagramMarks;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const COVERAGE_CLASSES = ['is-covered', 'is-uncovered', 'is-waived'];

/** `t:<key>:<i>` → `<key>`. */
function transitionKeyOf(elementId: string): string | undefined {
  if (!elementId.startsWith('t:')) return undefined;
  return elementId.slice(2, elementId.lastIndexOf(':'));
}

/** Applies coverage classes, path classes and numbered step marks to the inline SVG. */
function applyMarks(root: SVGSVGElement, marks: DiagramMarks | undefined): void {
  for (const old of root.querySelectorAll('.flujo-step-mark')) old.remove();
  for (const edge of root.querySelectorAll<SVGGElement>('g.flujo-edge')) {
    edge.classList.remove(...COVERAGE_CLASSES, 'is-step');
    const key = transitionKeyOf(edge.id);
    const coverage = marks?.coverage;
    if (coverage && key !== undefined) {
      edge.classList.add(
        coverage.covered.has(key) ? 'is-covered' : coverage.waived.has(key) ? 'is-waived' : 'is-uncovered',
      );
    }
    const steps = marks?.steps?.get(edge.id);
    if (steps && steps.length > 0) {
      edge.classList.add('is-step');
      edge.appendChild(stepMark(edge, steps));
    }
  }
  for (const state of root.querySelectorAll<SVGGElement>('g.flujo-state')) {
    const id = state.id.slice('state:'.length);
    const coverage = marks?.coverage;
    state.classList.toggle(
      'is-unvisited',
      Boolean(coverage) && state.classList.contains('node') && !coverage!.visitedStates.has(id),
    );
    state.classList.toggle('is-on-path', marks?.pathStates?.has(id) ?? false);
  }
}

/** The box around the marked steps and states, in the diagram's natural pixels; null when nothing is marked. */
function markedBox(root: SVGSVGElement, naturalWidth: number): Box | null {
  const outer = root.getBoundingClientRect();
  const marked = [...root.querySelectorAll('.is-step, .is-on-path')];
  if (marked.length === 0 || outer.width === 0) return null;
  const k = naturalWidth / outer.width;
  const rects = marked.map((element) => element.getBoundingClientRect());
  const left = Math.min(...rects.map((rect) => rect.left));
  const top = Math.min(...rects.map((rect) => rect.top));
  const right = Math.max(...rects.map((rect) => rect.right));
  const bottom = Math.max(...rects.map((rect) => rect.bottom));
  return {
    left: (left - outer.left) * k,
    top: (top - outer.top) * k,
    width: (right - left) * k,
    height: (bottom - top) * k,
  };
}

/** A numbered disc at the middle of the edge's line. */
function stepMark(edge: SVGGElement, steps: readonly number[]): SVGGElement {
  const path = edge.querySelector('path');
  let x = 0;
  let y = 0;
  if (path && typeof path.getTotalLength === 'function') {
    const point = path.getPointAtLength(path.getTotalLength() / 2);
    x = point.x;
    y = point.y;
  }
  const text = steps.join(', ');
  const mark = document.createElementNS(SVG_NS, 'g');
  mark.setAttribute('class', 'flujo-step-mark');
  const disc = document.createElementNS(SVG_NS, 'rect');
  const width = Math.max(24, 10 + text.length * 9);
  disc.setAttribute('x', String(x - width / 2));
  disc.setAttribute('y', String(y - 12));
  disc.setAttribute('width', String(width));
  disc.setAttribute('height', '24');
  disc.setAttribute('rx', '12');
  const label = document.createElementNS(SVG_NS, 'text');
  label.setAttribute('x', String(x));
  label.setAttribute('y', String(y + 5));
  label.setAttribute('text-anchor', 'middle');
  label.textContent = text;
  mark.append(disc, label);
  return mark;
}

/**
 * A Graphviz diagram placed inline so CSS colours its edges and states, with zoom (buttons, Ctrl + wheel,
 * + and − keys) and pan (drag, arrow keys). The zoom is announced in a live region.
 */
export function DiagramViewer({ svg, title, marks, focusPath = false }: DiagramViewerProps) {
  const viewportRef = useRef<HTMLElement>(null);
  const canvasRef = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const [start, setStart] = useState<View>({ scale: 1, x: 0, y: 0 });
  const [view, setView] = useState<View>(start);
  // The viewport's height follows the opening scale only, so focusing on a path does not resize it.
  const [frameScale, setFrameScale] = useState(1);
  const drag = useRef<{ pointer: number; x: number; y: number } | null>(null);

  const available = useCallback(() => viewportRef.current?.clientWidth ?? 0, []);

  useLayoutEffect(() => {
    const opening = initialView(available(), svg.width);
    setFrameScale(opening.scale);
    setStart(opening);
    setView(opening);
  }, [svg, available]);

  useLayoutEffect(() => {
    // Runs again when the markup changes: the marks live in the SVG's DOM.
    const root = svg.markup ? canvasRef.current?.querySelector('svg') : undefined;
    if (!root) return;
    root.setAttribute('role', 'img');
    root.setAttribute('aria-label', `Diagrama de estados: ${title}`);
    applyMarks(root, marks);
    const viewport = viewportRef.current;
    const box = focusPath ? markedBox(root, svg.width) : null;
    if (box && viewport) {
      const focused = focusView(box, viewport.clientWidth, viewport.clientHeight);
      setStart(focused);
      setView(focused);
    }
  }, [svg, marks, title, focusPath]);

  // Zoom resizes the SVG rather than scaling a layer: Chromium draws SVG text inside a CSS-scaled layer
  // out of place, and a resized SVG keeps its text sharp.
  useLayoutEffect(() => {
    const root = svg.markup ? canvasRef.current?.querySelector('svg') : undefined;
    root?.setAttribute('width', String(Math.round(svg.width * view.scale)));
    root?.setAttribute('height', String(Math.round(svg.height * view.scale)));
  }, [svg, view.scale]);

  const zoomCentered = useCallback((factor: number) => {
    const viewport = viewportRef.current;
    const cx = (viewport?.clientWidth ?? 0) / 2;
    const cy = (viewport?.clientHeight ?? 0) / 2;
    setView((current) => zoomAt(current, factor, cx, cy));
  }, []);

  useEffect(() => {
    const viewport = viewportRef.current;
    if (!viewport) return;
    // Ctrl (or ⌘) + wheel zooms at the pointer; a plain wheel keeps scrolling the page.
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      const box = viewport.getBoundingClientRect();
      const factor = event.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP;
      setView((current) => zoomAt(current, factor, event.clientX - box.left, event.clientY - box.top));
    };
    viewport.addEventListener('wheel', onWheel, { passive: false });
    return () => viewport.removeEventListener('wheel', onWheel);
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [PAN_STEP, 0],
      ArrowRight: [-PAN_STEP, 0],
      ArrowUp: [0, PAN_STEP],
      ArrowDown: [0, -PAN_STEP],
    };
    const move = moves[event.key];
    if (move) setView((current) => panBy(current, move[0], move[1]));
    else if (event.key === '+' || event.key === '=') zoomCentered(ZOOM_STEP);
    else if (event.key === '-' || event.key === '_') zoomCentered(1 / ZOOM_STEP);
    else if (event.key === '0') setView(start);
    else return;
    event.preventDefault();
  };

  const onPointerDown = (event: PointerEvent<HTMLElement>) => {
    if (event.button !== 0) return;
    drag.current = { pointer: event.pointerId, x: event.clientX, y: event.clientY };
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    const last = drag.current;
    if (!last || last.pointer !== event.pointerId) return;
    drag.current = { ...last, x: event.clientX, y: event.clientY };
    setView((current) => panBy(current, event.clientX - last.x, event.clientY - last.y));
  };
  const endDrag = () => {
    drag.current = null;
  };

  const height = Math.ceil(svg.height * frameScale) + 16;
  return (
    <div className="flujo-diagram-viewer">
      <div className="flujo-diagram-toolbar">
        <ButtonGroup>
          <Button
            icon={<ZoomIn />}
            aria-label="Acercar"
            title="Acercar (+)"
            onClick={() => zoomCentered(ZOOM_STEP)}
          />
          <Button
            icon={<ZoomOut />}
            aria-label="Alejar"
            title="Alejar (−)"
            onClick={() => zoomCentered(1 / ZOOM_STEP)}
          />
          <Button
            icon={<ZoomToFit />}
            text="Ajustar al ancho"
            onClick={() => setView({ scale: fitScale(available(), svg.width), x: 0, y: 0 })}
          />
          <Button icon={<Reset />} text="Restablecer" onClick={() => setView(start)} />
        </ButtonGroup>
        <output className="flujo-diagram-zoom" aria-live="polite" aria-label="Zoom">
          Zoom {zoomPercent(view)}
        </output>
      </div>
      <p id={hintId} className="flujo-diagram-hint">
        Con el diagrama enfocado: + y − acercan y alejan, 0 restablece y las flechas lo desplazan. También
        puedes arrastrarlo o usar Ctrl + rueda del ratón.
      </p>
      <section
        ref={viewportRef}
        className="flujo-diagram-viewport"
        aria-label={`Diagrama: ${title}`}
        aria-describedby={hintId}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: focus is how a keyboard user pans and zooms the diagram.
        tabIndex={0}
        style={{ '--flujo-viewport-height': `min(70vh, ${height}px)` } as CSSProperties}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
      >
        <div
          ref={canvasRef}
          className={`flujo-diagram-canvas${marks?.steps?.size ? ' has-path' : ''}`}
          data-scale={view.scale.toFixed(4)}
          style={
            {
              '--flujo-diagram-transform': `translate(${view.x}px, ${view.y}px)`,
            } as CSSProperties
          }
          // Our own build output (docs/diagrams/, written by `npm run diagrams`), never user content.
          // biome-ignore lint/security/noDangerouslySetInnerHtml: inline so CSS can colour edges and states.
          dangerouslySetInnerHTML={{ __html: svg.markup }}
        />
      </section>
    </div>
  );
}
