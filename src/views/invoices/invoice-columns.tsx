import { Button } from '@blueprintjs/core';
import { Duplicate, Tick } from '@blueprintjs/icons';
import { type ReactNode, useEffect, useState } from 'react';
import { formatInvoiceAmount } from '../../domain/invoice-money';
import { CORPORATE_STATUS_MEANINGS } from '../../domain/invoice-status';
import type { Invoice } from '../../domain/schemas/invoices';
import { LazyTooltip } from '../common/lazy-tooltip';
import { formatDisplayDate } from './invoice-format';
import { InvoiceStatusBadge } from './invoice-status-badge';

// The invoice table's columns as data (decision 0018): each list screen declares its own from these pieces, so
// the provider and corporate lists differ in configuration, not in copied table code.

/** One column of the invoice table. */
export interface InvoiceColumn {
  /** Stable key; also the cell's class `flujo-col-<id>`. */
  id: string;
  /** The header, and the label of the value when a row reads as a card (below 1024 px). */
  header: string;
  cell: (invoice: Invoice) => ReactNode;
  /** Width in the full table (a CSS length); without one the column shares the room the others leave. */
  width?: string;
  /**
   * 'secondary' columns step aside between 1024 and 1279 px, where the sidebar leaves the table too little
   * room; at 1280 px and wider every column shows, and a card (below 1024 px) shows them all.
   */
  priority?: 'primary' | 'secondary';
  /** Extra class of the column's cells (alignment, say). */
  className?: string;
}

/** Spec §8: what the copy button says once the folio fiscal is on the clipboard. */
export const COPIED_TEXT = 'Copiado!';
export const COPY_FOLIO_TEXT = 'Copiar folio fiscal';
/** How long 'Copiado!' stays up. */
export const COPIED_VISIBLE_MS = 2000;
/** Without serie and folio the row shows the start of the folio fiscal (a UUID): enough to tell rows apart. */
export const SHORT_UUID_LENGTH = 8;

/** 'A-1234', or the first characters of the folio fiscal when the CFDI has no folio. */
export function shownFolio(invoice: Pick<Invoice, 'fiscal_folio' | 'serie_folio'>): string {
  return invoice.serie_folio || invoice.fiscal_folio.slice(0, SHORT_UUID_LENGTH);
}

/**
 * Text cut with an ellipsis to its column; the whole text shows on hover and on keyboard focus (the text is
 * focusable for that), never only to mouse users.
 */
export function TruncatedText({ text }: { text: string }) {
  return (
    <LazyTooltip
      content={text}
      placement="top"
      className="flujo-truncate-target"
      hoverOpenDelay={300}
      target={
        // biome-ignore lint/a11y/noNoninteractiveTabindex: focus is how a keyboard user reads the cut text.
        <span className="flujo-truncate" tabIndex={0}>
          {text}
        </span>
      }
    />
  );
}

/** Serie-folio with the folio fiscal (UUID) on hover or focus, and a button that copies the UUID (spec §8). */
export function FolioCell({ invoice }: { invoice: Invoice }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = () =>
    navigator.clipboard?.writeText(invoice.fiscal_folio).then(
      () => setCopied(true),
      // A refused clipboard (permission, insecure page) leaves the button as it was: nothing was copied.
      () => setCopied(false),
    );
  return (
    <span className="flujo-folio">
      <LazyTooltip
        content={invoice.fiscal_folio}
        placement="top"
        className="flujo-truncate-target"
        target={
          // biome-ignore lint/a11y/noNoninteractiveTabindex: focus shows the full folio fiscal to keyboard users.
          <span className="flujo-truncate flujo-folio-text" tabIndex={0}>
            {shownFolio(invoice)}
          </span>
        }
      />
      <Button
        variant="minimal"
        size="small"
        icon={copied ? <Tick /> : <Duplicate />}
        aria-label={`${COPY_FOLIO_TEXT} ${invoice.fiscal_folio}`}
        onClick={() => void copy()}
      />
      {/* Drawn like a tooltip above the button (invoices.css), without a Popover per row: only one ever shows. */}
      <span role="status" className={copied ? 'flujo-copied' : 'flujo-visually-hidden'}>
        {copied ? COPIED_TEXT : ''}
      </span>
    </span>
  );
}

