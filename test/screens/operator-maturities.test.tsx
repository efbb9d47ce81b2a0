import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MATURITY_MESSAGES, type MaturitiesReport } from '../../src/domain/schemas/maturities';
import { OperatorMaturitiesPage } from '../../src/views/operator/maturities/operator-maturities-page';

// /operacion/vencimientos/'s view: per day and buyer with the batch's reference, a USD invoice labelled with its
// rate, outstanding shown, and the list's loading, empty, error and refused-range states.

const RANGE = { desde: '2028-03-01', hasta: '2028-03-31' };
const sums = { advanced: '28800.00', collected: '3000.00', outstanding: '28900.00' };
const REPORT: MaturitiesReport = {
  ...RANGE,
  ...sums,
  days: [
    {
      due_on: '2028-03-06',
      ...sums,
      buyers: [
        {
          corporate_id: 7,
          corporate_name: 'Vencimientos Compradora SA de CV',
          corporate_rfc: 'VEN280301AB1',
          batch_id: 42,
          reference: '0000422',
          ...sums,
          invoices: [
            {
              invoice_id: 1,
              serie_folio: 'A-1',
              cfdi_uuid: 'C461383A-8FB0-4983-A05F-CF0C1384FAA3',
              supplier_name: 'Empaques del Bajío',
              supplier_rfc: 'EBA120815RTA',
              currency: 'USD',
              amount: '1160.00',
              exchange_rate: '17.5000',
              amount_mxn: '20300.00',
              advanced: '19000.00',
              collected: '0.00',
              outstanding: '20300.00',
            },
            {
              invoice_id: 2,
              serie_folio: 'A-2',
              cfdi_uuid: '94015613-0691-4C58-BDFB-BB297BB9DE05',
              supplier_name: 'Empaques del Bajío',
              supplier_rfc: 'EBA120815RTA',
              currency: 'MXN',
              amount: '11600.00',
              exchange_rate: null,
              amount_mxn: '11600.00',
              advanced: '9800.00',
              collected: '3000.00',
              outstanding: '8600.00',
            },
          ],
        },
      ],
    },
  ],
};

const loaded = { status: 'success' as const, data: REPORT, retry: () => {} };

describe('operator maturities page', () => {
  it('shows each day and buyer with its reference, a USD invoice converted and labelled, the outstanding', () => {
    render(<OperatorMaturitiesPage range={RANGE} report={loaded} refusedFilters={{}} onRange={() => {}} />);
    expect(screen.getByRole('heading', { level: 2, name: 'Vence el 06/03/2028' })).toBeTruthy();
    const batch = screen.getByRole('region', {
      name: 'Vencimientos Compradora SA de CV, vence el 06/03/2028',
    });
    expect(within(batch).getByText('0000422')).toBeTruthy();
    const table = within(batch).getByRole('table');
    expect(within(table).getByText('$20,300.00 MXN al tipo de cambio 17.5000')).toBeTruthy();
    expect(within(table).getByText(/\$1,160\.00 USD/)).toBeTruthy();
    const row = within(table).getByRole('row', { name: /A-2/ });
    expect(within(row).getByText('$8,600.00 MXN')).toBeTruthy();
    expect(within(row).getByText('$3,000.00 MXN')).toBeTruthy();
  });

  it('says when nothing falls due, and offers a retry when the list failed', async () => {
    const empty = { ...loaded, data: { ...REPORT, days: [] } };
    const { rerender } = render(
      <OperatorMaturitiesPage range={RANGE} report={empty} refusedFilters={{}} onRange={() => {}} />,
    );
    expect(screen.getByText('Sin vencimientos')).toBeTruthy();
    const retry = vi.fn();
    rerender(
      <OperatorMaturitiesPage
        range={RANGE}
        report={{ status: 'error', data: undefined, retry }}
        refusedFilters={{}}
        onRange={() => {}}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('No pudimos cargar los vencimientos');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(retry).toHaveBeenCalled();
  });

  it('shows a refused range at its field and sends the typed range', async () => {
    const onRange = vi.fn();
    render(
      <OperatorMaturitiesPage
        range={RANGE}
        report={loaded}
        refusedFilters={{ hasta: [MATURITY_MESSAGES.rangeTooLong] }}
        onRange={onRange}
      />,
    );
    expect(screen.getByText(MATURITY_MESSAGES.rangeTooLong)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Ver' }));
    expect(onRange).toHaveBeenCalledWith(RANGE);
  });
});
