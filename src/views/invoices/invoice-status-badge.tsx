import { Classes, type Intent } from '@blueprintjs/core';
import {
  InvoiceStatus,
  type InvoiceStatusCode,
  PROVIDER_STATUS_LABELS,
  PROVIDER_STATUS_MEANINGS,
} from '../../domain/invoice-status';

const STATUS_INTENTS: Readonly<Record<InvoiceStatusCode, Intent>> = {
  [InvoiceStatus.AVAILABLE]: 'none',
  [InvoiceStatus.PENDING]: 'warning',
  [InvoiceStatus.APPROVED]: 'primary',
  [InvoiceStatus.PROCESS]: 'warning',
  [InvoiceStatus.PAID]: 'success',
  [InvoiceStatus.FACTORING]: 'success',
  [InvoiceStatus.DISABLED]: 'danger',
  [InvoiceStatus.REJECTED]: 'danger',
};

export interface InvoiceStatusBadgeProps {
  status: InvoiceStatusCode;
  /** Labels per status; the provider's (spec §4) unless a corporate screen passes its own. */
  labels?: Readonly<Record<InvoiceStatusCode, string>>;
  /** Shown on hover and to assistive technology as the badge's description. */
  meanings?: Readonly<Record<InvoiceStatusCode, string>>;
}

/**
 * The status of an invoice as a coloured tag with the spec's label (§4). Blueprint's tag markup without its
 * component: `Tag` measures its text in a layout effect, a forced reflow and a second render per row in a list's
 * first commit (decision 0065, speed); a status label is short and never needs the measured ellipsis.
 */
export function InvoiceStatusBadge({
  status,
  labels = PROVIDER_STATUS_LABELS,
  meanings = PROVIDER_STATUS_MEANINGS,
}: InvoiceStatusBadgeProps) {
  const className = [Classes.TAG, Classes.intentClass(STATUS_INTENTS[status]), Classes.MINIMAL, Classes.ROUND]
    .filter(Boolean)
    .join(' ');
  return (
    <span className={className} title={meanings[status]} data-status={status}>
      <span className={`${Classes.FILL} ${Classes.TEXT_OVERFLOW_ELLIPSIS}`}>{labels[status]}</span>
    </span>
  );
}
