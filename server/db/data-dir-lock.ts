import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from '../private-files';

export interface DataDirLock {
  release(): void;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `Another Flujo process (pid ${pid}) is using the data directory ${dataDir}. ` +
        'Stop it first, or start this one with a different DATA_DIR.',
    );
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM means the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lockFile(dataDir: string): string {
  return join(dataDir, 'flujo.lock');
}

/** The pid written in the lock file, live or not (this process's own included), or null without one. */
export function readDataDirLockPid(dataDir: string): number | null {
  let text: string;
  try {
    text = readFileSync(lockFile(dataDir), 'utf8');
  } catch {
    return null;
  }
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** The pid of another live Flujo process holding this data directory, or null when it is free. */
export function dataDirOwner(dataDir: string): number | null {
  const owner = readDataDirLockPid(dataDir);
  return owner !== null && owner !== process.pid && isAlive(owner) ? owner : null;
}

/**
 * PGlite is a single-process database: two processes on one directory corrupt it.
 * An O_EXCL lock file holding the owner's pid keeps the second one out; a stale file
 * (its pid is gone) is taken over so a crash never blocks the next start.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const file = lockFile(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', PRIVATE_FILE_MODE);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = dataDirOwner(dataDir);
      if (owner !== null) throw new DataDirLockedError(dataDir, owner);
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}
