import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { ALLIANCE_MESSAGES } from '../../src/domain/alliance-terms';
import type { OperatorRole } from '../../src/domain/operator-roles';
import { MESSAGES } from '../../src/domain/schemas/fields';
import type {
  AllianceInput,
  InboxPage as InboxPageBody,
  OperatorAlliance,
  OperatorAllianceDetail,
} from '../../src/domain/schemas/operator-alliances';
import { allianceActionsMachine } from '../../src/machines/alliance-actions.machine';
import type { BackOfficeActInput } from '../../src/machines/back-office-action';
import { ApiError } from '../../src/services/http';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from '../../src/stores/storage-keys';
import { setUser } from '../../src/stores/user.store';
import {
  ALLIANCES_EMPTY,
  ALLIANCES_FAILED,
  AlliancesPage,
  type AlliancesPageProps,
} from '../../src/views/operator/alliances/alliances-page';
import { INBOX_EMPTY, INBOX_FAILED, InboxPage } from '../../src/views/operator/inbox/inbox-page';
import { renderApp } from '../model/harness/render-app';
import { world } from '../model/harness/world';
import { SERVER_WAIT } from '../support/server-wait';

// The views of /operacion/alianzas/ and /operacion/bandeja/ with their data given: states, the form's checks
// (the same struct as the server's), keyboard use. The calls themselves are test/api/operator-alliances.test.ts.

const ACTIVE: OperatorAlliance = {
  id: 7,
  corporate_id: 1,
  corporate_name: 'Grupo Altamira Alimentos',
  provider_id: 2,
  provider_rfc: 'EBA120815RTA',
  provider_name: 'Empaques del Bajío',
  annual_rate: '15.00',
  max_rate: '17.4000',
  max_days: 90,
  max_amount: '250000.00',
  state: 'activa',
  created_at: '2026-03-10T18:00:00.000Z',
  provider_efos: { list_imported_at: null, situation: null },
};
const PENDING: OperatorAlliance = {
  ...ACTIVE,
  id: 8,
  provider_id: null,
  provider_rfc: 'PEN200301XY2',
  provider_name: null,
  annual_rate: '12.35',
  max_rate: '14.3260',
  max_amount: null,
  state: 'pendiente',
};
const DETAIL: OperatorAllianceDetail = {
  ...ACTIVE,
  prices: [
    {
      annual_rate: '20.00',
      max_rate: '23.2000',
      max_days: 90,
      max_amount: null,
      effective_from: '2026-03-11T18:00:00.000Z',
      set_by: 'op.analista',
    },
    {
      annual_rate: '15.00',
      max_rate: '17.4000',
      max_days: 90,
      max_amount: null,
      effective_from: '2026-03-10T18:00:00.000Z',
      set_by: 'op.analista',
    },
  ],
};

type PageProps = Omit<AlliancesPageProps, 'actions'>;
/** The save the page's `alliance-actions` machine makes (the route's call): resolves, or throws an ApiError. */
type Save = (input: AllianceInput) => Promise<unknown>;

function props(overrides: Partial<PageProps> = {}): PageProps {
  return {
    list: {
      status: 'success',
      data: { count: 2, next: null, previous: null, results: [ACTIVE, PENDING] },
      retry: vi.fn(),
    },
    filters: { status: undefined, corporate: undefined, page: 1 },
    onFiltersChange: vi.fn(),
    corporates: {
      status: 'success',
      data: [{ id: 1, rfc: 'GAA150312K78', name: 'Grupo Altamira Alimentos' }],
      retry: vi.fn(),
    },
    history: {
      openId: null,
      detail: { status: 'pending', data: undefined, retry: vi.fn() },
      onOpen: vi.fn(),
      onClose: vi.fn(),
    },
    ...overrides,
  };
}

const saved: Save = async () => null;

/** The view with the machine the route runs, its call replaced by `onSave`. */
function Page({ onSave = saved, ...overrides }: Partial<PageProps> & { onSave?: Save }) {
  const machine = useMemo(
    () =>
      allianceActionsMachine.provide({
        actors: {
          act: fromPromise<string | null, BackOfficeActInput>(async ({ input }) => {
            await onSave(input.intent.input as AllianceInput);
            return null;
          }),
        },
      }),
    [onSave],
  );
  const [snapshot, send] = useMachine(machine);
  return <AlliancesPage {...props(overrides)} actions={{ snapshot, send }} />;
}

