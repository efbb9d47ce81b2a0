import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import dayjs from 'dayjs';
import type { IsoDate } from '../../../src/domain/calendar-date';
import { buildCfdiXml } from '../../cfdi/build-cfdi';
import type { DemoAuthority } from '../../cfdi/demo-authority';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../private-files';
import { sandboxFolder } from './sat-connector';

export interface SandboxGenerateInput {
  /** The demo authority that seals (as the issuer's CSD) and stamps (as the sandbox SAT). */
  authority: DemoAuthority;
  sandboxDir: string;
  issuer: { rfc: string; name: string };
  receiver: { rfc: string; name: string };
  count: number;
  today: IsoDate;
}

export const MAX_GENERATED_CFDI = 500;
const SERIE = 'F';
/** 86,206.90 + 16% IVA = 100,000.00: the first invoice of every sandbox RFC is the round figure of the docs. */
const FIRST_SUBTOTAL = '86206.90';
/** Issue dates spread over the last four months, so every period filter has invoices. */
const SPREAD_DAYS = 118;
const USD_EVERY = 7;
// NOTE: an illustrative FIX-like rate with SAT's TipoCambio precision; not a published Banxico value.
const SANDBOX_USD_RATE = '17.3810';
const DESCRIPTIONS = [
  'Suministro de materia prima, lote mensual',
  'Servicio de mantenimiento preventivo a línea de producción',
  'Flete terrestre Querétaro - Ciudad de México',
  'Material de empaque y embalaje',
  'Servicio de limpieza industrial',
  'Refacciones para montacargas',
  'Consultoría en seguridad e higiene',
  'Uniformes y equipo de protección personal',
  'Mantenimiento de cámaras de refrigeración',
  'Etiquetado y codificación de producto terminado',
];

/** A stable pseudo-random integer in [min, max] for a label: the same RFC and folio give the same invoice. */
function pick(label: string, min: number, max: number): number {
  const value = createHash('sha256').update(label).digest().readUInt32BE(0);
  return min + (value % (max - min + 1));
}

function folioNumber(name: string, rfc: string): number {
  const match = new RegExp(`^${rfc.replace(/[&Ñ]/g, '.')}-${SERIE}-(\\d+)\\.xml$`).exec(name);
  return match ? Number(match[1]) : 0;
}

/**
 * Writes `count` signed and stamped CFDI 4.0 XML issued by `issuer` to `receiver` into the RFC's sandbox folder,
 * continuing its folio numbering, and returns their paths. Realistic: income vouchers (I), PPD, 16% IVA,
 * mostly MXN with some USD, issue dates over the last four months (never in the future).
 */
export function generateSandboxCfdi(input: SandboxGenerateInput): string[] {
  if (!Number.isInteger(input.count) || input.count < 1 || input.count > MAX_GENERATED_CFDI) {
    throw new Error(`count must be 1-${MAX_GENERATED_CFDI}`);
  }
  const folder = sandboxFolder(input.sandboxDir, input.issuer.rfc);
  mkdirSync(folder, { recursive: true, mode: PRIVATE_DIR_MODE });
  const last = Math.max(0, ...readdirSync(folder).map((name) => folioNumber(name, input.issuer.rfc)));
  const paths: string[] = [];
  for (let index = 0; index < input.count; index++) {
    const folio = last + index + 1;
    const label = `${input.issuer.rfc}|${folio}`;
    const usd = folio % USD_EVERY === 0;
    const daysAgo = folio === 1 ? 3 : pick(`${label}|days`, 1, SPREAD_DAYS);
    const issuedAt = `${dayjs(input.today).subtract(daysAgo, 'day').format('YYYY-MM-DD')}T${String(pick(`${label}|hour`, 8, 18)).padStart(2, '0')}:${String(pick(`${label}|minute`, 0, 59)).padStart(2, '0')}:00`;
    const subtotal =
      folio === 1
        ? FIRST_SUBTOTAL
        : usd
          ? `${pick(`${label}|usd`, 1_500, 9_000)}.${String(pick(`${label}|c`, 0, 99)).padStart(2, '0')}`
          : `${pick(`${label}|mxn`, 12_000, 240_000)}.${String(pick(`${label}|c`, 0, 99)).padStart(2, '0')}`;
    const xml = buildCfdiXml(
      {
        serie: SERIE,
        folio: String(folio),
        issuedAt,
        issuer: input.issuer,
        receiver: input.receiver,
        subtotal,
        currency: usd ? 'USD' : 'MXN',
        exchangeRate: usd ? SANDBOX_USD_RATE : undefined,
        paymentMethod: 'PPD',
        description: DESCRIPTIONS[pick(`${label}|description`, 0, DESCRIPTIONS.length - 1)] as string,
      },
      input.authority,
    );
    const path = join(folder, `${input.issuer.rfc}-${SERIE}-${String(folio).padStart(4, '0')}.xml`);
    writeFileSync(path, xml, { mode: PRIVATE_FILE_MODE });
    paths.push(path);
  }
  return paths;
}
