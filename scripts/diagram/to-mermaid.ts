import type { DiagramEdge, DiagramState, MachineDiagram } from './describe';
import { isWithin, lineage, parentsOf } from './tree';

/**
 * Mermaid `stateDiagram-v2` text: the reviewable, diffable artefact (GitHub and GitLab render it).
 * Nested states become `state X { }`, parallel regions are separated by `--`, and each edge is declared in
 * the innermost composite that contains both ends.
 */

const INDENT = '  ';

/** Mermaid ids are word characters only; state ids are dotted paths, so flatten them and keep them unique. */
function mermaidIds(diagram: MachineDiagram): Map<string, string> {
  const ids = new Map<string, string>();
  const used = new Set<string>();
  for (const id of diagram.states.keys()) {
    const base = id.replace(/\W/g, '_');
    let candidate = base;
    for (let n = 2; used.has(candidate); n++) candidate = `${base}_${n}`;
    used.add(candidate);
    ids.set(id, candidate);
  }
  return ids;
}

/** In a description, `#` starts a comment and `;` ends the statement. */
function text(value: string): string {
  return value.replace(/[#;]/g, ' ').replace(/\s+/g, ' ').trim();
}

function quoted(value: string): string {
  return `"${value.replace(/"/g, "'")}"`;
}

function compartments(state: DiagramState): string[] {
  return [
    ...state.entry.map((action) => `entry / ${action}`),
    ...state.invoke.map((src) => `invoke / ${src}`),
    ...state.exit.map((action) => `exit / ${action}`),
  ];
}

export function toMermaid(diagram: MachineDiagram, title: string): string {
  const ids = mermaidIds(diagram);
  const parents = parentsOf(diagram);
  const id = (stateId: string): string => ids.get(stateId)!;

  // The block an edge is written in: the innermost compound (or the root) containing source and target.
  // A parallel state's body holds only its regions, so edges between regions go one level up.
  const blockOf = (edge: DiagramEdge, target: string): string => {
    const candidates = lineage(edge.source, parents, diagram).slice(1);
    const block = candidates.find(
      (state) =>
        state.id === diagram.root.id ||
        (state.type === 'compound' && isWithin(target, state.id, parents, diagram)),
    );
    return (block ?? diagram.root).id;
  };
  // The root is the diagram itself in Mermaid, so its own transitions start from a pseudo-state.
  const anyState = `${id(diagram.root.id)}__any`;
  const node = (stateId: string): string => (stateId === diagram.root.id ? anyState : id(stateId));
  const edgesByBlock = new Map<string, string[]>();
  for (const edge of diagram.edges) {
    const targets = edge.targets.length > 0 ? edge.targets : [edge.source];
    for (const target of targets) {
      const block = blockOf(edge, target);
      const line = `${node(edge.source)} --> ${node(target)} : ${text(edge.label)}`;
      edgesByBlock.set(block, [...(edgesByBlock.get(block) ?? []), line]);
    }
  }

  const lines: string[] = [];
  const body = (state: DiagramState, depth: number): void => {
    const pad = INDENT.repeat(depth);
    if (state.type === 'parallel') {
      state.children.forEach((region, i) => {
        if (i > 0) lines.push(`${pad}--`);
        declare(region, depth);
      });
    } else {
      if (state.initial) lines.push(`${pad}[*] --> ${id(state.initial)}`);
      for (const child of state.children) declare(child, depth);
    }
    for (const line of edgesByBlock.get(state.id) ?? []) lines.push(`${pad}${line}`);
    for (const child of state.children) {
      if (child.type === 'final') lines.push(`${pad}${id(child.id)} --> [*]`);
    }
  };
  const declare = (state: DiagramState, depth: number): void => {
    const pad = INDENT.repeat(depth);
    const name = state.type === 'history' ? (state.history === 'deep' ? 'H*' : 'H') : state.key;
    if (state.type === 'compound' || state.type === 'parallel') {
      lines.push(`${pad}state ${quoted(name)} as ${id(state.id)} {`);
      body(state, depth + 1);
      lines.push(`${pad}}`);
      for (const line of compartments(state))
        lines.push(`${pad}note right of ${id(state.id)} : ${text(line)}`);
    } else {
      lines.push(`${pad}state ${quoted(name)} as ${id(state.id)}`);
      for (const line of compartments(state)) lines.push(`${pad}${id(state.id)} : ${text(line)}`);
    }
  };

  const header = [
    '---',
    `title: ${quoted(`${diagram.id} · ${title}`)}`,
    '---',
    'stateDiagram-v2',
    `${INDENT}direction LR`,
  ];
  if (diagram.edges.some((edge) => edge.source === diagram.root.id)) {
    lines.push(`${INDENT}state "(en cualquier estado)" as ${anyState}`);
  }
  body(diagram.root, 1);
  return `${[...header, ...lines].join('\n')}\n`;
}
