import type { MachineDetails } from '../../src/machines/diagram-details';
import type { MachineDiagram } from './describe';
import { parentsOf } from './tree';

/** The JSON published beside a machine's SVG (docs/diagrams/<id>.json): names, transitions and guards. */
export function toDetails(
  diagram: MachineDiagram,
  entry: { id: string; title: string; description: string },
  machineId: string,
): MachineDetails {
  const parents = parentsOf(diagram);
  const initials = new Set(
    [...diagram.states.values()].map((state) => state.initial).filter((id) => id !== undefined),
  );
  const states = [...diagram.states.values()]
    .filter((state) => state.id !== diagram.root.id)
    .map((state) => {
      const parent = parents.get(state.id);
      return {
        id: state.id,
        key: state.key,
        label: state.label ?? state.key,
        type: state.type,
        ...(parent && parent.id !== diagram.root.id ? { parent: parent.id } : {}),
        ...(state.description ? { description: state.description } : {}),
        initial: initials.has(state.id),
      };
    });
  const transitions = diagram.edges.map((edge) => ({
    key: edge.key,
    source: edge.source,
    targets: edge.targets,
    event: edge.eventType,
    technical: edge.event,
    label: edge.eventLabel ?? edge.event,
    ...(edge.guardMark ? { guard: edge.guardMark } : {}),
    actions: edge.actions,
  }));
  return {
    id: entry.id,
    machineId,
    title: entry.title,
    description: entry.description,
    states,
    transitions,
    guards: diagram.guards,
  };
}
