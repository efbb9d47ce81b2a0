import { Button, Classes, Drawer, FileInput, FormGroup, H2, ProgressBar } from '@blueprintjs/core';
import { DateInput2 } from '@blueprintjs/datetime2';
import '@blueprintjs/datetime2/lib/css/blueprint-datetime2.css';
import { useMachine } from '@xstate/react';
import { es } from 'date-fns/locale';
import dayjs from 'dayjs';
import { useState } from 'react';
import { displayMonthFirstDate, parseMonthFirstDate } from '../../domain/calendar-date';
import {
  BULK_DATE_MAX,
  BULK_DATE_MIN,
  bulkPaymentDateError,
  PAYMENT_DATE_INVALID,
  PAYMENT_DATE_REQUIRED,
} from '../../domain/payment-date';
import type { bulkAuthorizationMachine, ChosenFile } from '../../machines/bulk-authorization.machine';
import { MessageDialog } from '../invoices/message-dialog';
import { UNREADABLE_DATE } from './payment-date-input';

// Spec §2 "Bulk authorization panel" and "Quotation dialog" (template), issue 14: the template's download and
// upload, a ZIP of CFDI XML chosen or dropped, the panel that asks for the one payment date, progress and the
// alert dialog. The machine decides; this view only shows its snapshot and sends events.

export const DOWNLOAD_TEMPLATE_TEXT = 'Descargar plantilla';
export const UPLOAD_TEMPLATE_TEXT = 'Cargar plantilla';
export const CHOOSE_ZIP_TEXT = 'Seleccionar ZIP';
export const DROP_ZONE_TEXT = 'Arrastra aquí un ZIP con los XML de tus facturas';
export const BULK_PANEL_QUESTION = 'Selecciona una fecha de pago para la carga masiva.';
export const BULK_PANEL_TITLE = 'Autorización masiva';
export const BULK_DATE_LABEL = 'Fecha de pago';
export const BULK_SUBMIT_TEXT = 'Autorizar masivamente';
export const CANCEL_TEXT = 'Cancelar';
export const UPLOAD_PROGRESS_LABEL = 'Progreso de la carga';

const MIN_DATE = dayjs(BULK_DATE_MIN).toDate();
const MAX_DATE = dayjs(BULK_DATE_MAX).toDate();

function chosen(file: File): ChosenFile {
  return { name: file.name, type: file.type, blob: file };
}

function progressText(progress: number | null): string {
  return progress === null ? 'Subiendo archivo…' : `Subiendo archivo… ${Math.round(progress * 100)} %`;
}

/** The first file of a change of a file input, and the input emptied so the same file can be chosen again. */
function takeFile(event: React.ChangeEvent<HTMLInputElement>): File | null {
  const file = event.currentTarget.files?.[0] ?? null;
  event.currentTarget.value = '';
  return file;
}

