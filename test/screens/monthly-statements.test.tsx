import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import {
  MONTHLY_STATEMENTS_TITLE,
  monthLabel,
  monthlyStatementFileName,
  previousMonth,
} from '../../src/domain/monthly-statements';
import { paths } from '../../src/domain/paths';
import { renderApp, signInAs } from '../model/harness/render-app';
import { SERVER_WAIT } from '../support/server-wait';
import { fileSaveSpy } from './invoice-download.page';

// The statement page's 'Estados de cuenta mensuales' (decision 0071) against the real test server, whose demo
// world holds last month's statements of the demo companies.

describe('monthly statements on the statement page', () => {
  let files: ReturnType<typeof fileSaveSpy>;
  beforeEach(() => {
    files = fileSaveSpy();
  });
  afterEach(() => files.restore());

  it('lists last month and downloads its PDF and XLSX under the month’s name', async () => {
    await signInAs('proveedor.demo');
    const user = userEvent.setup();
    renderApp(paths.accountStatement);
    const month = previousMonth(businessDate(new Date()));
    const section = (
      await screen.findByRole('heading', { name: MONTHLY_STATEMENTS_TITLE }, SERVER_WAIT)
    ).closest('section') as HTMLElement;
    const row = (await within(section).findByText(monthLabel(month), {}, SERVER_WAIT)).closest(
      'tr',
    ) as HTMLElement;
    // The spec's texts stay: the page's title and the audit trail are still there.
    expect(screen.getByRole('heading', { name: 'Estado de cuenta', level: 1 })).toBeTruthy();
    await user.click(
      within(row).getByRole('button', { name: `Descargar ${monthlyStatementFileName(month, 'pdf')}` }),
    );
    await waitFor(
      () =>
        expect(
          within(section).getByText(`Se descargó ${monthlyStatementFileName(month, 'pdf')}.`),
        ).toBeTruthy(),
      SERVER_WAIT,
    );
    await user.click(
      within(row).getByRole('button', { name: `Descargar ${monthlyStatementFileName(month, 'xlsx')}` }),
    );
    await waitFor(() => expect(files.names).toHaveLength(2), SERVER_WAIT);
    expect(files.names).toEqual([
      monthlyStatementFileName(month, 'pdf'),
      monthlyStatementFileName(month, 'xlsx'),
    ]);
    const pdf = new Uint8Array(await (files.blobs[0] as Blob).arrayBuffer());
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');
  });
});