describe('operator alliances (view)', () => {
  it('shows each alliance with its rate, its rate + IVA and its state', () => {
    render(<Page />);
    const rows = screen.getAllByRole('row');
    expect(rows).toHaveLength(3);
    const active = within(rows[1] as HTMLElement);
    expect(active.getByText('15.00 %')).toBeTruthy();
    expect(active.getByText('17.40 %')).toBeTruthy();
    expect(active.getByText('Activa')).toBeTruthy();
    const pending = within(rows[2] as HTMLElement);
    expect(pending.getByText('Aún no está en Flujo')).toBeTruthy();
    expect(pending.getByText('14.33 %')).toBeTruthy();
    expect(pending.getByText('Pendiente')).toBeTruthy();
    expect(pending.getByText('Sin tope')).toBeTruthy();
  });

  it('filters by state and corporate, back to the first page', async () => {
    const onFiltersChange = vi.fn();
    render(
      <Page
        onFiltersChange={onFiltersChange}
        filters={{ status: undefined, corporate: undefined, page: 2 }}
      />,
    );
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Estado'), 'pendiente');
    expect(onFiltersChange).toHaveBeenLastCalledWith({ status: 'pendiente', corporate: undefined, page: 1 });
    await user.selectOptions(screen.getByLabelText('Corporativo'), '1');
    expect(onFiltersChange).toHaveBeenLastCalledWith({ status: undefined, corporate: 1, page: 1 });
  });

  it('has loading, empty and error states; the error retries', async () => {
    const { rerender } = render(<Page list={{ status: 'pending', data: undefined, retry: vi.fn() }} />);
    expect(screen.getByLabelText('Cargando alianzas…')).toBeTruthy();
    rerender(
      <Page
        list={{
          status: 'success',
          data: { count: 0, next: null, previous: null, results: [] },
          retry: vi.fn(),
        }}
      />,
    );
    expect(screen.getByText(ALLIANCES_EMPTY)).toBeTruthy();
    const onRetry = vi.fn();
    rerender(<Page list={{ status: 'error', data: undefined, retry: onRetry }} />);
    expect(screen.getByRole('alert').textContent).toContain(ALLIANCES_FAILED);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it("opens 'Nueva alianza' by keyboard, checks the fields in Spanish and sends the typed terms", async () => {
    const user = userEvent.setup();
    const onSave = vi.fn(async (_input: AllianceInput): Promise<unknown> => null);
    render(<Page onSave={onSave} />);
    screen.getByRole('button', { name: 'Nueva alianza' }).focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog');
    await user.clear(within(dialog).getByLabelText(/Días máximos/));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar alianza' }));
    expect(await within(dialog).findByText(ALLIANCE_MESSAGES.corporateRequired)).toBeTruthy();
    expect(within(dialog).getByText(MESSAGES.required)).toBeTruthy();
    expect(within(dialog).getByText(ALLIANCE_MESSAGES.daysRange)).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();

    await user.selectOptions(within(dialog).getByLabelText('Corporativo'), '1');
    await user.type(within(dialog).getByLabelText(/RFC del proveedor/), 'eba120815rta');
    await user.type(within(dialog).getByLabelText(/Tasa anual/), '15');
    expect(within(dialog).getByText('Tasa + IVA: 17.40 %')).toBeTruthy();
    await user.type(within(dialog).getByLabelText(/Días máximos/), '60');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar alianza' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledOnce());
    // As typed: the server's struct trims and upper-cases the RFC (the resolver only checks).
    expect(onSave.mock.calls[0]?.[0]).toMatchObject({
      corporate_id: 1,
      provider_rfc: 'eba120815rta',
      annual_rate: '15',
      max_days: 60,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("shows the server's message under its field", async () => {
    const user = userEvent.setup();
    const onSave = vi.fn(async (): Promise<unknown> => {
      throw new ApiError(400, { corporate_id: [ALLIANCE_MESSAGES.notCorporate] });
    });
    render(<Page onSave={onSave} />);
    await user.click(
      screen.getByRole('button', { name: 'Cambiar precio de EBA120815RTA con Grupo Altamira Alimentos' }),
    );
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText(/Tasa anual/) as HTMLInputElement).value).toBe('15.00');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar alianza' }));
    expect(await within(dialog).findByText(ALLIANCE_MESSAGES.notCorporate)).toBeTruthy();
  });

  it('lists the price history newest first', () => {
    render(
      <Page
        history={{
          openId: 7,
          detail: { status: 'success', data: DETAIL, retry: vi.fn() },
          onOpen: vi.fn(),
          onClose: vi.fn(),
        }}
      />,
    );
    const table = screen.getByRole('table', { name: 'Precios' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1] as HTMLElement).getByText('20.00 %')).toBeTruthy();
    expect(within(rows[2] as HTMLElement).getByText('15.00 %')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText('op.analista')).toBeTruthy();
  });
});

describe('operator inbox (view)', () => {
  const PAGE: InboxPageBody = {
    count: 1,
    next: null,
    previous: null,
    results: [
      {
        id: 3,
        kind: 'alliance',
        from_name: 'Ana Compras',
        from_company: 'Empaques del Bajío',
        subject: 'Alianza con Grupo Altamira (RFC GAA150312K78)',
        contact_email: 'ana@example.mx',
        contact_phone: '5512345678',
        status: 'allied',
        created_at: '2026-03-10T18:00:00.000Z',
      },
    ],
  };

  it('shows one tab per kind; a tab change asks for its first page', async () => {
    const onChange = vi.fn();
    render(
      <InboxPage
        kind="alliance"
        page={1}
        onChange={onChange}
        list={{ status: 'success', data: PAGE, retry: vi.fn() }}
      />,
    );
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Solicitudes de demo',
      'Clientes referidos',
      'Alta en factoraje',
      'Solicitudes de alianza',
      'Lista 69-B del SAT',
      'CFDI en conflicto',
    ]);
    expect(screen.getByText('Aliada')).toBeTruthy();
    // Mexico City's time, whatever the browser's zone (as the bitácora): 18:00 UTC is 12:00 there.
    expect(screen.getByText('10/03/2026 12:00')).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Clientes referidos' }));
    expect(onChange).toHaveBeenCalledWith({ kind: 'referral', page: 1 });
  });

  it('has loading, empty and error states', () => {
    const { rerender } = render(
      <InboxPage
        kind="demo"
        page={1}
        onChange={vi.fn()}
        list={{ status: 'pending', data: undefined, retry: vi.fn() }}
      />,
    );
    expect(screen.getByLabelText('Cargando bandeja…')).toBeTruthy();
    rerender(
      <InboxPage
        kind="demo"
        page={1}
        onChange={vi.fn()}
        list={{
          status: 'success',
          data: { count: 0, next: null, previous: null, results: [] },
          retry: vi.fn(),
        }}
      />,
    );
    expect(screen.getByText(INBOX_EMPTY.demo)).toBeTruthy();
    rerender(
      <InboxPage
        kind="demo"
        page={1}
        onChange={vi.fn()}
        list={{ status: 'error', data: undefined, retry: vi.fn() }}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain(INBOX_FAILED);
  });
});

describe('operator alliances and inbox (pages, through the real server)', () => {
  async function signInOperator(roles: readonly OperatorRole[]) {
    const session = await world.operatorSession(roles);
    localStorage.setItem(ACCESS_TOKEN_KEY, session.access);
    localStorage.setItem(REFRESH_TOKEN_KEY, session.refresh);
    setUser({ isAuthenticated: true, operatorRoles: [...roles] });
    return session;
  }

  it('lists the alliances with their tasa + IVA and opens a price history by keyboard', async () => {
    await signInOperator(['auditor']);
    const user = userEvent.setup();
    renderApp('/operacion/alianzas/');
    const table = await screen.findByRole('table', { name: 'Alianzas' }, SERVER_WAIT);
    // The demo world's first alliance: 17.40 % with IVA, i.e. 15.00 % before it (made before operators priced).
    const row = within(table)
      .getAllByRole('row')
      .find((candidate) => candidate.textContent?.includes(DEMO_PROVIDERS[0].rfc));
    expect(row?.textContent).toContain('17.40 %');
    const history = within(row as HTMLElement).getByRole('button', { name: /Historial de precios/ });
    history.focus();
    await user.keyboard('{Enter}');
    expect(
      await screen.findByText('Esta alianza aún no tiene precios fijados por operaciones.', {}, SERVER_WAIT),
    ).toBeTruthy();
  });

  it('shows the inbox tab by tab', async () => {
    await signInOperator(['analista']);
    const user = userEvent.setup();
    renderApp('/operacion/bandeja/?tipo=alliance');
    expect(
      await screen.findByRole('tab', { name: 'Solicitudes de alianza', selected: true }, SERVER_WAIT),
    ).toBeTruthy();
    await screen.findByText(/Alianza con|No hay solicitudes de alianza/, {}, SERVER_WAIT);
    await user.click(screen.getByRole('tab', { name: 'Solicitudes de demo' }));
    await screen.findByText(/Solicitud de demo|No hay solicitudes de demo/, {}, SERVER_WAIT);
  });
});
