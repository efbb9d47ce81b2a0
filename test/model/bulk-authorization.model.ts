import type { AnyMachineSnapshot } from 'xstate';
import { BULK_UPLOAD_MESSAGES, TEMPLATE_COLUMNS } from '../../src/domain/bulk-upload';
import { bulkPaymentDateError } from '../../src/domain/payment-date';
import { bulkAuthorizationMachine } from '../../src/machines/bulk-authorization.machine';
import { SESSION_ENDED_BODY } from './authorization-request.model';
import type { MachineModel } from './harness/model';

// Symbolic files and answers: each path builds a ZIP of two fresh CFDI of the demo provider to the demo
// corporate and a filled template of two imported invoices; ids 1 and 2 stand for those invoices.
export const ZIP_FILE = { name: 'facturas.zip', type: 'application/zip' } as const;
export const PDF_FILE = { name: 'factura.pdf', type: 'application/pdf' } as const;
export const XLSX_FILE = {
  name: 'plantilla.xlsx',
  type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;
export const CSV_FILE = { name: 'plantilla.csv', type: 'text/csv' } as const;
/** A date the panel accepts (the executors type a real one 30 days from today). */
export const VALID_DATE = '2026-02-15';

const FOREIGN_FILE = 'ajena.xml';
/** The ZIP's 400 (decision 0032): detail names every bad file, one per line. */
export const ZIP_400_BODY = {
  detail: [
    BULK_UPLOAD_MESSAGES.zipRefused(1),
    `${FOREIGN_FILE}: ${BULK_UPLOAD_MESSAGES.foreignReceiver('CNO100823HX5')}`,
  ].join('\n'),
  files: [{ name: FOREIGN_FILE, reason: BULK_UPLOAD_MESSAGES.foreignReceiver('CNO100823HX5') }],
};
export const ZIP_415_BODY = { detail: BULK_UPLOAD_MESSAGES.notZip };
export const ZIP_413_BODY = { detail: BULK_UPLOAD_MESSAGES.tooLarge(20 * 1024 * 1024) };
export const SERVER_500_BODY = { detail: 'Error interno' };
export const TEMPLATE_415_BODY = { detail: BULK_UPLOAD_MESSAGES.notXlsx };
/** The template's row errors (a 200 with nothing processed): each value is one line of the dialog. */
export const TEMPLATE_ROW_ERRORS = {
  '3.payment_date': [BULK_UPLOAD_MESSAGES.cell(3, TEMPLATE_COLUMNS.paymentDate, 'Excede 150 días')],
  '4.fiscal_folio': [BULK_UPLOAD_MESSAGES.cell(4, TEMPLATE_COLUMNS.fiscalFolio, 'falta el folio fiscal.')],
};

export const bulkAuthorizationModel: MachineModel = {
  id: 'bulk-authorization',
  machine: bulkAuthorizationMachine,
  events: [
    { type: 'zip.choose', file: ZIP_FILE },
    { type: 'zip.choose', file: PDF_FILE },
    { type: 'zip.drop', file: ZIP_FILE },
    { type: 'zip.drop', file: PDF_FILE },
    { type: 'date.change', paymentDate: VALID_DATE },
    { type: 'date.change', paymentDate: null },
    { type: 'panel.close' },
    { type: 'bulk.submit' },
    {
      type: 'xstate.done.actor.uploadZip',
      output: [
        { invoice_id: 1, payment_date: VALID_DATE },
        { invoice_id: 2, payment_date: VALID_DATE },
      ],
    },
    { type: 'xstate.error.actor.uploadZip', error: { status: 400, body: ZIP_400_BODY } },
    { type: 'xstate.error.actor.uploadZip', error: { status: 415, body: ZIP_415_BODY } },
    { type: 'xstate.error.actor.uploadZip', error: { status: 413, body: ZIP_413_BODY } },
    { type: 'xstate.error.actor.uploadZip', error: { status: 500, body: SERVER_500_BODY } },
    { type: 'xstate.error.actor.uploadZip', error: { status: 0, body: null } },
    { type: 'xstate.error.actor.uploadZip', error: { status: 401, body: SESSION_ENDED_BODY } },
    { type: 'template.download' },
    { type: 'xstate.done.actor.downloadTemplate' },
    { type: 'xstate.error.actor.downloadTemplate', error: { status: 500, body: SERVER_500_BODY } },
    { type: 'template.choose', file: XLSX_FILE },
    { type: 'template.choose', file: CSV_FILE },
    {
      type: 'xstate.done.actor.uploadTemplate',
      output: {
        processed_invoices: [
          { invoice_id: 1, fiscal_folio: 'uuid-1', payment_date: VALID_DATE },
          { invoice_id: 2, fiscal_folio: 'uuid-2', payment_date: VALID_DATE },
        ],
        validation_errors: {},
      },
    },
    {
      type: 'xstate.done.actor.uploadTemplate',
      output: { processed_invoices: [], validation_errors: TEMPLATE_ROW_ERRORS },
    },
    { type: 'xstate.error.actor.uploadTemplate', error: { status: 415, body: TEMPLATE_415_BODY } },
    { type: 'dialog.close' },
  ],
  waivers: {
    'bulk-authorization.uploadingZip|upload.progress|0':
      'reported by the browser while the body leaves; happy-dom behind MSW reports it only once the held ' +
      'request is answered, after the state was left; src/machines/bulk-authorization.machine.test.ts ' +
      'reports progress during the upload, and e2e/bulk-authorization.spec.ts uploads through Chromium',
    'bulk-authorization.uploadingTemplate|upload.progress|0':
      'as for the ZIP: happy-dom reports upload progress only after the answer; the machine test covers it',
  },
  // dateInvalid reads whether the panel's date is acceptable.
  abstract: (s: AnyMachineSnapshot) => ({
    value: s.value,
    dateOk: bulkPaymentDateError((s.context as { paymentDate: string | null }).paymentDate) === null,
  }),
};
