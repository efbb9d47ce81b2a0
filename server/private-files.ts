import { chmodSync, mkdirSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

// Everything Flujo writes under DATA_DIR (the PGlite database, the development secrets, the demo authority's
// keys, the lock, the ops socket, the sandbox's CFDI) is for its own user only, whatever umask it was started
// with: 0700 directories, 0600 files (decision 0060).
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * From now on this process creates files and directories without group or other bits. Explicit modes cover
 * Flujo's own writes; this covers the rest, such as PGlite's files, whose modes come from the umask.
 */
export function keepNewFilesPrivate(): void {
  // A worker thread may not change the process's umask; it shares the main thread's.
  if (isMainThread) process.umask(0o077);
}

/** Creates the directory (and missing parents) owner-only, and tightens it if it already existed. */
export function privateDirectory(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  try {
    chmodSync(dir, PRIVATE_DIR_MODE);
  } catch (error) {
    // Another user's directory that we may write in: its owner decides who else may read it.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
  }
}