/** The folio column: serie-folio, the UUID on hover, the copy button. */
export const folioColumn: InvoiceColumn = {
  id: 'folio',
  header: 'Folio',
  cell: (invoice) => <FolioCell invoice={invoice} />,
  width: '6.75rem',
};

/** A text column cut to its width with the whole text on hover and focus (client names, descriptions). */
export function textColumn(
  id: string,
  header: string,
  read: (invoice: Invoice) => string,
  options: Pick<InvoiceColumn, 'width' | 'priority'> = {},
): InvoiceColumn {
  return { id, header, cell: (invoice) => <TruncatedText text={read(invoice)} />, ...options };
}

/** A DD/MM/YYYY date column (spec §9). */
export function dateColumn(
  id: string,
  header: string,
  read: (invoice: Invoice) => string | null,
  priority: InvoiceColumn['priority'] = 'primary',
): InvoiceColumn {
  return { id, header, cell: (invoice) => formatDisplayDate(read(invoice)), width: '6.5rem', priority };
}

export const rfcColumn: InvoiceColumn = {
  id: 'rfc',
  header: 'RFC',
  cell: (invoice) => invoice.receiver_rfc,
  width: '8.25rem',
  priority: 'secondary',
};

/** The invoice's amount in its own currency, with the code: '$6,090.00 USD' (issue 33). */
export const amountColumn: InvoiceColumn = {
  id: 'amount',
  header: 'Monto',
  cell: (invoice) => formatInvoiceAmount(invoice),
  // Room for '$99,999,999.99 MXN': a buyer's invoice in the millions kept its currency cut off at 8.5rem.
  width: '9.75rem',
  className: 'flujo-cell-amount',
};

/** The provider's status badge (spec §4); a corporate list passes its own labels to InvoiceStatusBadge. */
export const providerStatusColumn: InvoiceColumn = {
  id: 'status',
  header: 'Estatus',
  cell: (invoice) => <InvoiceStatusBadge status={invoice.status} />,
  width: '7rem',
};

/** Spec §2 provider lists: folio, RFC, client, issue date, amount, description, status. */
export const PROVIDER_INVOICE_COLUMNS: readonly InvoiceColumn[] = [
  folioColumn,
  rfcColumn,
  textColumn('client', 'Cliente', (invoice) => invoice.receiver_name),
  dateColumn('emission', 'Fecha de emisión', (invoice) => invoice.date_of_emission, 'secondary'),
  amountColumn,
  textColumn('description', 'Descripción', (invoice) => invoice.description, { priority: 'secondary' }),
  providerStatusColumn,
];

/**
 * Spec §2 corporate summary: the status with the buyer-side explanation on hover and on keyboard focus (the
 * badge is focusable for that), never only to mouse users.
 */
export const corporateStatusColumn: InvoiceColumn = {
  id: 'status',
  header: 'Estado',
  cell: (invoice) => (
    <LazyTooltip
      content={CORPORATE_STATUS_MEANINGS[invoice.status]}
      placement="top"
      className="flujo-truncate-target"
      target={
        // biome-ignore lint/a11y/noNoninteractiveTabindex: focus is how a keyboard user reads the explanation.
        <span className="flujo-status-explained" tabIndex={0}>
          <InvoiceStatusBadge status={invoice.status} meanings={CORPORATE_STATUS_MEANINGS} />
        </span>
      }
    />
  ),
  width: '7.5rem',
};

/** The supplier's RFC: on the buyer's lists the other party is the emitter. */
export const emitterRfcColumn: InvoiceColumn = {
  ...rfcColumn,
  cell: (invoice) => invoice.emitter_rfc,
};

/**
 * Spec §2 /resumen-de-facturas/: Estado, Folio, RFC, Cliente, Fecha de emisión, Fecha de pago, Monto,
 * Descripción; RFC and Cliente name the supplier that issued the invoice.
 */
export const CORPORATE_SUMMARY_COLUMNS: readonly InvoiceColumn[] = [
  corporateStatusColumn,
  folioColumn,
  emitterRfcColumn,
  textColumn('client', 'Cliente', (invoice) => invoice.emitter_name),
  dateColumn('emission', 'Fecha de emisión', (invoice) => invoice.date_of_emission, 'secondary'),
  dateColumn('payment', 'Fecha de pago', (invoice) => invoice.payment_date, 'secondary'),
  amountColumn,
  textColumn('description', 'Descripción', (invoice) => invoice.description, { priority: 'secondary' }),
];
