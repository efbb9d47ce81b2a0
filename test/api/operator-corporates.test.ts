// @postgresql: two onboardings of one RFC at once: the unique constraint decides across connections; corporate
// access follows the onboarding state, read per request (decision 0058).
import type { LightMyRequestResponse } from 'fastify';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PROVIDERS } from '../../server/seed/demo-world';
import {
  CORPORATE_DOCUMENT_KINDS,
  CORPORATE_MESSAGES,
  type CorporateDocumentKind,
} from '../../src/domain/corporate-file';
import { SatStatus } from '../../src/domain/sat-status';
import { bearer, loginAs } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { createOperatorSession } from '../support/operator';
import { addCompanyWithUser } from '../support/pronto-pago';

const BASE = '/api/operator/corporates/';
const VALID_CLABE = '002010077777777771';
const NOT_A_CLABE = '002010077777777770';
const INVITE_PASSWORD = 'Brújula-Nopal-2026!';

type OperatorSession = Awaited<ReturnType<typeof createOperatorSession>>;

let rfcSequence = 0;
/** A fresh RFC of a company (format and date valid; the check digit is only a warning). */
function freshRfc(): string {
  rfcSequence += 1;
  const letters = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
  const a = letters[rfcSequence % letters.length];
  const b = letters[Math.floor(rfcSequence / letters.length) % letters.length];
  return `NC${a}2001${String(10 + (rfcSequence % 18)).padStart(2, '0')}${b}${a}1`;
}

async function smallPdf(text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([200, 100]);
  page.drawText(text, { x: 10, y: 50, size: 10 });
  return doc.save();
}

