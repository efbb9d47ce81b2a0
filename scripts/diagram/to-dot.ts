import type { DiagramEdge, DiagramState, MachineDiagram } from './describe';
import { isWithin, parentsOf } from './tree';

/**
 * Graphviz DOT for the audit SVG: UML-like state boxes (Spanish label, technical key below) with
 * entry/invoke/exit compartments, nested states as clusters, initial markers, double-bordered final states and
 * edges labelled with the event's Spanish label, its technical name and a guard mark (`[G1]`). Element ids and
 * classes are the contract the pages style and highlight (src/machines/diagram-details.ts). With
 * `coverage`, edges are coloured by what the model-based tests exercise. Output depends only on the
 * machine and the coverage, so the SVG is byte-stable.
 */

export interface DotCoverage {
  covered: ReadonlySet<string>;
  waived: ReadonlySet<string>;
  visitedStates: ReadonlySet<string>;
  /** Null when the machine has no model: nothing is exercised. */
  summary: { states: string; transitions: string; waived: number; paths: number } | null;
}

const FONT = 'Helvetica,Arial,sans-serif';
// Graphviz lays text out with the metrics it knows for Courier; browsers draw Courier (or their monospace)
// at the same 0.6 em per character, so labels keep their room.
const MONO = 'Courier';
/** Point sizes: at the page's default zoom a point is drawn at about 1.33 px, so nothing is under 13 px. */
const SIZE = { state: 15, technical: 11, edge: 13, compartment: 11, title: 20 };
const COLOR = {
  ink: '#24292f',
  muted: '#57606a',
  frame: '#8c959f',
  fill: '#f6f8fa',
  covered: '#1a7f37',
  uncovered: '#cf222e',
  waived: '#8c959f',
};

type Status = 'covered' | 'uncovered' | 'waived';

