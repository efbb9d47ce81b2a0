import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CORPORATE_MESSAGES } from '../../src/domain/corporate-file';
import { EXPOSURE_MESSAGES } from '../../src/domain/schemas/exposure';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from '../../src/stores/storage-keys';
import { setUser } from '../../src/stores/user.store';
import { operators, seededCorporate } from '../model/corporate-file-helpers';
import { gateEndpoint } from '../model/harness/msw-gate';
import { renderApp } from '../model/harness/render-app';
import { world } from '../model/harness/world';
import { SERVER_WAIT } from '../support/server-wait';

const PATH = '/operacion/corporativos/';
const LIST = '/api/operator/corporates/';

describe('corporates (page)', () => {
  beforeEach(async () => {
    const session = await world.operatorSession(['analista', 'aprobador']);
    localStorage.setItem(ACCESS_TOKEN_KEY, session.access);
    localStorage.setItem(REFRESH_TOKEN_KEY, session.refresh);
    setUser({ isAuthenticated: true, operatorRoles: ['analista', 'aprobador'] });
  });

  it('lists the corporates with their state, through the real server (the demo corporate is activo)', async () => {
    renderApp(PATH);
    const table = await screen.findByRole('table', { name: 'Corporativos' }, SERVER_WAIT);
    const row = within(table)
      .getByRole('button', { name: /Grupo Altamira Alimentos/ })
      .closest('tr') as HTMLElement;
    expect(within(row).getByText('GAA150312K78')).toBeTruthy();
    expect(within(row).getByText('Activo')).toBeTruthy();
  });

  it('says so when nothing matches the search, and offers a retry when the list fails', async () => {
    const user = userEvent.setup();
    renderApp(PATH);
    await user.type(
      await screen.findByLabelText('Buscar por RFC o nombre', {}, SERVER_WAIT),
      'no-existe-nadie',
    );
    await user.click(screen.getByRole('button', { name: 'Buscar' }));
    expect(
      await screen.findByText('Ningún corporativo coincide con la búsqueda', {}, SERVER_WAIT),
    ).toBeTruthy();

    const list = gateEndpoint('get', LIST);
    renderApp(PATH);
    // The app's queries retry once before they fail.
    await list.respond(500, { detail: 'Error interno' });
    await list.respond(500, { detail: 'Error interno' });
    const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
    expect(alert.textContent).toContain('No pudimos cargar los corporativos');
    await user.click(within(alert).getByRole('button', { name: 'Reintentar' }));
    await list.pass();
    expect(await screen.findByRole('table', { name: 'Corporativos' }, SERVER_WAIT)).toBeTruthy();
  });

  it("'Nuevo corporativo' checks the form with the request's struct, shows the server's field error, then opens the file", async () => {
    const user = userEvent.setup();
    const { router } = renderApp(PATH);
    await user.click(await screen.findByRole('button', { name: 'Nuevo corporativo' }, SERVER_WAIT));
    const dialog = await screen.findByRole('dialog', {}, SERVER_WAIT);
    await user.click(within(dialog).getByRole('button', { name: 'Crear y enviar invitación' }));
    await waitFor(
      () => expect(within(dialog).getAllByText('Este campo es obligatorio')).toHaveLength(5),
      SERVER_WAIT,
    );

    await user.type(within(dialog).getByLabelText('RFC'), 'NSC200110QA1');
    await user.type(within(dialog).getByLabelText('Razón social'), 'Nuevo Supermercado, S.A. de C.V.');
    await user.type(within(dialog).getByLabelText('Nombre del administrador'), 'Elena');
    await user.type(within(dialog).getByLabelText('Apellidos del administrador'), 'Vargas');
    // An address that already has an account: the server's words land on the field.
    await user.type(within(dialog).getByLabelText('Correo del administrador'), 'proveedor.demo@flujo.mx');
    await user.click(within(dialog).getByRole('button', { name: 'Crear y enviar invitación' }));
    expect(
      await within(dialog).findByText('Ya existe un usuario con este correo.', {}, SERVER_WAIT),
    ).toBeTruthy();

    const email = within(dialog).getByLabelText('Correo del administrador');
    await user.clear(email);
    await user.type(email, 'elena.vargas@supermercado.example.mx');
    await user.click(within(dialog).getByRole('button', { name: 'Crear y enviar invitación' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Nuevo Supermercado, S.A. de C.V.' }, SERVER_WAIT),
    ).toBeTruthy();
    expect(router.state.location.pathname).toMatch(/^\/operacion\/corporativos\/\d+\/$/);
    expect(screen.getByText('Borrador')).toBeTruthy();
    expect(screen.getByText('Invitación pendiente')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Activar corporativo' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(
      screen.getByText(/^Faltan documentos aprobados y vigentes: Constancia de situación fiscal/),
    ).toBeTruthy();
  });

  it("'Ver' opens a document's PDF in the page (its address in the URL), and closing it lets the PDF go", async () => {
    const { creator, session } = await operators();
    const id = await seededCorporate(creator.access, session.access, ['poderes']);
    const revoke = vi.spyOn(URL, 'revokeObjectURL');
    const user = userEvent.setup();
    const { router } = renderApp(`/operacion/corporativos/${id}/`);
    await user.click(await screen.findByRole('button', { name: 'Ver Poderes' }, SERVER_WAIT));
    const dialog = await screen.findByRole('dialog', { name: 'Poderes' }, SERVER_WAIT);
    const frame = (await within(dialog).findByTitle('Poderes', {}, SERVER_WAIT)) as HTMLIFrameElement;
    expect(frame.src).toMatch(/^blob:/);
    expect(router.state.location.search).toMatchObject({ documento: expect.any(Number) });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SERVER_WAIT);
    expect(router.state.location.search).toEqual({});
    await waitFor(() => expect(revoke).toHaveBeenCalledWith(frame.src), SERVER_WAIT);
    revoke.mockRestore();
  });

  it("sets the economic group on the file: the server's field error at the field, then the group and a notice", async () => {
    const { creator, session } = await operators();
    const id = await seededCorporate(creator.access, session.access, ['poderes']);
    const user = userEvent.setup();
    renderApp(`/operacion/corporativos/${id}/`);
    expect(await screen.findByText('Sin grupo', {}, SERVER_WAIT)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Asignar grupo económico' }));
    const dialog = await screen.findByRole('dialog', { name: 'Grupo económico' }, SERVER_WAIT);
    const field = within(dialog).getByRole('textbox', { name: 'Grupo económico' });
    await user.type(field, 'G'.repeat(121));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText(EXPOSURE_MESSAGES.groupTooLong, {}, SERVER_WAIT)).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');

    await user.clear(field);
    await user.type(field, 'Grupo Modelo Norte');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(
      await screen.findByText(
        'Grupo económico guardado; su exposición se suma con la del grupo.',
        {},
        SERVER_WAIT,
      ),
    ).toBeTruthy();
    expect(await screen.findByText('Grupo Modelo Norte', {}, SERVER_WAIT)).toBeTruthy();
    expect(screen.queryByText('Sin grupo')).toBeNull();
    expect(screen.getByRole('button', { name: 'Cambiar grupo económico' })).toBeTruthy();
  });

  it('promoting an existing provider asks first, naming it, and sends again once confirmed', async () => {
    // A provider of this file's own world (a demo provider promoted here would change other files' world).
    const { provider } = await world.outsiders();
    const user = userEvent.setup();
    const { router } = renderApp(PATH);
    await user.click(await screen.findByRole('button', { name: 'Nuevo corporativo' }, SERVER_WAIT));
    const dialog = await screen.findByRole('dialog', {}, SERVER_WAIT);
    await user.type(within(dialog).getByLabelText('RFC'), provider.rfc);
    await user.type(within(dialog).getByLabelText('Razón social'), 'Cualquiera, S.A.');
    await user.type(within(dialog).getByLabelText('Nombre del administrador'), 'Rosa');
    await user.type(within(dialog).getByLabelText('Apellidos del administrador'), 'Campos');
    await user.type(
      within(dialog).getByLabelText('Correo del administrador'),
      'rosa.campos@promovida.example.mx',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Crear y enviar invitación' }));

    const ask = await screen.findByRole('alertdialog', {}, SERVER_WAIT);
    expect(ask.textContent).toContain(CORPORATE_MESSAGES.confirmPromotion(provider.companyName));
    // Nothing was promoted before the answer.
    expect(router.state.location.pathname).toBe(PATH);
    await user.click(within(ask).getByRole('button', { name: 'Convertir en corporativo' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: provider.companyName }, SERVER_WAIT),
    ).toBeTruthy();
    expect(router.state.location.pathname).toMatch(/^\/operacion\/corporativos\/\d+\/$/);
    expect(screen.getByText('Borrador')).toBeTruthy();
  });
});
