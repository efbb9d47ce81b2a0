import { demoRequestModel } from './demo-request.model';
import type { MachineModel } from './harness/model';

/** Catalogue id → model definition; the diagram coverage variant and the coverage table read this. */
export const modelCatalogue: Record<string, MachineModel> = {
  [demoRequestModel.id]: demoRequestModel,
};
