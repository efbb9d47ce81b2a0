import { SatStatus } from '../../../src/domain/sat-status';
import { rfcsWithSatStatus } from '../accounts/company.repository';
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
  const waiting = await rfcsWithSatStatus(deps.db, SatStatus.SENT, { changedBefore: cutoff });
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

/** Starts the poller; returns its stop function. Ticks never overlap. */
export function startSandboxPoller(
  deps: SatLinkDeps,
  autoApproveSeconds: number,
  log: Log,
  intervalMs = Math.min(autoApproveSeconds, 2) * 1000,
): () => Promise<void> {
  const state: SandboxPollerState = { seen: new Map() };
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = sandboxTick(deps, autoApproveSeconds, state, log)
      .catch((error: unknown) => log.error({ err: error }, 'sandbox poller tick failed'))
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
