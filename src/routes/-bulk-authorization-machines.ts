import { fromPromise } from 'xstate';
import { paths } from '../domain/paths';
import { uploadedWork } from '../domain/pre-authorization';
import type { BulkUploadLine, TemplateUploadResult } from '../domain/schemas/corporates';
import {
  bulkAuthorizationMachine,
  type TemplateUploadInput,
  type ZipUploadInput,
} from '../machines/bulk-authorization.machine';
import { downloadTemplate, uploadTemplate, uploadZip } from '../services/corporates.service';
import { navigateTo } from '../services/navigation';
import { clearPreAuthorization, savePreAuthorization } from '../stores/pre-authorization.store';

// The bulk authorization of /dashboard/pre-autorizacion/ (issue 14, decision 0034), wired to the upload calls,
// the pre-authorization store and navigation. (The '-' prefix keeps this file out of the route tree.)

function fileBlob(file: { blob?: Blob }): Blob {
  // The view always hands over the chosen File; only the model's symbolic events lack one.
  if (!file.blob) throw new Error('No file to upload');
  return file.blob;
}

export function wireBulkAuthorizationMachine() {
  return bulkAuthorizationMachine.provide({
    actors: {
      uploadZip: fromPromise<BulkUploadLine[], ZipUploadInput>(({ input }) =>
        uploadZip(fileBlob(input.file), input.file.name, input.paymentDate, input.onProgress),
      ),
      uploadTemplate: fromPromise<TemplateUploadResult, TemplateUploadInput>(({ input }) =>
        uploadTemplate(fileBlob(input.file), input.file.name, input.onProgress),
      ),
      downloadTemplate: fromPromise<void, void>(() => downloadTemplate()),
    },
    actions: {
      storeLines: (_, { lines }) => savePreAuthorization(uploadedWork(lines, Date.now())),
      clearStored: () => clearPreAuthorization(),
      goToQuotation: () => navigateTo(paths.quotation),
    },
  });
}
