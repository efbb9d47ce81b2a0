import {
  cfdiStatusExpression,
  formatStatusTotal,
  type StatusExpressionFields,
} from '../../cfdi/cfdi-expression';
import { type DemoAuthority, loadDemoAuthority } from '../../cfdi/demo-authority';
import { loadTrustStore, type TrustStore, trustStoreOf } from '../../cfdi/trust-store';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { Clock } from '../auth/clock';
import { answerStatusRequest } from './sandbox-sat-status';
import { createSatStatusClient, type SatStatusClient, SatStatusUnavailableError } from './sat-status-client';
import type { SatDocumentState, SatStatusAnswer } from './sat-status-soap';

/**
 * What proves a CFDI here: the certificates Flujo trusts and SAT's status service. In development and tests
 * the demo authority is trusted and the status service is the sandbox SAT (docs/decisions/0056).
 */
export interface CfdiAuthenticity {
  trust: TrustStore;
  /**
   * SAT's status service. The sandbox reads its cancellations through `db`, so a caller inside a transaction
   * passes it (PGlite has one connection: a second one would wait for the transaction forever).
   */
  satStatus(db: Db): SatStatusClient;
  /** The demo authority, trusted outside production only; null in production. */
  demo: DemoAuthority | null;
  now: Clock;
}

/** The demo authority, or why there is none (production trusts SAT's CAs only). */
export function demoAuthorityOf(authenticity: CfdiAuthenticity): DemoAuthority {
  if (!authenticity.demo) throw new Error('the demo authority is not available in production');
  return authenticity.demo;
}

/** The party fields SAT's status service is asked with. */
export interface SatQuestion {
  uuid: string;
  issuerRfc: string;
  receiverRfc: string;
  total: string;
  seal: string;
}

export type SatCheck =
  | { answered: true; askedAt: Date; answer: SatStatusAnswer }
  | { answered: false; askedAt: Date; failure: string };

/** The path the sandbox SAT serves ConsultaCFDIService on (sandbox-sat-status.routes.ts). */
export const SANDBOX_STATUS_PATH = '/sandbox/sat/ConsultaCFDIService.svc';
const SANDBOX_ORIGIN = 'http://sandbox-sat.invalid';

export function createCfdiAuthenticity(
  config: Pick<
    Config,
    'production' | 'satTrustDir' | 'demoAuthorityDir' | 'satStatusUrl' | 'satStatusTimeoutMs'
  >,
  db: Db,
  now: Clock,
): CfdiAuthenticity {
  const demo =
    config.production || !config.demoAuthorityDir ? null : loadDemoAuthority(config.demoAuthorityDir);
  const configured = config.satTrustDir ? loadTrustStore([config.satTrustDir]) : trustStoreOf([]);
  const trust = demo
    ? trustStoreOf([
        ...configured.authorities,
        ...configured.stampingCertificates.values(),
        demo.certificate,
        demo.stamping.certificate,
      ])
    : configured;
  if (config.satStatusUrl) {
    const client = createSatStatusClient({ url: config.satStatusUrl, timeoutMs: config.satStatusTimeoutMs });
    return { trust, satStatus: () => client, demo, now };
  }
  const sandboxClient = (executor: Db) =>
    createSatStatusClient({
      url: `${SANDBOX_ORIGIN}${SANDBOX_STATUS_PATH}`,
      timeoutMs: config.satStatusTimeoutMs,
      // No network in between: the same SOAP bytes go to the handler the sandbox's HTTP route serves.
      fetch: sandboxFetch(executor, demo),
    });
  const rootClient = sandboxClient(db);
  return {
    trust,
    satStatus: (executor) => (executor === db ? rootClient : sandboxClient(executor)),
    demo,
    now,
  };
}

/** The sandbox SAT's answer: Vigente for a CFDI its demo stamp issued, Cancelado once cancelled, else No Encontrado. */
export async function sandboxDocumentState(
  db: Db,
  demo: DemoAuthority | null,
  fields: StatusExpressionFields,
): Promise<SatDocumentState> {
  if (!demo) return 'No Encontrado';
  const issued = demo.stampUuid({
    re: fields.re,
    rr: fields.rr,
    tt: formatStatusTotal(fields.tt),
    fe: fields.fe,
  });
  if (issued !== fields.id.toUpperCase()) return 'No Encontrado';
  const cancelled = await db
    .selectFrom('sandbox_sat_cancellations')
    .select('cfdi_uuid')
    .where('cfdi_uuid', '=', issued)
    .executeTakeFirst();
  return cancelled ? 'Cancelado' : 'Vigente';
}

function sandboxFetch(db: Db, demo: DemoAuthority | null): typeof globalThis.fetch {
  return async (_url, init) => {
    const body = typeof init?.body === 'string' ? init.body : '';
    const answer = await answerStatusRequest(body, (fields) => sandboxDocumentState(db, demo, fields));
    return new Response(answer.body, {
      status: answer.status,
      headers: { 'content-type': 'text/xml; charset=utf-8' },
    });
  };
}

/** Asks SAT about one CFDI. Never throws for SAT's sake: no answer is a SatCheck that says so. */
export async function askSat(
  authenticity: CfdiAuthenticity,
  db: Db,
  question: SatQuestion,
): Promise<SatCheck> {
  const askedAt = authenticity.now();
  let expression: string;
  try {
    expression = cfdiStatusExpression(question);
  } catch (error) {
    // A file whose UUID, RFCs, total or seal cannot be in a stamped CFDI (cfdi:verify reads unproven files):
    // SAT is not asked about garbage, and that is no answer, never a pass.
    if (error instanceof RangeError) return { answered: false, askedAt, failure: 'invalid' };
    throw error;
  }
  try {
    const answer = await authenticity.satStatus(db).consult(expression);
    return { answered: true, askedAt, answer };
  } catch (error) {
    if (error instanceof SatStatusUnavailableError) return { answered: false, askedAt, failure: error.cause };
    throw error;
  }
}

/** Asks about many CFDI, at most `concurrency` at a time, answers in the questions' order. */
export async function askSatAll(
  authenticity: CfdiAuthenticity,
  db: Db,
  questions: readonly SatQuestion[],
  concurrency = SAT_CONCURRENCY,
): Promise<SatCheck[]> {
  const checks: SatCheck[] = new Array(questions.length);
  let next = 0;
  const worker = async () => {
    while (next < questions.length) {
      const index = next++;
      checks[index] = await askSat(authenticity, db, questions[index] as SatQuestion);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, questions.length) }, worker));
  return checks;
}

/** SAT's public service is shared by the whole country: a bulk upload asks a few at a time, not all at once. */
const SAT_CONCURRENCY = 8;
