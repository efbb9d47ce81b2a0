import type { AnyStateMachine } from 'xstate';

export interface MachineEntry {
  /** The machine file's name without `.machine.ts`; names its diagrams and its model. */
  id: string;
  /** Spanish title shown to auditors on /diagramas/: the machine's root `meta.title`. */
  title: string;
  /** One Spanish paragraph, what the workflow decides and who triggers it: the root `description`. */
  description: string;
  machine: AnyStateMachine;
}

/**
 * A machine describes itself: its config's root `meta: { title }` and `description` are what the catalogue,
 * the diagrams and /diagramas/ show. Throws when either is missing, so a new machine cannot be catalogued
 * without its texts.
 */
export function machineEntry(id: string, machine: AnyStateMachine): MachineEntry {
  const title: unknown = machine.root.meta?.title;
  const description = machine.root.description;
  if (typeof title !== 'string' || title === '' || !description) {
    throw new Error(
      `${id}.machine.ts: the machine config needs a Spanish \`meta: { title }\` and \`description\` at its root.`,
    );
  }
  return { id, title, description, machine };
}
