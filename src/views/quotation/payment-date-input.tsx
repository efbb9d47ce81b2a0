import { FormGroup } from '@blueprintjs/core';
import { DateInput2 } from '@blueprintjs/datetime2';
import '@blueprintjs/datetime2/lib/css/blueprint-datetime2.css';
import './payment-date-input.css';
import { es } from 'date-fns/locale';
import dayjs from 'dayjs';
import { useId } from 'react';
import { DISPLAY_DATE_FORMAT, parseDisplayDate } from '../../domain/calendar-date';
import { BULK_DATE_MAX, BULK_DATE_MIN, PAYMENT_DATE_INVALID } from '../../domain/payment-date';

// The per-invoice payment date (spec §5, §9): Blueprint's date input in Spanish, DD/MM/YYYY, weeks from
// Monday. The field takes any date the picker allows; the 150-day and after-today rules are checked and shown by
// the page (preAuthorizationDateError).

/** What the input hands back for text that is not a date: paymentDateError reads it as 'Debe ser una fecha válida'. */
export const UNREADABLE_DATE = 'fecha-invalida';

const MIN_DATE = dayjs(BULK_DATE_MIN).toDate();
const MAX_DATE = dayjs(BULK_DATE_MAX).toDate();

function formatDate(date: Date): string {
  return dayjs(date).format(DISPLAY_DATE_FORMAT);
}

function parseDate(text: string): Date | false {
  const isoDate = parseDisplayDate(text);
  return isoDate ? dayjs(isoDate).toDate() : false;
}

export interface PaymentDateInputProps {
  /** 'YYYY-MM-DD', UNREADABLE_DATE or null. */
  value: string | null;
  /** Names the field for assistive technology ('Fecha de pago A-1234'). */
  label: string;
  error: string | null;
  disabled: boolean;
  onChange: (paymentDate: string | null) => void;
}

export function PaymentDateInput({ value, label, error, disabled, onChange }: PaymentDateInputProps) {
  const isoValue = value && value !== UNREADABLE_DATE ? value : null;
  // The message is the input's description, so a screen reader reads the refusal with "invalid".
  const messageId = useId();
  return (
    <FormGroup
      className="flujo-payment-date"
      intent={error ? 'danger' : 'none'}
      helperText={error ? <span id={messageId}>{error}</span> : undefined}
    >
      <DateInput2
        value={isoValue}
        onChange={(next) => onChange(next ? next.slice(0, 10) : null)}
        onError={() => onChange(UNREADABLE_DATE)}
        formatDate={formatDate}
        parseDate={parseDate}
        locale={es}
        dayPickerProps={{ weekStartsOn: 1 }}
        minDate={MIN_DATE}
        maxDate={MAX_DATE}
        placeholder="DD/MM/AAAA"
        invalidDateMessage={PAYMENT_DATE_INVALID}
        outOfRangeMessage={PAYMENT_DATE_INVALID}
        disabled={disabled}
        showActionsBar={false}
        closeOnSelection
        popoverProps={{ placement: 'bottom' }}
        inputProps={{
          'aria-label': label,
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? messageId : undefined,
          intent: error ? 'danger' : 'none',
          small: true,
        }}
      />
    </FormGroup>
  );
}
