import { PDFDocument } from 'pdf-lib';
import type { CorporateDocumentKind } from '../../src/domain/corporate-file';
import type { CorporateDetail } from '../../src/domain/schemas/operator-corporates';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from '../../src/stores/storage-keys';
import { setUser } from '../../src/stores/user.store';
import type { OperatorSession } from '../support/operator';
import { SEEDED_FILE } from './corporate-onboarding.model';
import { gateEndpoint } from './harness/msw-gate';
import { testApp } from './harness/test-server';
import { world } from './harness/world';

// The corporates' model files' world (corporate-onboarding, corporate-actions): two operators and a corporate
// whose file was built through the API, each path its own corporate.

let pdfBytes: Uint8Array | null = null;
/** A one-page PDF, made once per file. */
export async function pdf(): Promise<Uint8Array> {
  if (!pdfBytes) {
    const doc = await PDFDocument.create();
    doc.addPage([200, 100]).drawText('Expediente', { x: 10, y: 50, size: 10 });
    pdfBytes = await doc.save();
  }
  return pdfBytes;
}

let rfcSequence = 0;
function freshRfc(): string {
  rfcSequence += 1;
  const letters = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
  const tag = `${process.pid}${rfcSequence}`;
  const a = letters[Number(tag) % letters.length];
  const b = letters[Math.floor(Number(tag) / letters.length) % letters.length];
  const c = letters[Math.floor(Number(tag) / letters.length ** 2) % letters.length];
  return `M${a}${b}2001${String(10 + (rfcSequence % 18)).padStart(2, '0')}${c}${a}1`;
}

/** A call to the in-process app with the operator's token (the world's setup, not a gesture of the test). */
export async function inject(access: string, method: 'GET' | 'POST', url: string, payload?: object) {
  const res = await testApp().app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${access}` },
    ...(payload ? { payload } : {}),
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

const BOUNDARY = 'modelo-expediente';

/** A multipart upload built by hand: the DOM environment's FormData is not the one inject() reads. */
async function injectUpload(
  access: string,
  url: string,
  fields: Record<string, string>,
  fileName: string,
  bytes: Uint8Array,
) {
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  parts.push(
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
        'Content-Type: application/pdf\r\n\r\n',
    ),
    Buffer.from(bytes),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  );
  const res = await testApp().app.inject({
    method: 'POST',
    url,
    headers: {
      authorization: `Bearer ${access}`,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    },
    payload: Buffer.concat(parts),
  });
  if (res.statusCode !== 201) throw new Error(`upload ${url}: ${res.statusCode} ${res.body}`);
}

/**
 * The model's world: a corporate in borrador with seven of its eight kinds uploaded and approved. An analista
 * creates it and uploads; the reviewer (the screen's operator, who may then activate it) decides.
 */
export async function seededCorporate(
  creator: string,
  reviewer: string,
  kinds: readonly CorporateDocumentKind[] = SEEDED_FILE.map((d) => d.kind),
): Promise<number> {
  const access = creator;
  const rfc = freshRfc();
  const created = (await inject(access, 'POST', '/api/operator/corporates/', {
    rfc,
    name: `Modelo ${rfc}, S.A. de C.V.`,
    admin: { name: 'Ana', last_name: 'Modelo', email: `ana.${rfc.toLowerCase()}@modelo.example.mx` },
  })) as { id: number };
  const bytes = await pdf();
  for (const kind of kinds) {
    const fields: Record<string, string> = { kind };
    if (kind === 'estado_cuenta') fields.clabe = '002010077777777771';
    await injectUpload(
      access,
      `/api/operator/corporates/${created.id}/documents/`,
      fields,
      `${kind}.pdf`,
      bytes,
    );
  }
  const detail = (await inject(
    reviewer,
    'GET',
    `/api/operator/corporates/${created.id}/`,
  )) as CorporateDetail;
  for (const doc of detail.documents) {
    await inject(reviewer, 'POST', `/api/operator/corporates/${created.id}/documents/${doc.id}/decision/`, {
      status: 'aprobado',
    });
  }
  return created.id;
}

type OperatorPair = { creator: OperatorSession; session: OperatorSession; at: number };
let pair: OperatorPair | null = null;
/** Access tokens last minutes: a pair this young is shared by the next paths (each still gets its own corporate). */
const PAIR_MS = 2 * 60_000;

/** The two operators every path uses, signed in once for several paths rather than twice per path. */
export async function operators(): Promise<OperatorPair> {
  if (pair && Date.now() - pair.at < PAIR_MS) return pair;
  pair = {
    creator: await world.operatorSession(['analista']),
    session: await world.operatorSession(['analista', 'aprobador']),
    at: Date.now(),
  };
  return pair;
}

/**
 * A path's start on a corporate's file: the corporate seeded (by default seven of its eight kinds approved), its
 * reviewer signed in on the screen (maker-checker: the analista who created it is the other operator), and the
 * upload and activation calls held so a path can answer them as it needs.
 */
export async function corporateUnderReview(kinds?: readonly CorporateDocumentKind[]) {
  const { creator, session } = await operators();
  const corporateId = await seededCorporate(creator.access, session.access, kinds);
  localStorage.setItem(ACCESS_TOKEN_KEY, session.access);
  localStorage.setItem(REFRESH_TOKEN_KEY, session.refresh);
  setUser({ isAuthenticated: true, operatorRoles: ['analista', 'aprobador'] });
  return {
    corporateId,
    access: session.access,
    upload: gateEndpoint('post', `/api/operator/corporates/${corporateId}/documents/`),
    activate: gateEndpoint('post', `/api/operator/corporates/${corporateId}/activate/`),
  };
}
