import { assign, fromPromise, setup } from 'xstate';
import { type ChosenFileFacts, FILE_KIND_MESSAGES, isXlsxFile, isZipFile } from '../domain/bulk-upload';
import type { CallFailure } from '../domain/call-failure';
import { bulkPaymentDateError } from '../domain/payment-date';
import type { BulkUploadLine, TemplateUploadLine, TemplateUploadResult } from '../domain/schemas/corporates';
import { messageFromFailure } from './pronto-pago-messages';

/** A file the user chose or dropped: what the checks read, plus the file itself for the upload. */
export type ChosenFile = ChosenFileFacts & { blob?: Blob };

/** Reports how much of an upload has left the browser, 0..1. */
export type ReportProgress = (fraction: number) => void;

export interface ZipUploadInput {
  file: ChosenFile;
  /** 'YYYY-MM-DD'. */
  paymentDate: string;
  onProgress: ReportProgress;
}

export interface TemplateUploadInput {
  file: ChosenFile;
  onProgress: ReportProgress;
}

export interface BulkAuthorizationContext {
  /** The ZIP waiting for its payment date in the panel. */
  file: ChosenFile | null;
  /** As the date input hands it over: 'YYYY-MM-DD', other text (not a date) or null. */
  paymentDate: string | null;
  /** 'Autorizar masivamente' was pressed: the date field shows its error. */
  showErrors: boolean;
  /** Fraction of the upload sent, null until the browser reports any. */
  progress: number | null;
  /** The alert dialog's lines (a refused file, a failed upload). */
  messages: string[];
}

/**
 * What a failed upload shows, one message a line (spec §8): the server's `detail` (the ZIP's 400 names every bad
 * file, one per line), else every message of a field-error body ({payment_date: [...]}), else the shared texts
 * for no answer, an ended session or anything else.
 */
export function uploadFailureMessages(error: unknown): string[] {
  const failure = error as Partial<CallFailure> | null;
  const body = failure?.body;
  const status = failure?.status ?? 500;
  if (status > 0 && status < 500 && status !== 401 && body && typeof body === 'object') {
    const detail = (body as { detail?: unknown }).detail;
    if (typeof detail === 'string' && detail.trim())
      return detail.split('\n').filter((line) => line.trim() !== '');
    const fieldMessages = errorValues(body as Record<string, unknown>);
    if (fieldMessages.length > 0) return fieldMessages;
  }
  return [messageFromFailure(error).message];
}

/** Every value of an error object, one per line: lists flattened, in the server's order (spec §8 template). */
export function errorValues(errors: Readonly<Record<string, unknown>>): string[] {
  return Object.values(errors)
    .flatMap((value) => (Array.isArray(value) ? value : [value]))
    .filter((value): value is string => typeof value === 'string' && value.trim() !== '');
}

/**
 * Spec §2 "Bulk authorization panel", §4, §5 and §8, issue 14: a ZIP of CFDI XML (chosen or dropped) opens the
 * panel, which asks for one payment date; 'Autorizar masivamente' uploads it with progress. The XLSX template
 * is downloaded and uploaded from the same place. A successful upload hands its lines to the pre-authorization
 * store and goes to the quotation; a failure opens the alert dialog. The route provides the calls (actors),
 * the store and the navigation (actions).
 */
