import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EFOS_LIMITS } from '../../server/cfdi/efos-list';
import { sealRefusals } from '../../server/cfdi/verify-cfdi';
import type { Config } from '../../server/config';
import { OPS_COMMANDS, type OpsContext } from '../../server/ops/commands';
import { DEMO_CORPORATE, DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { INBOX_KINDS } from '../../src/domain/schemas/operator-alliances';
import { makeCfdi, stampedUuid, withAttribute } from '../fixtures/cfdi';
import { type EfosCsvRow, makeEfosCsv } from '../fixtures/efos';
import { type ApiTestContext, createApiApp, testConfig } from '../support/api-app';
import { createOperatorSession } from '../support/operator';

// Issue 30: `ops cfdi:verify` proves files without importing them (and the whole demo world passes it);
// `ops efos:import` replaces the 69-B list and pauses the alliances of allied providers it blocks.

const PROVIDER = DEMO_PROVIDERS[0];
const NOW = new Date('2026-10-15T17:00:00Z');

let ctx: ApiTestContext;
let config: Config;
let dir: string;
let output: string[];
let folio = 9100;

const db = () => ctx.database.db;
const context = (): OpsContext => ({
  config,
  database: ctx.database,
  now: () => NOW,
  print: (line) => output.push(line),
  cwd: dir,
});
const ops = (name: string, ...args: string[]) => {
  const command = OPS_COMMANDS[name];
  if (!command) throw new Error(`no command ${name}`);
  output = [];
  return command.run(context(), args);
};
const text = () => output.join('\n');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flujo-verify-'));
  config = testConfig({ DATA_DIR: dir, OPERATOR_EMAIL: 'mesa@flujo.test' });
  ctx = await createApiApp({ config });
});
afterAll(async () => {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A genuine CFDI of the first demo provider to the demo corporate, written to the temporary directory. */
function genuineFile(
  name: string,
  edit: (xml: string) => string = (xml) => xml,
): { path: string; xml: string } {
  folio += 1;
  const xml = edit(
    makeCfdi({
      folio: String(folio),
      issuedAt: '2026-10-01T09:00:00',
      issuer: { rfc: PROVIDER.rfc, name: PROVIDER.name },
      receiver: { rfc: DEMO_CORPORATE.rfc, name: DEMO_CORPORATE.name },
    }),
  );
  const path = join(dir, name);
  writeFileSync(path, xml);
  return { path, xml };
}

describe('ops cfdi:verify', () => {
  it('reports a genuine CFDI: valid seal, its certificate, its stamp and SAT’s Vigente; exit 0', async () => {
    const { xml } = genuineFile('genuina.xml');
    expect(await ops('cfdi:verify', 'genuina.xml')).toBe(0);
    expect(output[0]).toBe('genuina.xml');
    expect(output).toContain('  Sello: válido');
    expect(text()).toContain(`  Titular: ${PROVIDER.rfc} `);
    expect(text()).toMatch(/Emisor del certificado: .+, emitido por una autoridad confiable/);
    expect(text()).toContain('vigente en la fecha del CFDI');
    expect(text()).toContain(`  Timbre: UUID ${stampedUuid(xml)}, sello del SAT verificado`);
    expect(text()).toContain('  SAT: Estado Vigente, EsCancelable Cancelable con aceptación');
    expect(text()).toContain('consultado el 2026-10-15 17:00:00 UTC');
    expect(output.at(-1)).toBe('1 de 1 CFDI verificados: sello válido y vigentes ante el SAT.');
  });

  it('refuses a forged seal with the importer’s words, still showing the certificate; exit 1', async () => {
    const random = Buffer.from(Array.from({ length: 256 }, (_, i) => (i * 37) % 256)).toString('base64');
    genuineFile('falsa.xml', (xml) => withAttribute(xml, 'Comprobante', 'Sello', random));
    expect(await ops('cfdi:verify', 'falsa.xml')).toBe(1);
    expect(output).toContain(`  Sello: inválido (${sealRefusals.seal})`);
    // What the certificate says is read even though the proof stopped at the seal.
    expect(text()).toContain(`  Titular: ${PROVIDER.rfc} `);
    expect(text()).toContain('emitido por una autoridad confiable');
    expect(text()).toContain(sealRefusals.stamp);
    expect(output.at(-1)).toBe('0 de 1 CFDI verificados: sello válido y vigentes ante el SAT.');
  });

  it('does not ask SAT about a seal no CFDI could carry, and says so; exit 1', async () => {
    genuineFile('sello-corto.xml', (xml) => withAttribute(xml, 'Comprobante', 'Sello', 'x'));
    expect(await ops('cfdi:verify', 'sello-corto.xml')).toBe(1);
    expect(text()).toContain('  SAT: no se consultó (');
  });

  it('exits 1 for a CFDI SAT reports cancelled, and says so', async () => {
    const { xml } = genuineFile('cancelada.xml');
    await db()
      .insertInto('sandbox_sat_cancellations')
      .values({ cfdi_uuid: stampedUuid(xml) })
      .execute();
    expect(await ops('cfdi:verify', 'cancelada.xml')).toBe(1);
    expect(output).toContain('  Sello: válido');
    expect(text()).toContain('  SAT: Estado Cancelado');
  });

  it('says why a file is not a CFDI, and refuses a missing path as usage', async () => {
    writeFileSync(join(dir, 'nota.xml'), 'esto no es XML');
    expect(await ops('cfdi:verify', 'nota.xml')).toBe(1);
    expect(output[1]).toMatch(/^ {2}No es un CFDI 4\.0 timbrado: /);
    await expect(ops('cfdi:verify', 'no-existe.xml')).rejects.toThrow('No existe');
    await expect(ops('cfdi:verify')).rejects.toThrow('cfdi:verify necesita');
  });

  it('the demo world passes cfdi:verify: every invoice’s stored CFDI, exit 0', async () => {
    const invoices = await db().selectFrom('invoices').select(['id', 'cfdi_xml']).orderBy('id').execute();
    expect(invoices.length).toBeGreaterThan(40);
    const folder = mkdtempSync(join(dir, 'mundo-demo-'));
    for (const invoice of invoices)
      writeFileSync(join(folder, `factura-${invoice.id}.xml`), invoice.cfdi_xml);
    expect(await ops('cfdi:verify', folder)).toBe(0);
    expect(output.at(-1)).toBe(
      `${invoices.length} de ${invoices.length} CFDI verificados: sello válido y vigentes ante el SAT.`,
    );
    expect(output.filter((line) => line === '  Sello: válido')).toHaveLength(invoices.length);
  });
});

describe('ops efos:import', () => {
  const LISTED: EfosCsvRow[] = [
    { rfc: 'AAA010101AAA', name: 'Simulaciones Comerciales, S.A. de C.V.', situation: 'Definitivo' },
    { rfc: 'BBB020202BB2', name: 'Operadora “La Niña”, S.C.', situation: 'Presunto' },
    { rfc: 'CCC030303CC3', name: 'Servicios Peñón y Cía.', situation: 'Desvirtuado' },
    { rfc: 'XXXXXXXXXXXX', name: 'Nombre reservado', situation: 'Definitivo' },
  ];
  const write = (name: string, bytes: Uint8Array) => {
    writeFileSync(join(dir, name), bytes);
    return name;
  };
  const counts = async () => ({
    lists: Number(
      (await db().selectFrom('efos_lists').select(db().fn.countAll().as('n')).executeTakeFirstOrThrow()).n,
    ),
    entries: Number(
      (await db().selectFrom('efos_entries').select(db().fn.countAll().as('n')).executeTakeFirstOrThrow()).n,
    ),
  });
  const entries = () =>
    db().selectFrom('efos_entries').select(['rfc', 'name', 'situation']).orderBy('rfc').execute();

  it('loads a UTF-8 list, then a windows-1252 one replaces it; each import keeps its date', async () => {
    expect(await ops('efos:import', write('lista-utf8.csv', makeEfosCsv(LISTED)))).toBe(0);
    expect(output[0]).toBe(
      'Lista 69-B importada de lista-utf8.csv (Información actualizada al 31 de octubre de 2026).',
    );
    expect(output[1]).toBe('3 contribuyentes cargados de 4 filas; 1 fila con el RFC reservado por el SAT.');
    expect(output[2]).toBe('2 en situación que bloquea sus CFDI (Presunto o Definitivo).');
    expect(text()).toContain('Alianzas en pausa: 0.');
    expect((await entries()).map((entry) => entry.rfc)).toEqual([
      'AAA010101AAA',
      'BBB020202BB2',
      'CCC030303CC3',
    ]);

    const second: EfosCsvRow[] = [
      { rfc: 'DDD040404DD4', name: 'Distribuidora Ñandú y Asociados', situation: 'Sentencia Favorable' },
      { rfc: 'BBB020202BB2', name: 'Operadora “La Niña”, S.C.', situation: 'Definitivo' },
    ];
    expect(
      await ops('efos:import', write('lista-1252.csv', makeEfosCsv(second, { encoding: 'latin1' }))),
    ).toBe(0);
    expect(await entries()).toEqual([
      { rfc: 'BBB020202BB2', name: 'Operadora “La Niña”, S.C.', situation: 'Definitivo' },
      { rfc: 'DDD040404DD4', name: 'Distribuidora Ñandú y Asociados', situation: 'Sentencia Favorable' },
    ]);
    // The earlier list stays on record with its date; the entries belong to the newest one.
    const lists = await db().selectFrom('efos_lists').selectAll().orderBy('id').execute();
    expect(lists.map((list) => [list.file_name, list.entries])).toEqual([
      ['lista-utf8.csv', 3],
      ['lista-1252.csv', 2],
    ]);
    for (const list of lists) expect(Number.isNaN(new Date(String(list.imported_at)).getTime())).toBe(false);
    const owners = await db().selectFrom('efos_entries').select('list_id').distinct().execute();
    expect(owners).toEqual([{ list_id: lists[1]?.id }]);
  });

  it('refuses a malformed file with its line and writes nothing', async () => {
    const before = await counts();
    const rows: EfosCsvRow[] = [
      { rfc: 'EEE050505EE5', name: 'Bien Formada, S.A.', situation: 'Presunto' },
      { rfc: 'FFF060606FF6', name: 'Mal Escrita, S.A.', situation: 'Sospechoso' },
    ];
    expect(await ops('efos:import', write('mala.csv', makeEfosCsv(rows)))).toBe(1);
    // Two preamble lines and the header: the second row is line 5.
    expect(output).toEqual([
      'mala.csv: Línea 5: la situación "Sospechoso" no es una de Presunto, Desvirtuado, Definitivo o Sentencia Favorable. No se cambió nada.',
    ]);
    expect(await counts()).toEqual(before);
  });

  it('refuses a file over the parser’s limit by its size, before reading it', async () => {
    const before = await counts();
    const path = join(dir, 'enorme.csv');
    writeFileSync(path, '');
    // A sparse file: over the limit without writing 30 MB.
    truncateSync(path, EFOS_LIMITS.maxBytes + 1);
    expect(await ops('efos:import', 'enorme.csv')).toBe(1);
    expect(output[0]).toContain('El archivo pesa más de 30 MB');
    expect(await counts()).toEqual(before);
  });

  it('pauses the alliances of an allied demo provider listed Presunto and tells the operators', async () => {
    const provider = await db()
      .selectFrom('companies')
      .select(['id', 'name'])
      .where('rfc', '=', PROVIDER.rfc)
      .executeTakeFirstOrThrow();
    const active = await db()
      .selectFrom('alliances')
      .select('id')
      .where('provider_id', '=', provider.id)
      .where('is_active', '=', true)
      .execute();
    expect(active.length).toBeGreaterThan(0);
    const lastMail = async () =>
      Number(
        (await db().selectFrom('mail_outbox').select(db().fn.max('id').as('id')).executeTakeFirstOrThrow())
          .id ?? 0,
      );
    const mailsBefore = await lastMail();

    const rows: EfosCsvRow[] = [...LISTED, { rfc: PROVIDER.rfc, name: PROVIDER.name, situation: 'Presunto' }];
    expect(await ops('efos:import', write('lista-proveedor.csv', makeEfosCsv(rows)))).toBe(0);
    expect(text()).toContain('Proveedores con alianza que entran a la lista: 1.');
    expect(text()).toContain(`  ${PROVIDER.rfc}  ${provider.name}  Presunto (nuevo)  `);
    expect(output).toContain(`Alianzas en pausa: ${active.length}.`);
    expect(text()).toContain('Se avisó a mesa@flujo.test');

    const after = await db()
      .selectFrom('alliances')
      .select('is_active')
      .where('provider_id', '=', provider.id)
      .execute();
    expect(after.every((alliance) => !alliance.is_active)).toBe(true);

    const mails = await db().selectFrom('mail_outbox').selectAll().where('id', '>', mailsBefore).execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ recipient: 'mesa@flujo.test' });
    expect(mails[0]?.subject).toBe('Lista 69-B del SAT: 1 proveedor con alianza como Presunto o Definitivo');
    expect(mails[0]?.body_text).toContain(
      `- ${PROVIDER.rfc} ${provider.name}: Presunto (nuevo en la lista);`,
    );
    expect(mails[0]?.body_text).toContain('/operacion/bandeja/?tipo=efos');

    // The inbox's 69-B tab shows it to every operator.
    expect(INBOX_KINDS).toContain('efos');
    const auditor = await createOperatorSession(ctx, { roles: ['auditor'], username: 'op.auditor.efos' });
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/operator/inbox/?kind=efos',
      headers: { authorization: `Bearer ${auditor.access}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().results).toEqual([
      expect.objectContaining({
        id: provider.id,
        kind: 'efos',
        from_company: provider.name,
        status: 'Presunto',
        subject: `RFC ${PROVIDER.rfc} en la lista 69-B del SAT como Presunto; alianzas inactivas: ${after.length} de ${after.length}`,
      }),
    ]);

    // The same list again pauses nothing more and sends no second e-mail.
    const mailCount = await lastMail();
    expect(await ops('efos:import', 'lista-proveedor.csv')).toBe(0);
    expect(text()).toContain('Proveedores con alianza que entran a la lista: 0.');
    expect(output).toContain('Alianzas en pausa: 0.');
    expect(await lastMail()).toBe(mailCount);
  });
});