/** A DOT double-quoted string; backslashes would otherwise start escapes such as `\n` and `\l`. */
function q(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function html(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** An HTML-like label, written as `<...>` instead of a quoted string. */
interface Html {
  html: string;
}

type Attrs = Record<string, string | number | Html | undefined>;

function attrs(values: Attrs): string {
  const parts = Object.entries(values)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => {
      if (typeof value === 'number') return `${key}=${value}`;
      if (typeof value === 'object') return `${key}=<${value.html}>`;
      return `${key}=${q(value!)}`;
    });
  return `[${parts.join(', ')}]`;
}

function statusOf(key: string, coverage: DotCoverage | undefined): Status | undefined {
  if (!coverage) return undefined;
  if (coverage.covered.has(key)) return 'covered';
  return coverage.waived.has(key) ? 'waived' : 'uncovered';
}

const clusterId = (id: string): string => `cluster_${id}`;
const initialId = (id: string): string => `__initial:${id}`;
const boundaryId = (id: string): string => `__boundary:${id}`;
const anchorId = (id: string): string => `__anchor:${id}`;

interface Row {
  text: string;
  color?: string;
}

/** The technical name, smaller and monospaced, under or beside the Spanish words. */
function technical(text: string): string {
  return `<font face="${MONO}" point-size="${SIZE.technical}" color="${COLOR.muted}">${html(text)}</font>`;
}

/** The name block of a state: its Spanish label in bold and its technical key below (or the key alone). */
function nameBlock(state: Pick<DiagramState, 'key' | 'label'>, size = SIZE.state): string {
  const name = `<font point-size="${size}"><b>${html(state.label ?? state.key)}</b></font>`;
  return state.label ? `${name}<br/>${technical(state.key)}` : name;
}

/** A state label: its name block, then a compartment per group of rows (entry/invoke/exit, internal transitions). */
function stateLabel(name: string, groups: Row[][]): Html {
  const filled = groups.filter((rows) => rows.length > 0);
  if (filled.length === 0) return { html: name };
  const rows = filled.map((group) =>
    group
      .map((row) => {
        const content = html(row.text);
        const coloured = row.color ? `<font color="${row.color}">${content}</font>` : content;
        return `<tr><td align="left"><font point-size="${SIZE.compartment}">${coloured}</font></td></tr>`;
      })
      .join(''),
  );
  const head = `<tr><td align="left">${name}</td></tr>`;
  return {
    html: `<table border="0" cellborder="0" cellspacing="0" cellpadding="1">${head}<hr/>${rows.join('<hr/>')}</table>`,
  };
}

/**
 * An edge label: the event's Spanish label, then its technical name with the guard's mark (`[G1]`,
 * explained in the guard list beside the diagram). Actions are left to the text tables: on the edge they would double
 * the diagram's width.
 */
export function edgeLabelHtml(edge: DiagramEdge): Html {
  // The mark rides on the monospaced line, whose width Graphviz measures exactly (see MONO).
  const mark = edge.guardMark
    ? `<font face="${MONO}" point-size="${SIZE.technical}">&#160;<b>[${html(edge.guardMark)}]</b></font>`
    : '';
  const tech = `${technical(edge.event)}${mark}`;
  // Graphviz measures Helvetica a little narrower than browsers draw it: spaces either side keep the room.
  const pad = '&#160;&#160;';
  return { html: edge.eventLabel ? `${pad}${html(edge.eventLabel)}${pad}<br/>${tech}` : tech };
}

/** The one-line text of a targetless transition listed inside a composite state. */
function internalRow(edge: DiagramEdge): string {
  const mark = edge.guardMark ? ` [${edge.guardMark}]` : '';
  const actions = edge.actions.length > 0 ? ` / ${edge.actions.join(', ')}` : '';
  return edge.eventLabel
    ? `${edge.eventLabel}${mark} (${edge.event}${actions})`
    : `${edge.event}${mark}${actions}`;
}

function compartmentRows(state: DiagramState): Row[] {
  return [
    ...state.entry.map((action) => ({ text: `entry / ${action}` })),
    ...state.invoke.map((src) => ({ text: `invoke / ${src}` })),
    ...state.exit.map((action) => ({ text: `exit / ${action}` })),
  ];
}

function edgeStyle(status: Status | undefined, targetless: boolean): Attrs {
  const dashed = targetless ? 'dashed' : undefined;
  switch (status) {
    case 'covered':
      return { color: COLOR.covered, fontcolor: COLOR.covered, penwidth: 2.2, style: dashed };
    case 'uncovered':
      return { color: COLOR.uncovered, fontcolor: COLOR.uncovered, penwidth: 1.2, style: 'dashed' };
    case 'waived':
      return { color: COLOR.waived, fontcolor: COLOR.waived, penwidth: 1, style: 'dotted' };
    default:
      return { color: COLOR.ink, fontcolor: COLOR.ink, penwidth: 1.2, style: dashed };
  }
}

const ROW_COLOR: Record<Status, string> = {
  covered: COLOR.covered,
  uncovered: COLOR.uncovered,
  waived: COLOR.waived,
};

function legend(coverage: DotCoverage): Html {
  const row = (mark: string, color: string, text: string): string =>
    `<tr><td align="left"><font color="${color}">${mark}</font>&#160;&#160;${html(text)}</td></tr>`;
  const s = coverage.summary;
  const headline = s
    ? `Cobertura de las pruebas de modelo: estados ${s.states} · transiciones ${s.transitions} · exentas ${s.waived} · rutas ${s.paths}`
    : 'Sin modelo de pruebas: ninguna transición está ejercida';
  const table = [
    '<table border="0" cellborder="0" cellspacing="0" cellpadding="2">',
    `<tr><td align="left"><b>${html(headline)}</b></td></tr>`,
    row('━━━', COLOR.covered, 'transición ejercida por las pruebas'),
    row('╍╍╍', COLOR.uncovered, 'transición sin ejercer'),
    row('┈┈┈', COLOR.waived, 'transición exenta (justificada en el modelo)'),
    row('▢', COLOR.uncovered, 'estado no visitado (borde rojo discontinuo)'),
    '</table>',
  ].join('');
  return { html: table };
}

export function toDot(diagram: MachineDiagram, title: string, coverage?: DotCoverage): string {
  const parents = parentsOf(diagram);
  const lines: string[] = [];
  const out = (depth: number, line: string): void => {
    lines.push(`${'  '.repeat(depth)}${line}`);
  };

  // Targetless transitions of a composite state are listed inside it (UML internal transitions): a loop
  // on a cluster border cannot be drawn.
  const internal = new Map<string, DiagramEdge[]>();
  const needsBoundary = new Set<string>();
  for (const edge of diagram.edges) {
    const source = diagram.states.get(edge.source)!;
    if (source.type === 'atomic' || source.type === 'final' || source.type === 'history') continue;
    if (edge.targets.length === 0) internal.set(source.id, [...(internal.get(source.id) ?? []), edge]);
    else if (edge.targets.some((target) => isWithin(target, source.id, parents, diagram)))
      needsBoundary.add(source.id);
  }

  /** The node an edge attaches to for a state, and the cluster to clip it at (if the state is drawn as one). */
  const endpoint = (id: string): { node: string; cluster?: string } => {
    const state = diagram.states.get(id)!;
    if (state.type === 'compound') return { node: initialId(id), cluster: clusterId(id) };
    if (state.type === 'parallel') return { node: anchorId(id), cluster: clusterId(id) };
    return { node: id };
  };

  const emitState = (state: DiagramState, depth: number): void => {
    if (state.type === 'compound' || state.type === 'parallel') {
      emitCluster(state, depth);
      return;
    }
    const visited = !coverage || coverage.visitedStates.has(state.id);
    const unvisited = state.type !== 'history' && !visited;
    if (state.type === 'history') {
      out(
        depth,
        `${q(state.id)} ${attrs({
          id: `state:${state.id}`,
          label: state.history === 'deep' ? 'H*' : 'H',
          shape: 'circle',
          width: 0.3,
          fixedsize: 'true',
          style: 'filled',
          fillcolor: 'white',
        })};`,
      );
      return;
    }
    out(
      depth,
      `${q(state.id)} ${attrs({
        id: `state:${state.id}`,
        class: `flujo-state flujo-state--${state.type}`,
        label: stateLabel(nameBlock(state), [compartmentRows(state)]),
        peripheries: state.type === 'final' ? 2 : undefined,
        style: unvisited ? 'rounded,filled,dashed' : undefined,
        color: unvisited ? COLOR.uncovered : undefined,
        penwidth: unvisited ? 1.5 : undefined,
        tooltip: state.description,
      })};`,
    );
  };

  const emitCluster = (state: DiagramState, depth: number): void => {
    const isRoot = state.id === diagram.root.id;
    const parent = parents.get(state.id);
    const isRegion = parent?.type === 'parallel';
    const internalRows = (internal.get(state.id) ?? []).map((edge) => {
      const status = statusOf(edge.key, coverage);
      return { text: internalRow(edge), color: status ? ROW_COLOR[status] : undefined };
    });
    const label = isRoot
      ? {
          html: `<font point-size="${SIZE.title}"><b>${html(title)}</b></font><br align="left"/>${technical(diagram.id)}<br align="left"/>`,
        }
      : stateLabel(nameBlock(state), [compartmentRows(state), internalRows]);
    out(depth, `subgraph ${q(clusterId(state.id))} {`);
    out(
      depth + 1,
      `graph ${attrs({
        id: `state:${state.id}`,
        class: `flujo-state flujo-state--${state.type}`,
        label,
        labeljust: 'l',
        // Explicit, or clusters inherit the legend's bottom placement from the graph.
        labelloc: 't',
        style: state.type === 'parallel' || isRegion ? 'rounded,dashed' : 'rounded',
        color: COLOR.frame,
        penwidth: isRoot ? 1.5 : 1,
        margin: 12,
        // The root's description is the page's; a state's shows on hover.
        tooltip: isRoot ? undefined : state.description,
      })};`,
    );
    if (isRoot && (internalRows.length > 0 || needsBoundary.has(state.id))) {
      // The root's own handlers (global events) start from a note: "in any state".
      out(
        depth + 1,
        `${q(boundaryId(state.id))} ${attrs({ shape: 'note', label: stateLabel(`<font point-size="${SIZE.compartment}"><b>en cualquier estado</b></font>`, [internalRows]), style: 'filled', fillcolor: 'white', color: COLOR.frame })};`,
      );
    } else if (needsBoundary.has(state.id)) {
      out(
        depth + 1,
        `${q(boundaryId(state.id))} ${attrs({ shape: 'circle', width: 0.14, fixedsize: 'true', label: '', style: 'filled', fillcolor: 'white', color: COLOR.ink, tooltip: `desde cualquier subestado de ${state.label ?? state.key}` })};`,
      );
    }
    if (state.type === 'compound') {
      out(
        depth + 1,
        `${q(initialId(state.id))} ${attrs({ shape: 'point', width: 0.12, style: 'filled', color: COLOR.ink, fillcolor: COLOR.ink, label: '' })};`,
      );
      if (state.initial) {
        out(
          depth + 1,
          `${q(initialId(state.id))} -> ${q(endpoint(state.initial).node)} ${attrs({ id: `init:${state.initial}`, class: 'flujo-edge flujo-edge--initial', ...initialEdge(state.initial) })};`,
        );
      }
    } else {
      out(
        depth + 1,
        `${q(anchorId(state.id))} ${attrs({ shape: 'point', width: 0.01, style: 'invis', label: '' })};`,
      );
    }
    for (const child of state.children) emitState(child, depth + 1);
    out(depth, '}');
  };

  const initialEdge = (target: string): Attrs => {
    const end = endpoint(target);
    return { lhead: end.cluster, color: COLOR.muted, arrowsize: 0.6 };
  };

  const emitEdge = (edge: DiagramEdge): void => {
    const status = statusOf(edge.key, coverage);
    const source = diagram.states.get(edge.source)!;
    const isComposite = source.type === 'compound' || source.type === 'parallel';
    if (edge.targets.length === 0) {
      if (isComposite) return; // listed inside the composite
      out(
        1,
        `${q(edge.source)} -> ${q(edge.source)} ${attrs({ id: `t:${edge.key}:0`, class: 'flujo-edge', label: edgeLabelHtml(edge), ...edgeStyle(status, true) })};`,
      );
      return;
    }
    edge.targets.forEach((target, i) => {
      const from = endpoint(edge.source);
      const to = endpoint(target);
      const targetInsideSource = isWithin(target, edge.source, parents, diagram);
      const sourceInsideTarget = isWithin(edge.source, target, parents, diagram);
      // A composite re-entering itself loops on its boundary marker.
      const head = target === edge.source && isComposite ? boundaryId(edge.source) : to.node;
      const tail = isComposite && targetInsideSource ? boundaryId(edge.source) : from.node;
      const ltail = isComposite && !targetInsideSource ? from.cluster : undefined;
      const lhead = sourceInsideTarget ? undefined : to.cluster;
      out(
        1,
        `${q(tail)} -> ${q(head)} ${attrs({ id: `t:${edge.key}:${i}`, class: 'flujo-edge', label: edgeLabelHtml(edge), ltail, lhead, ...edgeStyle(status, false) })};`,
      );
    });
  };

  out(0, `digraph ${q(diagram.id)} {`);
  out(
    1,
    `graph ${attrs({
      id: `machine:${diagram.id}`,
      // Top to bottom: edge labels sit between ranks, and side by side they make a left-to-right layout
      // two to three times wider than a page; top to bottom needs less zoom-out for every machine.
      rankdir: 'TB',
      compound: 'true',
      newrank: 'true',
      fontname: FONT,
      fontsize: SIZE.compartment,
      nodesep: 0.45,
      ranksep: 0.8,
      pad: 0.25,
      bgcolor: 'white',
      label: coverage ? legend(coverage) : undefined,
      labelloc: coverage ? 'b' : undefined,
      labeljust: coverage ? 'l' : undefined,
    })};`,
  );
  out(
    1,
    `node ${attrs({ shape: 'box', style: 'rounded,filled', fillcolor: COLOR.fill, color: COLOR.muted, fontname: FONT, fontsize: SIZE.state, margin: '0.24,0.08', penwidth: 1.4 })};`,
  );
  out(1, `edge ${attrs({ fontname: FONT, fontsize: SIZE.edge, arrowsize: 0.8 })};`);
  emitCluster(diagram.root, 1);
  for (const edge of diagram.edges) emitEdge(edge);
  out(0, '}');
  return `${lines.join('\n')}\n`;
}
