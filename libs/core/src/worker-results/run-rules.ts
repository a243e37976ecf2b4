import { AppConfig } from '../config/env';
import { DomainError, ErrorKind } from '../errors/domain-error';
import { QueueName } from '../queue/queues';

/** A run's life: `queued` (api wrote it) → `running` (a worker took it) → `done` | `failed` | `expired`. */
export type RunState = 'queued' | 'running' | 'done' | 'failed' | 'expired';

/** States a run never leaves. */
export const FINISHED_STATES: readonly RunState[] = ['done', 'failed', 'expired'];

/** A failed or expired run's reason as stored: a clean message, and the domain error's kind and field when it had one. */
export interface StoredRunError {
  message: string;
  kind?: ErrorKind;
  field?: string;
}

/**
 * How a family of runs waits and writes (CONTRACTS.md, "Worker results"):
 * - `dispatch`: runs that change jobs. The api waits `DISPATCH_TIMEOUT_MS`, and the write deadline is
 *   the same instant, so a client that got a timeout never finds its jobs changed behind its back.
 * - `report`: runs that change nothing but their own output. The api waits `REPORT_TIMEOUT_MS`; the
 *   write deadline is `REPORT_MAX_RUN_MS` after the run starts, so it can finish for a later read.
 */
export type RunProfile = 'dispatch' | 'report';

/** What a profile means in numbers: queue, the api's wait (ms), and the write deadline rule. */
export interface ProfileSettings {
  queue: typeof QueueName.Dispatch | typeof QueueName.Reports;
  /** ms the api waits for the answer (`answer_by` = created + this). */
  timeoutMs: number;
  /** `answer`: `write_by` = `answer_by`; `start`: `write_by` = start + `maxRunMs`. */
  writeBy: 'answer' | 'start';
  /** ms a start-relative run may take (null for `answer`). */
  maxRunMs: number | null;
  /** The word the timeout message starts with ("dispatch did not finish …"). */
  what: string;
  /**
   * Whether the run records the primary's WAL position at its creation, so its reads may go to the
   * replica once it has replayed past it (reports: docs/scaling.md, "Read replica").
   */
  readPosition: boolean;
}

/** The settings of `profile` under `config`. */
export function profileSettings(
  profile: RunProfile,
  config: Pick<AppConfig, 'DISPATCH_TIMEOUT_MS' | 'REPORT_TIMEOUT_MS' | 'REPORT_MAX_RUN_MS'>,
): ProfileSettings {
  switch (profile) {
    case 'dispatch':
      return {
        queue: QueueName.Dispatch,
        timeoutMs: config.DISPATCH_TIMEOUT_MS,
        writeBy: 'answer',
        maxRunMs: null,
        what: 'dispatch',
        readPosition: false,
      };
    case 'report':
      return {
        queue: QueueName.Reports,
        timeoutMs: config.REPORT_TIMEOUT_MS,
        writeBy: 'start',
        maxRunMs: config.REPORT_MAX_RUN_MS,
        what: 'report',
        readPosition: true,
      };
  }
}

/**
 * What the worker's writing transaction does once it holds the run's row lock:
 * - `skip`: the run is no longer `running` (the api or the sweep expired it, or another worker
 *   finished it): write nothing, change nothing;
 * - `expire`: `write_by` has passed (or was never set): write nothing, the run becomes `expired`;
 * - `write`: write the result (and the kind's own writes) and mark it `done`.
 * @param nowMs the database clock (ms) read under the lock (`clock_timestamp()`, not the transaction start).
 */
export function writeDecision(state: RunState, writeBy: number | null, nowMs: number): 'skip' | 'expire' | 'write' {
  if (state !== 'running') return 'skip';
  if (writeBy === null || nowMs >= writeBy) return 'expire';
  return 'write';
}

/**
 * The stored form of an error a handler threw: a {@link DomainError} keeps its kind, message and field
 * (the client gets the same answer the api would have given); anything else becomes
 * `internal error (id <errorId>)`, its stack only in the worker's log.
 */
export function storedError(err: unknown, errorId: string): StoredRunError {
  if (err instanceof DomainError) return { message: err.message, kind: err.kind, ...(err.field ? { field: err.field } : {}) };
  return { message: `internal error (id ${errorId})` };
}

/**
 * The message of a call whose run did not finish in time, e.g. "dispatch did not finish within 30 s;
 * nothing was changed". Runs whose write deadline is the answer deadline changed nothing; a
 * start-relative run keeps going.
 */
export function unfinishedMessage(settings: Pick<ProfileSettings, 'what' | 'writeBy'>, timeoutMs: number): string {
  const s = Number((timeoutMs / 1000).toFixed(timeoutMs < 10_000 ? 1 : 0));
  return settings.writeBy === 'answer'
    ? `${settings.what} did not finish within ${s} s; nothing was changed`
    : `${settings.what} did not finish within ${s} s; it is still being made`;
}

/** ms between re-reads of a waited-for run, as a safety net under LISTEN/NOTIFY (a lost notification only delays). */
export const RUN_RECHECK_MS = 1000;

/** ms of a wait slice: until the next re-read or the deadline, whichever is first (never negative). */
export function waitSliceMs(deadline: number, now: number, recheckMs = RUN_RECHECK_MS): number {
  return Math.max(0, Math.min(recheckMs, deadline - now));
}

/** The error a waiting api raises for a run that is not done: the stored domain error, or -99. */
export class RunUnfinishedError extends DomainError {
  constructor(
    message: string,
    /** The run's id: a report answers it as `reportId` so `getreport` can fetch the file later. */
    readonly runId: string,
    readonly state: RunState,
  ) {
    super('unavailable', message);
  }
}
