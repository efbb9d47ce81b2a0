import { type Intent, Tag } from '@blueprintjs/core';
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

/** The status of an invoice as a coloured tag with the spec's label (§4). */
export function InvoiceStatusBadge({
  status,
  labels = PROVIDER_STATUS_LABELS,
  meanings = PROVIDER_STATUS_MEANINGS,
}: InvoiceStatusBadgeProps) {
  return (
    <Tag intent={STATUS_INTENTS[status]} minimal round title={meanings[status]} data-status={status}>
      {labels[status]}
    </Tag>
  );
}
