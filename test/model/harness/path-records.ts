import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { MODEL_RUN, readJsonRecords, writeJsonRecord } from './coverage-files';

/**
 * What `npm run test:model -- --report` needs from each model test file beyond its coverage record: every
 * generated path with its steps, the assertions that ran at each step and the result. Like the coverage
 * records, one JSON file per test file, because test files run in separate workers; the model project's
 * global teardown turns them into the report (`report.ts`).
 */

/** Set by scripts/test-model.ts with `--report`: the directory the report goes to. Unset, nothing is recorded. */
export const MODEL_REPORT_ENV = 'MODEL_REPORT_DIR';

// Resolved from the working directory: under happy-dom, import.meta.url is not a file: URL.
export const PATH_RECORDS_DIR = resolve('.tmp/model-paths', MODEL_RUN);

export interface AssertionRecord {
  /** The state assertion key of the model test file (`'#machine.state'` or a `matches` path). */
  key: string;
  /** expect() calls made while it ran (`expect.getState().assertionCalls` before and after). */
  expects: number;
  ok: boolean;
}

export interface StepRecord {
  /** 0 is the initial state (`xstate.init`, no gesture). */
  index: number;
  eventType: string;
  /** `formatEvent` with the model's events: the type plus the payload that tells its partition apart. */
  event: string;
  /** The machine's Spanish label for the event (`eventLabel`), when it has one. */
  eventLabel?: string;
  /** The state value the model expects after the step, dotted. */
  state: string;
  /** Spanish labels of the active leaf states, when the machine gives them. */
  stateLabels: string[];
  /** Whether the executor ran (false for the initial step and for steps after a failure). */
  executed: boolean;
  /** expect() calls made by the executor itself. */
  eventExpects: number;
  assertions: AssertionRecord[];
}

export type FailurePhase = 'setup' | 'render' | 'event' | 'state' | 'teardown';

export interface FailureRecord {
  message: string;
  phase: FailurePhase;
  /** The step whose event or state assertion threw; absent for setup, render and teardown failures. */
  step?: number;
  /** The state assertion key that threw (phase `state`). */
  key?: string;
}

export type PathStatus = 'passed' | 'failed' | 'not run';

export interface PathRecord {
  /** The test name: `stepLabel` of the path. */
  name: string;
  status: PathStatus;
  steps: StepRecord[];
  failure?: FailureRecord;
}

/** One of the meta-tests every model suite registers, with what it found wrong. */
export interface CheckRecord {
  /** The test name. */
  name: string;
  /** Its Spanish name in the report. */
  label: string;
  problems: string[];
}

export interface PathsRecord {
  id: string;
  checks: CheckRecord[];
  paths: PathRecord[];
}

export function writePathsRecord(record: PathsRecord, dir = PATH_RECORDS_DIR): void {
  writeJsonRecord(dir, record);
}

export function readPathsRecords(dir = PATH_RECORDS_DIR): PathsRecord[] {
  return readJsonRecords<PathsRecord>(dir);
}

export function clearPathsRecords(dir = PATH_RECORDS_DIR): void {
  rmSync(dir, { recursive: true, force: true });
}