describe('operator corporates (/api/operator/corporates/)', () => {
  let ctx: ApiTestContext;
  let analista: OperatorSession;
  let aprobador: OperatorSession;
  let auditor: OperatorSession;
  let pdf: Uint8Array;

  beforeAll(async () => {
    ctx = await createApiApp();
    analista = await createOperatorSession(ctx, { roles: ['analista'] });
    aprobador = await createOperatorSession(ctx, { roles: ['aprobador'] });
    auditor = await createOperatorSession(ctx, { roles: ['auditor'] });
    pdf = await smallPdf('Acta constitutiva');
  });
  afterAll(() => ctx.close());

  const post = (url: string, session: OperatorSession, payload?: object) =>
    ctx.app.inject({ method: 'POST', url, headers: bearer(session.access), ...(payload ? { payload } : {}) });
  const get = (url: string, session: OperatorSession) =>
    ctx.app.inject({ method: 'GET', url, headers: bearer(session.access) });

  function upload(
    corporateId: number,
    session: OperatorSession,
    file: { name: string; type: string; data: Uint8Array } | null,
    fields: Record<string, string>,
  ): Promise<LightMyRequestResponse> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    if (file) form.append('file', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
    return ctx.app.inject({
      method: 'POST',
      url: `${BASE}${corporateId}/documents/`,
      payload: form,
      headers: bearer(session.access),
    });
  }
  const uploadPdf = (corporateId: number, kind: CorporateDocumentKind) =>
    upload(
      corporateId,
      analista,
      { name: `${kind}.pdf`, type: 'application/pdf', data: pdf },
      {
        kind,
        ...(kind === 'estado_cuenta' ? { clabe: VALID_CLABE } : {}),
      },
    );

  async function newCorporate(overrides: Record<string, unknown> = {}) {
    const rfc = freshRfc();
    const res = await post(BASE, analista, {
      rfc,
      name: `Corporativo ${rfc}, S.A. de C.V.`,
      admin: { name: 'Renata', last_name: 'Olvera', email: `renata.${rfc.toLowerCase()}@corp.example.mx` },
      ...overrides,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: number; rfc: string; state: string; promoted: boolean; admin_user_id: number }>();
  }

  const detail = async (id: number) => {
    const res = await get(`${BASE}${id}/`, auditor);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{
      state: string;
      sat_status: number;
      admins: { email: string; has_password: boolean }[];
      documents: {
        id: number;
        kind: string;
        status: string;
        sha256: string;
        size_bytes: number;
        uploaded_by: string;
        reviewed_by: string | null;
        clabe: string | null;
      }[];
      missing_kinds: string[];
      programme: unknown;
    }>();
  };

  const latestMail = () =>
    ctx.database.db.selectFrom('mail_outbox').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();

  describe('POST corporates/', () => {
    it('creates a corporate in borrador and mails its admin a 72-hour link that the reset call accepts', async () => {
      const created = await newCorporate();
      expect(created).toMatchObject({ state: 'borrador', promoted: false });

      const mail = await latestMail();
      expect(mail.recipient).toBe(`renata.${created.rfc.toLowerCase()}@corp.example.mx`);
      expect(mail.body_text).toContain('vence en 72 horas');
      const link = new URL(/http\S+/.exec(mail.body_text)?.[0] ?? '');
      const token = link.searchParams.get('token') ?? '';

      const stored = await ctx.database.db
        .selectFrom('password_reset_tokens')
        .select(['expires_at', 'created_at'])
        .where('user_id', '=', created.admin_user_id)
        .executeTakeFirstOrThrow();
      const hours =
        (new Date(stored.expires_at).getTime() - new Date(stored.created_at).getTime()) / 3_600_000;
      expect(Math.round(hours)).toBe(72);

      // The unusable password lets nobody in before the link is used.
      const before = await loginAs(
        ctx.app,
        `renata.${created.rfc.toLowerCase()}@corp.example.mx`,
        INVITE_PASSWORD,
      );
      expect(before.statusCode).toBe(401);

      const reset = await ctx.app.inject({
        method: 'POST',
        url: '/api/users/reset-password/',
        payload: { token, new_password: INVITE_PASSWORD },
      });
      expect(reset.statusCode, reset.body).toBe(200);
      const after = await loginAs(
        ctx.app,
        `renata.${created.rfc.toLowerCase()}@corp.example.mx`,
        INVITE_PASSWORD,
      );
      expect(after.statusCode, after.body).toBe(200);
      expect((await detail(created.id)).admins[0]?.has_password).toBe(true);
    });

    it('promotes an existing provider: SAT link and invoices stay, its admin is invited', async () => {
      const provider = DEMO_PROVIDERS[2];
      const company = await ctx.database.db
        .selectFrom('companies')
        .select(['id', 'sat_status'])
        .where('rfc', '=', provider.rfc)
        .executeTakeFirstOrThrow();
      const invoicesBefore = await ctx.database.db
        .selectFrom('invoices')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('emitter_company_id', '=', company.id)
        .executeTakeFirstOrThrow();
      const body = {
        rfc: provider.rfc.toLowerCase(),
        name: 'Otro nombre que no cuenta',
        admin: { name: 'Tomás', last_name: 'Ibarra', email: 'tomas.ibarra@sierra.example.mx' },
      };
      // Without the confirmation: 409 naming the provider, and nothing changes.
      const unconfirmed = await post(BASE, analista, body);
      expect(unconfirmed.statusCode).toBe(409);
      expect(unconfirmed.json()).toEqual({
        confirm_promotion: [CORPORATE_MESSAGES.confirmPromotion(provider.name)],
      });
      const untouched = await ctx.database.db
        .selectFrom('companies')
        .select('is_corporate')
        .where('id', '=', company.id)
        .executeTakeFirstOrThrow();
      expect(untouched.is_corporate).toBe(false);

      const res = await post(BASE, analista, { ...body, confirm_promotion: true });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        id: company.id,
        promoted: true,
        state: 'borrador',
        name: provider.name,
      });
      const after = await ctx.database.db
        .selectFrom('companies')
        .select(['is_corporate', 'sat_status'])
        .where('id', '=', company.id)
        .executeTakeFirstOrThrow();
      expect(after).toEqual({ is_corporate: true, sat_status: company.sat_status });
      const invoicesAfter = await ctx.database.db
        .selectFrom('invoices')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('emitter_company_id', '=', company.id)
        .executeTakeFirstOrThrow();
      expect(invoicesAfter.n).toBe(invoicesBefore.n);
      expect((await latestMail()).recipient).toBe('tomas.ibarra@sierra.example.mx');

      // Promoted once: a second time it is a corporate already.
      const again = await post(BASE, analista, {
        confirm_promotion: true,
        rfc: provider.rfc,
        name: 'x',
        admin: { name: 'Otra', last_name: 'Persona', email: 'otra.persona@sierra.example.mx' },
      });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ detail: 'Esta empresa ya es un corporativo en Flujo.' });
    });

    it('two onboardings of the same new RFC at once: one corporate, the other a 409', async () => {
      const rfc = freshRfc();
      const body = (email: string) => ({
        rfc,
        name: 'Gemelos, S.A.',
        admin: { name: 'A', last_name: 'B', email },
      });
      const answers = await Promise.all([
        post(BASE, analista, body(`uno.${rfc.toLowerCase()}@x.example.mx`)),
        post(BASE, analista, body(`dos.${rfc.toLowerCase()}@x.example.mx`)),
      ]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
      const companies = await ctx.database.db
        .selectFrom('companies')
        .select('id')
        .where('rfc', '=', rfc)
        .execute();
      expect(companies).toHaveLength(1);
    });

    it('answers Spanish per-field 400s', async () => {
      const res = await post(BASE, analista, {
        rfc: 'XAXX010101000',
        name: ' ',
        admin: { email: 'no-es-correo' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        rfc: ['El RFC genérico no es válido para una empresa'],
        name: ['Este campo es obligatorio'],
        'admin.name': ['Este campo es obligatorio'],
        'admin.last_name': ['Este campo es obligatorio'],
        'admin.email': ['Debe ser un correo valido'],
      });
      const taken = await post(BASE, analista, {
        rfc: freshRfc(),
        name: 'Duplicado, S.A.',
        admin: { name: 'Lucía', last_name: 'X', email: 'proveedor.demo@flujo.mx' },
      });
      expect(taken.statusCode).toBe(400);
      expect(taken.json()).toEqual({ 'admin.email': ['Ya existe un usuario con este correo.'] });
    });

    it('lists corporates as a DRF page with search; existing corporates count as activo', async () => {
      const created = await newCorporate();
      const page = await get(`${BASE}?search=${created.rfc}`, auditor);
      expect(page.statusCode).toBe(200);
      expect(page.json()).toEqual({
        count: 1,
        next: null,
        previous: null,
        results: [
          {
            id: created.id,
            rfc: created.rfc,
            name: `Corporativo ${created.rfc}, S.A. de C.V.`,
            state: 'borrador',
          },
        ],
      });
      const demo = await get(`${BASE}?search=Altamira`, auditor);
      expect(demo.json().results).toEqual([expect.objectContaining({ state: 'activo' })]);
      const bad = await get(`${BASE}?state=otro&page=0`, auditor);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ state: ['Valor no válido'], page: ['Valor no válido'] });
    });
  });

  describe('the file', () => {
    it('stores a PDF with its hash, size and uploader; refuses a non-PDF named .pdf and an oversized file', async () => {
      const { id } = await newCorporate();
      const ok = await uploadPdf(id, 'acta_constitutiva');
      expect(ok.statusCode, ok.body).toBe(201);
      const [doc] = (await detail(id)).documents;
      expect(doc).toMatchObject({
        kind: 'acta_constitutiva',
        status: 'pendiente',
        size_bytes: pdf.length,
        uploaded_by: analista.username,
        reviewed_by: null,
      });
      expect(doc?.sha256).toMatch(/^[0-9a-f]{64}$/);

      const file = await get(`${BASE}${id}/documents/${doc?.id}/file/`, auditor);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('application/pdf');
      expect(new Uint8Array(file.rawPayload)).toEqual(pdf);

      const fake = await upload(
        id,
        analista,
        {
          name: 'poderes.pdf',
          type: 'application/pdf',
          data: new TextEncoder().encode('PK\u0003\u0004 this is a zip'),
        },
        { kind: 'poderes' },
      );
      expect(fake.statusCode).toBe(415);
      expect(fake.json()).toEqual({ detail: 'El documento debe ser un PDF.' });

      const big = new Uint8Array(10 * 1024 * 1024 + 1);
      big.set(new TextEncoder().encode('%PDF-1.4\n'));
      const huge = await upload(
        id,
        analista,
        { name: 'poderes.pdf', type: 'application/pdf', data: big },
        { kind: 'poderes' },
      );
      expect(huge.statusCode).toBe(413);

      const noKind = await upload(
        id,
        analista,
        { name: 'x.pdf', type: 'application/pdf', data: pdf },
        { kind: 'otro' },
      );
      expect(noKind.statusCode).toBe(400);
      expect(noKind.json()).toEqual({ kind: ['Elige uno de los ocho documentos del expediente.'] });

      const badClabe = await upload(
        id,
        analista,
        { name: 'x.pdf', type: 'application/pdf', data: pdf },
        {
          kind: 'estado_cuenta',
          clabe: NOT_A_CLABE,
        },
      );
      expect(badClabe.statusCode).toBe(400);
      expect(badClabe.json()).toEqual({ clabe: ['El dígito verificador de la CLABE no es válido'] });

      const missing = await get(`${BASE}999999/`, auditor);
      expect(missing.statusCode).toBe(404);
    });

    it('a new upload replaces the kind and puts it back to pendiente', async () => {
      const { id } = await newCorporate();
      await uploadPdf(id, 'poderes');
      const [first] = (await detail(id)).documents;
      const approved = await post(`${BASE}${id}/documents/${first?.id}/decision/`, aprobador, {
        status: 'aprobado',
      });
      expect(approved.statusCode, approved.body).toBe(200);
      expect((await detail(id)).documents[0]).toMatchObject({
        status: 'aprobado',
        reviewed_by: aprobador.username,
      });

      await uploadPdf(id, 'poderes');
      const docs = (await detail(id)).documents;
      expect(docs).toHaveLength(1);
      expect(docs[0]).toMatchObject({ kind: 'poderes', status: 'pendiente', reviewed_by: null });
      expect(docs[0]?.id).not.toBe(first?.id);
      // The replaced one is history: no decision on it.
      const stale = await post(`${BASE}${id}/documents/${first?.id}/decision/`, aprobador, {
        status: 'aprobado',
      });
      expect(stale.statusCode).toBe(404);
    });

    it('decisions: rechazado needs a reason, vencido a date; an approval past its expiry counts as vencido', async () => {
      const { id } = await newCorporate();
      await uploadPdf(id, 'comprobante_domicilio');
      const [doc] = (await detail(id)).documents;
      const url = `${BASE}${id}/documents/${doc?.id}/decision/`;
      const noReason = await post(url, aprobador, { status: 'rechazado' });
      expect(noReason.statusCode).toBe(400);
      expect(noReason.json()).toEqual({ reason: ['Escribe el motivo del rechazo.'] });
      const noDate = await post(url, aprobador, { status: 'vencido' });
      expect(noDate.json()).toEqual({ expires_on: ['Indica la fecha de vencimiento.'] });
      const badStatus = await post(url, aprobador, { status: 'pendiente', expires_on: '2026-02-31' });
      expect(badStatus.statusCode).toBe(400);
      expect(badStatus.json()).toEqual({
        status: ['Valor no válido'],
        expires_on: ['Debe ser una fecha válida (AAAA-MM-DD).'],
      });

      const rejected = await post(url, aprobador, { status: 'rechazado', reason: 'Ilegible' });
      expect(rejected.statusCode).toBe(200);
      expect((await detail(id)).documents[0]).toMatchObject({ status: 'rechazado' });

      const expired = await post(url, aprobador, { status: 'aprobado', expires_on: '2020-01-31' });
      expect(expired.statusCode).toBe(200);
      expect((await detail(id)).documents[0]).toMatchObject({ status: 'vencido' });
    });

    it('activation is refused, listing what is missing, until all eight are aprobado; then it activates', async () => {
      const { id } = await newCorporate();
      const refused = await post(`${BASE}${id}/activate/`, aprobador);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().detail).toMatch(
        /^Faltan documentos aprobados y vigentes: Constancia de situación fiscal, /,
      );

      for (const kind of CORPORATE_DOCUMENT_KINDS) expect((await uploadPdf(id, kind)).statusCode).toBe(201);
      const review = await detail(id);
      expect(review.state).toBe('en_revision');
      expect(review.documents.find((d) => d.kind === 'estado_cuenta')?.clabe).toBe(VALID_CLABE);

      for (const doc of review.documents.slice(0, -1)) {
        const res = await post(`${BASE}${id}/documents/${doc.id}/decision/`, aprobador, {
          status: 'aprobado',
          expires_on: '2099-12-31',
        });
        expect(res.statusCode).toBe(200);
      }
      const lastKind = review.documents.at(-1);
      const oneLeft = await post(`${BASE}${id}/activate/`, aprobador);
      expect(oneLeft.statusCode).toBe(409);
      expect(oneLeft.json().detail).toContain('Contrato del programa firmado');

      await post(`${BASE}${id}/documents/${lastKind?.id}/decision/`, aprobador, { status: 'aprobado' });
      const activated = await post(`${BASE}${id}/activate/`, aprobador);
      expect(activated.statusCode, activated.body).toBe(200);
      expect(activated.json()).toEqual({ id, state: 'activo' });
      const active = await detail(id);
      expect(active).toMatchObject({ state: 'activo', sat_status: SatStatus.AUTHORIZED, missing_kinds: [] });
      expect((await post(`${BASE}${id}/activate/`, aprobador)).statusCode).toBe(409);
    });

    it('a rejected corporate keeps its reason and its file no longer changes', async () => {
      const { id } = await newCorporate();
      const noReason = await post(`${BASE}${id}/reject/`, aprobador, { reason: ' ' });
      expect(noReason.statusCode).toBe(400);
      const res = await post(`${BASE}${id}/reject/`, aprobador, { reason: 'No acreditó el domicilio' });
      expect(res.json()).toEqual({ id, state: 'rechazado' });
      const later = await uploadPdf(id, 'poderes');
      expect(later.statusCode).toBe(409);
      expect(later.json()).toEqual({ detail: 'El corporativo fue rechazado; su expediente ya no cambia.' });
    });
  });

  describe('access follows the onboarding machine (decision 0058)', () => {
    const SUMMARY = '/api/corporates/summary/';
    let both: OperatorSession;
    let promotions = 0;

    beforeAll(async () => {
      // An operator with both roles: may create and approve, but never activate what it created.
      both = await createOperatorSession(ctx, { roles: ['analista', 'aprobador'] });
    });

    /** A provider (SAT authorized) with its own user, promoted by `creator`; its invited admin signed in. */
    async function promotedProvider(creator: OperatorSession) {
      promotions += 1;
      const rfc = freshRfc();
      const providerUser = `proveedor.promovido.${promotions}`;
      await addCompanyWithUser(ctx.database.db, { rfc, name: `Proveedora ${rfc}`, username: providerUser });
      const email = `admin.${rfc.toLowerCase()}@promovida.example.mx`;
      const res = await post(BASE, creator, {
        rfc,
        name: 'x',
        admin: { name: 'Inés', last_name: 'Promovida', email },
        confirm_promotion: true,
      });
      expect(res.statusCode, res.body).toBe(201);
      const link = new URL(/http\S+/.exec((await latestMail()).body_text)?.[0] ?? '');
      const reset = await ctx.app.inject({
        method: 'POST',
        url: '/api/users/reset-password/',
        payload: { token: link.searchParams.get('token'), new_password: INVITE_PASSWORD },
      });
      expect(reset.statusCode, reset.body).toBe(200);
      const login = await loginAs(ctx.app, email, INVITE_PASSWORD);
      expect(login.statusCode, login.body).toBe(200);
      const admin = login.json<{ access: string; is_corporate: boolean }>();
      return { id: res.json<{ id: number }>().id, providerUser, email, admin };
    }

    const asUser = (access: string, url = SUMMARY) =>
      ctx.app.inject({ method: 'GET', url, headers: bearer(access) });

    async function approveWholeFile(id: number) {
      for (const kind of CORPORATE_DOCUMENT_KINDS) expect((await uploadPdf(id, kind)).statusCode).toBe(201);
      for (const doc of (await detail(id)).documents) {
        const res = await post(`${BASE}${id}/documents/${doc.id}/decision/`, aprobador, {
          status: 'aprobado',
        });
        expect(res.statusCode).toBe(200);
      }
    }

    it('a promoted provider has no corporate side in borrador or review; activation by another aprobador opens it, suspension closes it', async () => {
      const { id, providerUser, email, admin } = await promotedProvider(both);
      expect(admin.is_corporate).toBe(false);
      const draft = await asUser(admin.access);
      expect(draft.statusCode).toBe(403);
      expect(draft.json()).toEqual({ detail: CORPORATE_MESSAGES.accessPending });

      await approveWholeFile(id);
      expect((await detail(id)).state).toBe('en_revision');
      expect((await asUser(admin.access)).json()).toEqual({ detail: CORPORATE_MESSAGES.accessPending });

      // Maker-checker: the operator who created it may not activate it, whatever its roles.
      const own = await post(`${BASE}${id}/activate/`, both);
      expect(own.statusCode).toBe(403);
      expect(own.json()).toEqual({ detail: CORPORATE_MESSAGES.selfActivation });
      expect((await detail(id)).state).toBe('en_revision');

      const activated = await post(`${BASE}${id}/activate/`, aprobador);
      expect(activated.statusCode, activated.body).toBe(200);
      // The admin's open session works from its next request; a new login shows the role switch.
      expect((await asUser(admin.access)).statusCode).toBe(200);
      expect((await loginAs(ctx.app, email, INVITE_PASSWORD)).json().is_corporate).toBe(true);

      // The provider's own user stays on the provider side: no switch, no corporate calls.
      const old = await loginAs(ctx.app, providerUser);
      expect(old.json().is_corporate).toBe(false);
      const oldCall = await asUser(old.json().access);
      expect(oldCall.statusCode).toBe(403);
      expect(oldCall.json()).toEqual({ detail: 'Esta operación es solo para cuentas corporativas.' });

      // The database refuses an activation recorded as the creator's, whatever the code does.
      await expect(
        ctx.database.db
          .updateTable('companies')
          .set({ onboarding_activated_by: both.userId })
          .where('id', '=', id)
          .execute(),
      ).rejects.toThrow();

      const noReason = await post(`${BASE}${id}/suspend/`, aprobador, { reason: ' ' });
      expect(noReason.statusCode).toBe(400);
      expect(noReason.json()).toEqual({ reason: [CORPORATE_MESSAGES.suspensionReasonRequired] });
      // A limit proposed while the corporate was active waits for an approval the suspension then refuses.
      const proposed = await post('/api/operator/programmes/', analista, {
        corporate_id: id,
        limit: '30000.00',
        starts_on: '2026-01-01',
        ends_on: '2026-12-31',
      });
      expect(proposed.statusCode).toBe(201);
      const suspended = await post(`${BASE}${id}/suspend/`, aprobador, { reason: 'Domicilio no localizado' });
      expect(suspended.json()).toEqual({ id, state: 'suspendido' });
      const approval = await post(`/api/operator/programmes/${proposed.json().id}/approve/`, aprobador);
      expect(approval.statusCode).toBe(409);
      expect(approval.json().detail).toMatch(/Suspendido\.$/);
      const closed = await asUser(admin.access);
      expect(closed.statusCode).toBe(403);
      expect(closed.json()).toEqual({ detail: CORPORATE_MESSAGES.accessSuspended });
      expect((await loginAs(ctx.app, email, INVITE_PASSWORD)).json().is_corporate).toBe(false);

      const reactivated = await post(`${BASE}${id}/reactivate/`, aprobador);
      expect(reactivated.json()).toEqual({ id, state: 'activo' });
      expect((await asUser(admin.access)).statusCode).toBe(200);
    });

    it('a rejected corporate loses the corporate side at once and gets no programme', async () => {
      const { id, admin } = await promotedProvider(analista);
      const proposal = {
        corporate_id: id,
        limit: '30000.00',
        starts_on: '2026-01-01',
        ends_on: '2026-12-31',
      };
      const early = await post('/api/operator/programmes/', aprobador, proposal);
      expect(early.statusCode).toBe(409);
      expect(early.json().detail).toBe(
        'Solo se propone o aprueba un programa para un corporativo activo; este está en estado Borrador.',
      );

      expect((await post(`${BASE}${id}/reject/`, aprobador, { reason: 'Sin poderes' })).statusCode).toBe(200);
      const refused = await asUser(admin.access);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ detail: CORPORATE_MESSAGES.accessRejected });
      const rejected = await post('/api/operator/programmes/', aprobador, proposal);
      expect(rejected.statusCode).toBe(409);
      expect(rejected.json().detail).toMatch(/Rechazado\.$/);
    });
  });

  describe('roles', () => {
    it('only an analista creates and uploads; only an aprobador decides, activates and rejects; any operator reads', async () => {
      const { id } = await newCorporate();
      const body = {
        rfc: freshRfc(),
        name: 'X, S.A.',
        admin: { name: 'A', last_name: 'B', email: 'a.b@x.example.mx' },
      };
      for (const session of [aprobador, auditor]) {
        expect((await post(BASE, session, body)).statusCode).toBe(403);
        const up = await upload(
          id,
          session,
          { name: 'x.pdf', type: 'application/pdf', data: pdf },
          { kind: 'poderes' },
        );
        expect(up.statusCode).toBe(403);
      }
      await uploadPdf(id, 'poderes');
      const [doc] = (await detail(id)).documents;
      for (const session of [analista, auditor]) {
        expect(
          (await post(`${BASE}${id}/documents/${doc?.id}/decision/`, session, { status: 'aprobado' }))
            .statusCode,
        ).toBe(403);
        expect((await post(`${BASE}${id}/activate/`, session)).statusCode).toBe(403);
        expect((await post(`${BASE}${id}/reject/`, session, { reason: 'x' })).statusCode).toBe(403);
      }
      for (const session of [analista, aprobador, auditor]) {
        expect((await get(BASE, session)).statusCode).toBe(200);
        expect((await get(`${BASE}${id}/`, session)).statusCode).toBe(200);
      }
      const provider = await loginAs(ctx.app, 'proveedor.demo');
      expect((await get(BASE, provider.json())).statusCode).toBe(403);
      expect((await ctx.app.inject({ method: 'GET', url: BASE })).statusCode).toBe(401);
    });
  });
});
