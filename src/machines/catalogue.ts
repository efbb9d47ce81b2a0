import { catalogueMachines } from './catalogue.gen';
import { type MachineEntry, machineEntry } from './machine-entry';

export type { MachineEntry } from './machine-entry';

/**
 * Every workflow machine of Flujo, found rather than listed: `catalogue.gen.ts` is written by
 * `npm run diagrams` from src/machines/*.machine.ts. Diagrams, the /diagramas/ page and the model tests read it.
 */
export const machineCatalogue: readonly MachineEntry[] = catalogueMachines.map(([id, machine]) =>
  machineEntry(id, machine),
);
