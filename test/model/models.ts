import { authorizationRequestModel } from './authorization-request.model';
import { demoRequestModel } from './demo-request.model';
import { forwardPaymentModel } from './forward-payment.model';
import type { MachineModel } from './harness/model';
import { invoiceDownloadModel } from './invoice-download.model';
import { invoiceLifecycleModel } from './invoice-lifecycle.model';
import { passwordChangeModel } from './password-change.model';
import { passwordResetModel } from './password-reset.model';
import { passwordResetRequestModel } from './password-reset-request.model';
import { profileModel } from './profile.model';
import { satLinkModel } from './sat-link.model';
import { sessionModel } from './session.model';
import { signUpModel } from './sign-up.model';

/** Catalogue id → model definition; the diagram coverage variant and the coverage table read this. */
export const modelCatalogue: Record<string, MachineModel> = {
  [demoRequestModel.id]: demoRequestModel,
  [authorizationRequestModel.id]: authorizationRequestModel,
  [forwardPaymentModel.id]: forwardPaymentModel,
  [sessionModel.id]: sessionModel,
  [signUpModel.id]: signUpModel,
  [passwordResetRequestModel.id]: passwordResetRequestModel,
  [passwordResetModel.id]: passwordResetModel,
  [passwordChangeModel.id]: passwordChangeModel,
  [profileModel.id]: profileModel,
  [satLinkModel.id]: satLinkModel,
  [invoiceLifecycleModel.id]: invoiceLifecycleModel,
  [invoiceDownloadModel.id]: invoiceDownloadModel,
};
