import type { Dispatch, SetStateAction } from 'react';
import type { InvoiceTrail } from './audit-trail-drawer';
import type { InvoiceListFilters } from './invoice-filters';
import type { InvoiceSelection } from './invoice-selection';
import type { InvoiceListProps } from './invoice-table';

/**
 * What an invoice list route hands its screen (src/routes/-invoice-list-route.ts): the filters kept in the URL,
 * the table's bounded pages, the selection and the audit trail. A screen adds its columns, actions and machines.
 */
export interface InvoiceListScreen {
  filters: InvoiceListFilters;
  onFiltersChange: (filters: InvoiceListFilters) => void;
  list: InvoiceListProps;
  selection: InvoiceSelection;
  onSelectionChange: Dispatch<SetStateAction<InvoiceSelection>>;
  /** The audit trail of the invoice opened with 'Historial'. */
  trail: InvoiceTrail;
}