export const bulkAuthorizationMachine = setup({
  types: {
    context: {} as BulkAuthorizationContext,
    events: {} as
      | { type: 'zip.choose'; file: ChosenFile }
      | { type: 'zip.drop'; file: ChosenFile }
      | { type: 'date.change'; paymentDate: string | null }
      | { type: 'panel.close' }
      | { type: 'bulk.submit' }
      | { type: 'upload.progress'; fraction: number }
      | { type: 'template.download' }
      | { type: 'template.choose'; file: ChosenFile }
      | { type: 'dialog.close' },
  },
  actors: {
    // Provided by the route (src/services): POST corporates/upload/zip/, the answer checked to be an array.
    uploadZip: fromPromise<BulkUploadLine[], ZipUploadInput>(async () => []),
    // Provided by the route: POST corporates/upload/excel/.
    uploadTemplate: fromPromise<TemplateUploadResult, TemplateUploadInput>(async () => ({
      processed_invoices: [],
      validation_errors: {},
    })),
    // Provided by the route: GET corporates/template/, saved as a file.
    downloadTemplate: fromPromise<void, void>(async () => {}),
  },
  guards: {
    isZip: (_, params: { file: ChosenFile }) => isZipFile(params.file),
    isXlsx: (_, params: { file: ChosenFile }) => isXlsxFile(params.file),
    dateInvalid: ({ context }) => bulkPaymentDateError(context.paymentDate) !== null,
    // Spec §5: an answer with validation_errors is a failed upload, whatever else it holds.
    hasValidationErrors: (_, params: { result: TemplateUploadResult }) =>
      errorValues(params.result.validation_errors).length > 0,
  },
  actions: {
    keepFile: assign({ file: (_, params: { file: ChosenFile }) => params.file }),
    setDate: assign({ paymentDate: (_, params: { paymentDate: string | null }) => params.paymentDate }),
    revealErrors: assign({ showErrors: true }),
    setProgress: assign({ progress: (_, params: { fraction: number }) => params.fraction }),
    resetProgress: assign({ progress: null }),
    showMessages: assign({ messages: (_, params: { messages: string[] }) => params.messages }),
    forget: assign({ file: null, paymentDate: null, showErrors: false, progress: null, messages: [] }),
    // Provided by the route: save the uploaded lines (and their dates) as the pre-authorization work.
    storeLines: (_, _params: { lines: readonly (BulkUploadLine | TemplateUploadLine)[] }) => {},
    // Provided by the route: clear the pre-authorization store (spec §4: closing the error dialog; §8 template).
    clearStored: () => {},
    // Provided by the route: /dashboard/cotizacion/.
    goToQuotation: () => {},
  },
}).createMachine({
  id: 'bulk-authorization',
  meta: {
    title: 'Autorización masiva',
    events: {
      'zip.choose': '«Seleccionar ZIP»',
      'zip.drop': 'Arrastra un archivo a la zona de carga',
      'template.download': '«Descargar plantilla»',
      'template.choose': '«Cargar plantilla»',
      'dialog.close': '«Cerrar»',
      'date.change': 'Cambia la fecha de pago',
      'panel.close': '«Cancelar»',
      'bulk.submit': '«Autorizar masivamente»',
      'upload.progress': 'Avanza la carga',
      'xstate.done.actor.uploadZip': 'El servidor acepta el ZIP',
      'xstate.error.actor.uploadZip': 'El servidor rechaza el ZIP o no responde',
      'xstate.done.actor.downloadTemplate': 'Se descarga la plantilla',
      'xstate.error.actor.downloadTemplate': 'El servidor no entrega la plantilla o no responde',
      'xstate.done.actor.uploadTemplate': 'El servidor procesa la plantilla',
      'xstate.error.actor.uploadTemplate': 'El servidor rechaza la plantilla o no responde',
    },
    guards: {
      isZip: 'El archivo es un ZIP: termina en .zip y su tipo es de ZIP (o el navegador no lo indica).',
      isXlsx:
        'El archivo es un libro de Excel: termina en .xlsx y su tipo es de Excel (o el navegador no lo indica).',
      dateInvalid:
        'La fecha de pago falta o no es una fecha válida entre el 1 de enero de 1900 y el 31 de diciembre de 2099.',
      hasValidationErrors: 'La respuesta del servidor trae al menos un error de validación de la plantilla.',
    },
  },
  description:
    'El comprador autoriza muchas facturas a la vez. Con un ZIP de XML (elegido o arrastrado; otro tipo de ' +
    'archivo se rechaza con un aviso) se abre el panel que pide una fecha de pago para la carga masiva ' +
    '(requerida y válida); «Autorizar masivamente» sube el archivo mostrando el avance. Con la plantilla: se ' +
    'descarga, se llena y se carga (solo .xlsx). Si la carga sale bien, las facturas devueltas y sus fechas se ' +
    'guardan en la pre-autorización y se pasa a la cotización; si falla, un diálogo de error muestra cada ' +
    'mensaje en su línea y al cerrarlo se borran los datos de pre-autorización guardados.',
  context: {
    file: null,
    paymentDate: null,
    showErrors: false,
    progress: null,
    messages: [],
  },
  initial: 'noFile',
  states: {
    noFile: {
      meta: { label: 'Sin archivo' },
      on: {
        'zip.choose': [
          {
            guard: { type: 'isZip', params: ({ event }) => ({ file: event.file }) },
            target: 'panelOpen',
            actions: { type: 'keepFile', params: ({ event }) => ({ file: event.file }) },
          },
          {
            target: 'refused',
            actions: { type: 'showMessages', params: { messages: [FILE_KIND_MESSAGES.selectZip] } },
          },
        ],
        'zip.drop': [
          {
            guard: { type: 'isZip', params: ({ event }) => ({ file: event.file }) },
            target: 'panelOpen',
            actions: { type: 'keepFile', params: ({ event }) => ({ file: event.file }) },
          },
          {
            target: 'refused',
            actions: { type: 'showMessages', params: { messages: [FILE_KIND_MESSAGES.dropZip] } },
          },
        ],
        'template.download': { target: 'downloadingTemplate' },
        'template.choose': [
          {
            guard: { type: 'isXlsx', params: ({ event }) => ({ file: event.file }) },
            target: 'uploadingTemplate',
            actions: { type: 'keepFile', params: ({ event }) => ({ file: event.file }) },
          },
          {
            target: 'refused',
            actions: { type: 'showMessages', params: { messages: [FILE_KIND_MESSAGES.selectXlsx] } },
          },
        ],
      },
    },
    // A file of the wrong kind: the spec's alert; nothing was sent.
    refused: {
      meta: { label: 'Archivo rechazado' },
      on: { 'dialog.close': { target: 'noFile', actions: 'forget' } },
    },
    panelOpen: {
      meta: { label: 'Panel de fecha de pago' },
      on: {
        'date.change': {
          actions: { type: 'setDate', params: ({ event }) => ({ paymentDate: event.paymentDate }) },
        },
        'panel.close': { target: 'noFile', actions: 'forget' },
        'bulk.submit': [{ guard: 'dateInvalid', actions: 'revealErrors' }, { target: 'uploadingZip' }],
      },
    },
    uploadingZip: {
      meta: { label: 'Subiendo el ZIP' },
      entry: 'resetProgress',
      invoke: {
        id: 'uploadZip',
        src: 'uploadZip',
        input: ({ context, self }) => ({
          file: context.file as ChosenFile,
          paymentDate: context.paymentDate ?? '',
          onProgress: (fraction: number) => self.send({ type: 'upload.progress', fraction }),
        }),
        onDone: {
          target: 'done',
          actions: [{ type: 'storeLines', params: ({ event }) => ({ lines: event.output }) }, 'forget'],
        },
        onError: {
          target: 'failed',
          actions: {
            type: 'showMessages',
            params: ({ event }) => ({ messages: uploadFailureMessages(event.error) }),
          },
        },
      },
      on: {
        'upload.progress': {
          actions: { type: 'setProgress', params: ({ event }) => ({ fraction: event.fraction }) },
        },
      },
    },
    downloadingTemplate: {
      meta: { label: 'Descargando la plantilla' },
      invoke: {
        id: 'downloadTemplate',
        src: 'downloadTemplate',
        onDone: { target: 'noFile' },
        onError: {
          // Nothing was loaded: the dialog says why and the saved work stays.
          target: 'downloadFailed',
          actions: {
            type: 'showMessages',
            params: ({ event }) => ({ messages: uploadFailureMessages(event.error) }),
          },
        },
      },
    },
    uploadingTemplate: {
      meta: { label: 'Subiendo la plantilla' },
      entry: 'resetProgress',
      invoke: {
        id: 'uploadTemplate',
        src: 'uploadTemplate',
        input: ({ context, self }) => ({
          file: context.file as ChosenFile,
          onProgress: (fraction: number) => self.send({ type: 'upload.progress', fraction }),
        }),
        onDone: [
          {
            // Spec §8: each value of the error object on its own line; the loaded invoices are cleared.
            guard: { type: 'hasValidationErrors', params: ({ event }) => ({ result: event.output }) },
            target: 'failed',
            actions: [
              {
                type: 'showMessages',
                params: ({ event }) => ({ messages: errorValues(event.output.validation_errors) }),
              },
              'clearStored',
            ],
          },
          {
            target: 'done',
            actions: [
              { type: 'storeLines', params: ({ event }) => ({ lines: event.output.processed_invoices }) },
              'forget',
            ],
          },
        ],
        onError: {
          target: 'failed',
          actions: [
            {
              type: 'showMessages',
              params: ({ event }) => ({ messages: uploadFailureMessages(event.error) }),
            },
            'clearStored',
          ],
        },
      },
      on: {
        'upload.progress': {
          actions: { type: 'setProgress', params: ({ event }) => ({ fraction: event.fraction }) },
        },
      },
    },
    downloadFailed: {
      meta: { label: 'Error al descargar la plantilla' },
      on: { 'dialog.close': { target: 'noFile', actions: 'forget' } },
    },
    // The alert dialog, variant error; closing it clears the stored pre-authorization data (spec §4).
    failed: {
      meta: { label: 'Error en la carga' },
      on: { 'dialog.close': { target: 'noFile', actions: ['clearStored', 'forget'] } },
    },
    done: {
      meta: { label: 'Ir a la cotización' },
      entry: 'goToQuotation',
    },
  },
});
