import { demoRequestModel } from './demo-request.model';
import type { MachineModel } from './harness/model';
import { invoiceLifecycleModel } from './invoice-lifecycle.model';
import { passwordChangeModel } from './password-change.model';
import { passwordResetModel } from './password-reset.model';
import { passwordResetRequestModel } from './password-reset-request.model';
import { profileModel } from './profile.model';
import { sessionModel } from './session.model';
import { signUpModel } from './sign-up.model';

/** Catalogue id → model definition; the diagram coverage variant and the coverage table read this. */
export const modelCatalogue: Record<string, MachineModel> = {
  [demoRequestModel.id]: demoRequestModel,
  [sessionModel.id]: sessionModel,
  [signUpModel.id]: signUpModel,
  [passwordResetRequestModel.id]: passwordResetRequestModel,
  [passwordResetModel.id]: passwordResetModel,
  [passwordChangeModel.id]: passwordChangeModel,
  [profileModel.id]: profileModel,
  [invoiceLifecycleModel.id]: invoiceLifecycleModel,
};
