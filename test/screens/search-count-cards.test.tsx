import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EXACT_COUNT_LIMIT, SUM_LEFT_OUT_TEXT } from '../../src/domain/list-count';
import { SummaryCards } from '../../src/views/corporate/invoice-summary-page';

// The corporate summary's cards for a search past the exact count (decision 0074): the count as 'más de 5,000'
// and the sums the list left out said to be so, never shown as zero.

const card = (name: string) =>
  screen.getByRole('heading', { name }).closest('.flujo-stat-card') as HTMLElement;

describe('the summary cards of a search', () => {
  it("show 'más de 5,000' and no sums when the count is a lower bound", () => {
    render(
      <SummaryCards
        state={{
          indicators: { count: EXACT_COUNT_LIMIT, count_is_estimate: true },
          isPending: false,
          isError: false,
        }}
      />,
    );
    expect(within(card('Facturas')).getByText('más de 5,000')).toBeTruthy();
    expect(within(card('Clientes')).getByText(SUM_LEFT_OUT_TEXT)).toBeTruthy();
    expect(within(card('Monto Total')).getByText(SUM_LEFT_OUT_TEXT)).toBeTruthy();
  });

  it('show an exact count with its sums', () => {
    render(
      <SummaryCards
        state={{
          indicators: {
            count: 4321,
            count_is_estimate: false,
            suppliers_customers: 7,
            total: '1000.00',
            total_usd: '0.00',
          },
          isPending: false,
          isError: false,
        }}
      />,
    );
    expect(within(card('Facturas')).getByText('4,321')).toBeTruthy();
    expect(within(card('Clientes')).getByText('7')).toBeTruthy();
    expect(within(card('Monto Total')).queryByText(SUM_LEFT_OUT_TEXT)).toBeNull();
  });
});
