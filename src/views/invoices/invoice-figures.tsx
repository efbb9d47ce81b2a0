import { Classes } from '@blueprintjs/core';
import {
  formatInvoiceAmount,
  formatInvoiceMxnValue,
  type InvoiceSubject,
  isConverted,
} from '../../domain/invoice-money';

/** One labelled figure of a drawer ('Total a recibir': '$96,665.00 MXN'). */
export interface Figure {
  label: string;
  value: string;
}

/** What a drawer calls the peso value a figure of a foreign-currency invoice is computed on. */
export const MXN_VALUE_LABEL = 'Valor en pesos';

/**
 * The invoice a drawer acts on, named as people name it: its folio, its amount in its own currency and, for an
 * invoice not in pesos, the peso value the advance or the line works on, with the CFDI's rate (issue 33).
 */
export function invoiceFigures(invoice: InvoiceSubject): Figure[] {
  return [
    { label: 'Factura', value: invoice.serie_folio || invoice.fiscal_folio },
    { label: 'Monto de la factura', value: formatInvoiceAmount(invoice) },
    ...(isConverted(invoice) ? [{ label: MXN_VALUE_LABEL, value: formatInvoiceMxnValue(invoice) }] : []),
  ];
}

/** A drawer's figures as a definition list; each value carries data-figure={label} for tests and styles. */
export function Figures({ label, figures }: { label?: string; figures: readonly Figure[] }) {
  return (
    <dl className="flujo-quote-figures" aria-label={label}>
      {figures.map((figure) => (
        <div key={figure.label} style={{ display: 'contents' }}>
          <dt>{figure.label}</dt>
          <dd data-figure={figure.label}>{figure.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The invoice above a drawer's quote: folio, amount with its currency, peso value with the rate, then the UUID. */
export function InvoiceFigures({ invoice }: { invoice: InvoiceSubject }) {
  return (
    <div className="flujo-drawer-invoice">
      <Figures label="Factura" figures={invoiceFigures(invoice)} />
      {invoice.serie_folio && (
        <p className={`${Classes.TEXT_MUTED} flujo-drawer-invoice-uuid`}>
          Folio fiscal {invoice.fiscal_folio}
        </p>
      )}
    </div>
  );
}
