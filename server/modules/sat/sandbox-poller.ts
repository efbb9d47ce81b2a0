import { satClaimExpiryCutoff } from '../../../src/domain/sat-claim';
import { SatStatus } from '../../../src/domain/sat-status';
import type { Job } from '../../jobs/job-runner';
import { pendingClaimRfcs, rfcsWithSatStatus } from '../accounts/company.repository';
import { approveSatLink, type SatLinkDeps, syncIssuedCfdi } from './sat-link.service';

type Log = { info(object: object, message: string): void; error(object: object, message: string): void };

/** Development only (SAT_AUTO_APPROVE_SECONDS): what one tick of the sandbox poller did. */
export interface SandboxTickResult {
  approved: string[];
  synced: string[];
}

export interface SandboxPollerState {
  /** Folder mtimes already synced, per RFC. */
  seen: Map<string, number>;
}

/**
 * One tick of the development poller: approves SAT links that have waited `autoApproveSeconds` (as if SAT
 * and the operator had said yes), and imports new sandbox files of authorized RFCs, so `sat:generate` works
 * while a PGlite server holds the database. Never enabled in production (config refuses it).
 */
export async function sandboxTick(
  deps: SatLinkDeps,
  autoApproveSeconds: number,
  state: SandboxPollerState,
  log?: Log,
): Promise<SandboxTickResult> {
  const result: SandboxTickResult = { approved: [], synced: [] };
  const cutoff = new Date(deps.now().getTime() - autoApproveSeconds * 1000).toISOString();
  // Per RFC, not per claim: the approval picks the oldest claim and rejects the others.
  const waiting = await pendingClaimRfcs(deps.db, {
    changedBefore: cutoff,
    lapsedAt: satClaimExpiryCutoff(deps.now()).toISOString(),
  });
  for (const rfc of waiting) {
    try {
      await approveSatLink(deps, rfc);
      state.seen.set(rfc, deps.connector.lastChange(rfc) ?? 0);
      result.approved.push(rfc);
      log?.info({ rfc }, 'SAT link auto-approved (SAT_AUTO_APPROVE_SECONDS)');
    } catch (error) {
      log?.error({ err: error, rfc }, 'SAT auto-approval failed');
    }
  }

  const authorized = await rfcsWithSatStatus(deps.db, SatStatus.AUTHORIZED);
  for (const rfc of authorized) {
    const changed = deps.connector.lastChange(rfc);
    if (changed === null || state.seen.get(rfc) === changed) continue;
    try {
      const sync = await syncIssuedCfdi(deps, rfc);
      state.seen.set(rfc, changed);
      if (sync.imported.length > 0) {
        result.synced.push(rfc);
        log?.info({ rfc, imported: sync.imported.length }, 'sandbox CFDI imported');
      }
    } catch (error) {
      log?.error({ err: error, rfc }, 'sandbox CFDI sync failed');
    }
  }
  return result;
}

/**
 * The poller as a job of server/jobs: one process per tick across all of them. Each process keeps its own
 * `seen` map; a process that missed a change just syncs again, which imports nothing twice (stamp UUIDs).
 */
export function sandboxJob(deps: SatLinkDeps, autoApproveSeconds: number, log: Log): Job {
  const state: SandboxPollerState = { seen: new Map() };
  return {
    name: 'sat-sandbox',
    scope: 'once',
    everyMs: Math.min(autoApproveSeconds, 2) * 1000,
    leaseMs: 60_000,
    async run() {
      const result = await sandboxTick(deps, autoApproveSeconds, state, log);
      const done = result.approved.length + result.synced.length;
      return done > 0 ? `${result.approved.length} approved, ${result.synced.length} synced` : undefined;
    },
  };
}