export function BulkAuthorization({ machine }: { machine: typeof bulkAuthorizationMachine }) {
  const [state, send] = useMachine(machine);
  const [dragging, setDragging] = useState(false);
  const { file, paymentDate, showErrors, progress, messages } = state.context;
  const uploading = state.matches('uploadingZip') || state.matches('uploadingTemplate');
  const busy = uploading || state.matches('downloadingTemplate');
  const idle = state.matches('noFile');
  const dateError = bulkPaymentDateError(paymentDate);
  // 'Requerido' waits for 'Autorizar masivamente'; a wrong date shows as soon as it is entered.
  const shownError = dateError === PAYMENT_DATE_REQUIRED && !showErrors ? null : dateError;
  const isoValue = paymentDate && paymentDate !== UNREADABLE_DATE ? paymentDate : null;

  return (
    <section className="flujo-bulk-authorization" aria-label="Carga masiva">
      <div className="flujo-list-actions">
        <Button
          text={DOWNLOAD_TEMPLATE_TEXT}
          disabled={!idle}
          loading={state.matches('downloadingTemplate')}
          onClick={() => send({ type: 'template.download' })}
        />
        <FileInput
          text={UPLOAD_TEMPLATE_TEXT}
          buttonText="Examinar"
          disabled={!idle}
          inputProps={{
            accept: '.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            'aria-label': UPLOAD_TEMPLATE_TEXT,
          }}
          onInputChange={(event) => {
            const chosenFile = takeFile(event);
            if (chosenFile) send({ type: 'template.choose', file: chosen(chosenFile) });
          }}
        />
        <FileInput
          text={CHOOSE_ZIP_TEXT}
          buttonText="Examinar"
          disabled={!idle}
          inputProps={{ accept: '.zip,application/zip', 'aria-label': CHOOSE_ZIP_TEXT }}
          onInputChange={(event) => {
            const chosenFile = takeFile(event);
            if (chosenFile) send({ type: 'zip.choose', file: chosen(chosenFile) });
          }}
        />
      </div>
      {/* The drop zone is a shortcut for the mouse; the ZIP button above is the keyboard's way. */}
      <section
        className={`flujo-drop-zone${dragging ? ' flujo-drop-zone-active' : ''}`}
        data-testid="zip-drop-zone"
        aria-label={DROP_ZONE_TEXT}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          const dropped = event.dataTransfer.files[0];
          if (dropped && idle) send({ type: 'zip.drop', file: chosen(dropped) });
        }}
      >
        <p className={Classes.TEXT_MUTED}>{DROP_ZONE_TEXT}</p>
      </section>
      {busy && (
        <div aria-live="polite">
          <ProgressBar
            intent="primary"
            value={uploading ? (progress ?? undefined) : undefined}
            aria-label={UPLOAD_PROGRESS_LABEL}
            aria-valuenow={progress === null ? undefined : Math.round(progress * 100)}
          />
          <p>{uploading ? progressText(progress) : 'Descargando plantilla…'}</p>
        </div>
      )}
      <Drawer
        // Blueprint's header button is labelled in English; 'Cancelar' closes the panel instead.
        isCloseButtonShown={false}
        isOpen={state.matches('panelOpen') || state.matches('uploadingZip')}
        onClose={() => send({ type: 'panel.close' })}
        canEscapeKeyClose={!uploading}
        canOutsideClickClose={!uploading}
        position="right"
        size="min(420px, 100vw)"
        // Its own h2 rather than Blueprint's title (an h4, which would skip heading levels after the page's h1).
        aria-label={BULK_PANEL_TITLE}
      >
        <form
          className={Classes.DRAWER_BODY}
          onSubmit={(event) => {
            event.preventDefault();
            send({ type: 'bulk.submit' });
          }}
        >
          <div className={Classes.DIALOG_BODY}>
            <H2 className="flujo-bulk-panel-title">{BULK_PANEL_TITLE}</H2>
            <p>{BULK_PANEL_QUESTION}</p>
            {file && <p className={Classes.TEXT_MUTED}>Archivo: {file.name}</p>}
            <FormGroup
              label={BULK_DATE_LABEL}
              intent={shownError ? 'danger' : 'none'}
              helperText={shownError ?? undefined}
            >
              <DateInput2
                value={isoValue}
                onChange={(next) =>
                  send({ type: 'date.change', paymentDate: next ? next.slice(0, 10) : null })
                }
                onError={() => send({ type: 'date.change', paymentDate: UNREADABLE_DATE })}
                formatDate={(date) => displayMonthFirstDate(dayjs(date).format('YYYY-MM-DD'))}
                parseDate={(text) => {
                  const iso = parseMonthFirstDate(text);
                  return iso ? dayjs(iso).toDate() : false;
                }}
                locale={es}
                dayPickerProps={{ weekStartsOn: 1 }}
                minDate={MIN_DATE}
                maxDate={MAX_DATE}
                placeholder="MM/DD/AAAA"
                invalidDateMessage={PAYMENT_DATE_INVALID}
                outOfRangeMessage={PAYMENT_DATE_INVALID}
                disabled={uploading}
                showActionsBar={false}
                closeOnSelection
                inputProps={{
                  'aria-label': BULK_DATE_LABEL,
                  'aria-invalid': shownError ? true : undefined,
                  intent: shownError ? 'danger' : 'none',
                }}
              />
            </FormGroup>
            {uploading && (
              <ProgressBar
                intent="primary"
                value={progress ?? undefined}
                aria-label={`${UPLOAD_PROGRESS_LABEL} del ZIP`}
              />
            )}
          </div>
          <div className={Classes.DRAWER_FOOTER}>
            <Button text={CANCEL_TEXT} disabled={uploading} onClick={() => send({ type: 'panel.close' })} />{' '}
            <Button type="submit" intent="primary" text={BULK_SUBMIT_TEXT} loading={uploading} />
          </div>
        </form>
      </Drawer>
      <MessageDialog
        isOpen={state.matches('refused') || state.matches('failed') || state.matches('downloadFailed')}
        loading={false}
        variant={state.matches('refused') ? 'warning' : 'error'}
        message={messages}
        onClose={() => send({ type: 'dialog.close' })}
      />
    </section>
  );
}
