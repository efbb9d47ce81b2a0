import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUntrustedAuthority } from '../../server/cfdi/demo-authority';
import { parseEfosList } from '../../server/cfdi/efos-list';
import { sealRefusals } from '../../server/cfdi/verify-cfdi';
import { replaceEfosList } from '../../server/modules/efos/efos.repository';
import type { CfdiAuthenticity } from '../../server/modules/sat/cfdi-authenticity';
import { importCfdiFiles, importRefusals } from '../../server/modules/sat/cfdi-import.service';
import { cfdiSatCheckJob, invoicesDueForSat } from '../../server/modules/sat/cfdi-sat-check.job';
import { SatStatusUnavailableError } from '../../server/modules/sat/sat-status-client';
import { DEMO_CORPORATE, DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { makeCfdi, resealed, stampedUuid, testAuthority, withAttribute } from '../fixtures/cfdi';
import { makeEfosCsv } from '../fixtures/efos';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { testAuthenticity } from '../support/demo-authority';
import { createOperatorSession } from '../support/operator';

// Issue 30: every CFDI is proven before it becomes an invoice (seal, certificate, stamp, 69-B, SAT's status);
// each refusal names the check and leaves the database as it was.

const PROVIDER = DEMO_PROVIDERS[0];
let ctx: ApiTestContext;
let folio = 7000;

beforeAll(async () => {
  ctx = await createApiApp();
});
afterAll(() => ctx.close());

const db = () => ctx.database.db;
const authenticity = (): CfdiAuthenticity => testAuthenticity(db());

/** A genuine CFDI of the first demo provider to the demo corporate, sealed by its demo CSD. */
function genuine(issuer: { rfc: string; name: string } = PROVIDER): string {
  folio += 1;
  return makeCfdi({
    folio: String(folio),
    issuedAt: '2026-10-01T09:00:00',
    issuer,
    receiver: { rfc: DEMO_CORPORATE.rfc, name: DEMO_CORPORATE.name },
  });
}

async function counts() {
  const count = async (table: 'invoices' | 'invoice_events' | 'cfdi_sat_checks' | 'cfdi_conflicts') =>
    Number((await db().selectFrom(table).select(db().fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return {
    invoices: await count('invoices'),
    events: await count('invoice_events'),
    satChecks: await count('cfdi_sat_checks'),
    conflicts: await count('cfdi_conflicts'),
  };
}

async function expectRefused(name: string, xml: string, reason: string, using = authenticity()) {
  const before = await counts();
  const result = await importCfdiFiles(db(), [{ name, content: xml }], { authenticity: using });
  expect(result.imported).toEqual([]);
  expect(result.rejected).toEqual([{ name, reason }]);
  expect(await counts()).toEqual(before);
}

describe('the seal and the certificate', () => {
  it('imports a genuinely signed CFDI as trusted, with its proof and SAT answer kept', async () => {
    const xml = genuine();
    const result = await importCfdiFiles(db(), [{ name: 'buena.xml', content: xml }], {
      authenticity: authenticity(),
    });
    expect(result.rejected).toEqual([]);
    const invoice = await db()
      .selectFrom('invoices')
      .select(['proof_state', 'cfdi_proof'])
      .where('cfdi_uuid', '=', stampedUuid(xml))
      .executeTakeFirstOrThrow();
    expect(invoice.proof_state).toBe('trusted');
    expect(invoice.cfdi_proof).toMatchObject({
      holderRfc: PROVIDER.rfc,
      issuer: 'AC DEMO FLUJO (NO ES EL SAT)',
      satSealVerified: true,
    });
    const check = await db()
      .selectFrom('cfdi_sat_checks')
      .selectAll()
      .where('invoice_id', '=', result.imported[0]!.id)
      .executeTakeFirstOrThrow();
    expect(check).toMatchObject({ answered: true, estado: 'Vigente', validacion_efos: '200' });
  });

  it('refuses a random seal', async () => {
    const random = Buffer.from(Array.from({ length: 256 }, (_, i) => (i * 37) % 256)).toString('base64');
    await expectRefused(
      'sello.xml',
      withAttribute(genuine(), 'Comprobante', 'Sello', random),
      sealRefusals.seal,
    );
  });

  it('refuses a genuine file with one amount changed', async () => {
    const xml = genuine().replace('SubTotal="10000.00"', 'SubTotal="10001.00"');
    await expectRefused('monto.xml', xml, sealRefusals.seal);
  });

  it('refuses a correct seal by a self-made certificate that claims the issuer’s RFC', async () => {
    const forger = createUntrustedAuthority();
    const xml = resealed(genuine(), forger.issue({ rfc: PROVIDER.rfc, name: PROVIDER.name }));
    await expectRefused('apocrifo.xml', xml, sealRefusals.authority);
  });

  it('refuses a certificate whose RFC is not the issuer’s', async () => {
    const other = testAuthority().issue({ rfc: DEMO_PROVIDERS[1].rfc, name: DEMO_PROVIDERS[1].name });
    await expectRefused('otro-rfc.xml', resealed(genuine(), other), sealRefusals.rfc);
  });

  it('refuses an e.firma (FIEL) certificate', async () => {
    const fiel = testAuthority().issue({ rfc: PROVIDER.rfc, name: PROVIDER.name, branch: '' });
    await expectRefused('fiel.xml', resealed(genuine(), fiel), sealRefusals.fiel);
  });

  it('refuses a certificate expired on the CFDI’s Fecha', async () => {
    const expired = testAuthority().issue({
      rfc: PROVIDER.rfc,
      name: PROVIDER.name,
      notBefore: new Date('2021-01-01T00:00:00Z'),
      notAfter: new Date('2025-01-01T00:00:00Z'),
    });
    await expectRefused('vencido.xml', resealed(genuine(), expired), sealRefusals.validity);
  });

  it('says "ya importada" for the same file and refuses a conflicting copy of a held UUID, never replacing it', async () => {
    const xml = genuine();
    const first = await importCfdiFiles(db(), [{ name: 'original.xml', content: xml }], {
      authenticity: authenticity(),
    });
    const uuid = first.imported[0]!.uuid;
    await expectRefused('otra-vez.xml', xml, importRefusals.alreadyImported(uuid));

    // The same sealed document with an Addenda: still authentic, but not the bytes Flujo holds.
    const copy = xml.replace(
      '</cfdi:Comprobante>',
      '  <cfdi:Addenda><nota>copia</nota></cfdi:Addenda>\n</cfdi:Comprobante>',
    );
    const before = await counts();
    const result = await importCfdiFiles(db(), [{ name: 'copia.xml', content: copy }], {
      authenticity: authenticity(),
    });
    expect(result.rejected).toEqual([{ name: 'copia.xml', reason: importRefusals.conflictingCopy(uuid) }]);
    expect(await counts()).toEqual({ ...before, conflicts: before.conflicts + 1 });
    const stored = await db()
      .selectFrom('invoices')
      .select('cfdi_xml')
      .where('cfdi_uuid', '=', uuid)
      .executeTakeFirstOrThrow();
    expect(stored.cfdi_xml).toBe(xml);

    // Operators see it in the inbox: who sent it, which invoice it claims to be.
    const operator = await createOperatorSession(ctx, { roles: ['analista'] });
    const inbox = await ctx.app.inject({
      method: 'GET',
      url: '/api/operator/inbox/?kind=conflict',
      headers: { authorization: `Bearer ${operator.access}` },
    });
    expect(inbox.statusCode).toBe(200);
    expect(inbox.json().results[0]).toMatchObject({
      kind: 'conflict',
      subject: expect.stringContaining(uuid),
    });
  });
});

describe('invoices imported before seals were proven', () => {
  it('stay "sin verificar" until the same file is imported again, which proves them', async () => {
    const xml = genuine();
    const first = await importCfdiFiles(db(), [{ name: 'antigua.xml', content: xml }], {
      authenticity: authenticity(),
    });
    const id = first.imported[0]!.id;
    // What migration 013 leaves on an invoice of before: no proof.
    await db()
      .updateTable('invoices')
      .set({ proof_state: 'unverified', cfdi_proof: null })
      .where('id', '=', id)
      .execute();

    const again = await importCfdiFiles(db(), [{ name: 'antigua.xml', content: xml }], {
      authenticity: authenticity(),
    });
    expect(again).toMatchObject({ imported: [], rejected: [], reverified: [{ id, name: 'antigua.xml' }] });
    const invoice = await db()
      .selectFrom('invoices')
      .select(['proof_state', 'cfdi_proof'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(invoice.proof_state).toBe('trusted');
    expect(invoice.cfdi_proof).toMatchObject({ holderRfc: PROVIDER.rfc });
  });
});

describe('SAT’s status', () => {
  it('refuses a CFDI SAT reports as cancelled', async () => {
    const xml = genuine();
    await db()
      .insertInto('sandbox_sat_cancellations')
      .values({ cfdi_uuid: stampedUuid(xml) })
      .execute();
    await expectRefused('cancelada.xml', xml, importRefusals.satCancelled);
  });

  it('refuses a CFDI SAT does not know (a stamp by a certificate Flujo cannot check)', async () => {
    const xml = withAttribute(
      withAttribute(genuine(), 'TimbreFiscalDigital', 'UUID', randomUUID().toUpperCase()),
      'TimbreFiscalDigital',
      'NoCertificadoSAT',
      '00001000000999999999',
    );
    await expectRefused('desconocida.xml', xml, importRefusals.satNotFound);
  });

  it('imports as pending when SAT does not answer: a timeout is never a pass', async () => {
    const silent: CfdiAuthenticity = {
      ...authenticity(),
      satStatus: () => ({
        consult: async () => {
          throw new SatStatusUnavailableError('timeout', 'test: SAT held the request');
        },
      }),
    };
    const xml = genuine();
    const result = await importCfdiFiles(db(), [{ name: 'sin-respuesta.xml', content: xml }], {
      authenticity: silent,
    });
    expect(result.rejected).toEqual([]);
    const id = result.imported[0]!.id;
    const invoice = await db()
      .selectFrom('invoices')
      .select('proof_state')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(invoice.proof_state).toBe('pending');
    const check = await db()
      .selectFrom('cfdi_sat_checks')
      .selectAll()
      .where('invoice_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(check).toMatchObject({ answered: false, estado: null, failure: 'timeout' });

    // The job asks again with backoff: not at once, but after two minutes; then SAT answers and it is trusted.
    const asked = new Date(check.asked_at);
    expect(await invoicesDueForSat(db(), new Date(asked.getTime() + 60_000))).not.toContain(id);
    expect(await invoicesDueForSat(db(), new Date(asked.getTime() + 3 * 60_000))).toContain(id);
    await cfdiSatCheckJob(db(), authenticity()).run(new Date(asked.getTime() + 3 * 60_000));
    const after = await db()
      .selectFrom('invoices')
      .select('proof_state')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(after.proof_state).toBe('trusted');
  });

  it('a bulk import is proven now and asked in the background: quotable at once, trusted once SAT answers', async () => {
    const xml = genuine();
    const result = await importCfdiFiles(db(), [{ name: 'lote.xml', content: xml }], {
      authenticity: authenticity(),
      satCheck: 'background',
    });
    const id = result.imported[0]!.id;
    const proof = async () =>
      (await db().selectFrom('invoices').select('proof_state').where('id', '=', id).executeTakeFirstOrThrow())
        .proof_state;
    expect(await proof()).toBe('sealChecked');
    expect(await invoicesDueForSat(db(), new Date())).toContain(id);
    await cfdiSatCheckJob(db(), authenticity()).run(new Date());
    expect(await proof()).toBe('trusted');
  });
});

describe('the 69-B list', () => {
  it('refuses the CFDI of an issuer Presunto or Definitivo, and lets Desvirtuado pass', async () => {
    const [presunto, definitivo, desvirtuado] = [DEMO_PROVIDERS[1], DEMO_PROVIDERS[2], DEMO_PROVIDERS[0]];
    const parsed = parseEfosList(
      makeEfosCsv([
        { rfc: presunto.rfc, name: presunto.name, situation: 'Presunto' },
        { rfc: definitivo.rfc, name: definitivo.name, situation: 'Definitivo' },
        { rfc: desvirtuado.rfc, name: desvirtuado.name, situation: 'Desvirtuado' },
      ]),
    );
    if (!parsed.ok) throw new Error(parsed.reason);
    await replaceEfosList(db(), 'Listado_Completo_69-B.csv', parsed.entries);

    await expectRefused('presunto.xml', genuine(presunto), importRefusals.efos('Presunto'));
    await expectRefused('definitivo.xml', genuine(definitivo), importRefusals.efos('Definitivo'));
    const passes = await importCfdiFiles(db(), [{ name: 'desvirtuado.xml', content: genuine(desvirtuado) }], {
      authenticity: authenticity(),
    });
    expect(passes.rejected).toEqual([]);
    await replaceEfosList(db(), 'vacía.csv', []);
  });
});
