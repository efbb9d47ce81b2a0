import type { DiagramState, MachineDiagram } from './describe';

/** Tree helpers shared by the converters. */

export function parentsOf(diagram: MachineDiagram): Map<string, DiagramState> {
  const parents = new Map<string, DiagramState>();
  const visit = (state: DiagramState): void => {
    for (const child of state.children) {
      parents.set(child.id, state);
      visit(child);
    }
  };
  visit(diagram.root);
  return parents;
}

/** The state itself, then its ancestors up to the root. */
export function lineage(
  id: string,
  parents: Map<string, DiagramState>,
  diagram: MachineDiagram,
): DiagramState[] {
  const out: DiagramState[] = [];
  for (let state = diagram.states.get(id); state; state = parents.get(state.id)) out.push(state);
  return out;
}

/** Whether `inner` is `outer` or one of its descendants. */
export function isWithin(
  inner: string,
  outer: string,
  parents: Map<string, DiagramState>,
  diagram: MachineDiagram,
): boolean {
  return lineage(inner, parents, diagram).some((state) => state.id === outer);
}
