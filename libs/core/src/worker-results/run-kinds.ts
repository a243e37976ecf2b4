import { EntityManager } from 'typeorm';
import { CpuTaskName, CpuTasks } from './cpu-tasks';

/**
 * Every run kind with its parameters and result (STYLE.md §6, typed like the queue tasks), so callers
 * and handlers are checked by the compiler. A domain lib adds its kinds by augmenting this interface
 * from its own code, e.g.
 * `declare module '@app/core' { interface RunKinds { distributejobs: { params: DistributeParams; result: DistributeAnswer } } }`,
 * and registers their handlers with `RunKindRegistry`.
 */
export interface RunKinds {
  /** Test only: answers its params. */
  'test.echo': { params: { value: unknown }; result: { value: unknown } };
  /** Test only: waits `ms`, then writes a `test_marker` notification (job id = `marker`) in the writing transaction. */
  'test.sleep': { params: { ms: number; marker: string }; result: { slept: number } };
  /** Test only: keeps a CPU busy for `ms` in the worker's CPU pool. */
  'test.cpu': { params: { ms: number }; result: { spun: number; threadId: number } };
  /** Test only: throws; a DomainError of `kind` when given, else a plain Error. */
  'test.fail': { params: { message: string; kind?: 'invalid' | 'not_found' }; result: never };
}
export type RunKind = keyof RunKinds & string;
export type RunParams<K extends RunKind> = RunKinds[K]['params'];
export type RunResult<K extends RunKind> = RunKinds[K]['result'];

/**
 * Runs a pure function by name on the worker's thread pool (the worker app provides it; absent in
 * the api). CPU-heavy work goes through it so the event loop that drains webhooks stays free.
 */
export abstract class CpuRunner {
  abstract run<N extends CpuTaskName>(name: N, input: CpuTasks[N]['input']): Promise<CpuTasks[N]['output']>;
}

/** What a handler knows of its run. */
export interface RunContext {
  companyId: string;
  memberId: string | null;
  runId: string;
  /** ms, database clock: nothing is written past it (checked by the executor under the row lock). */
  writeBy: number;
  /**
   * The primary's WAL position when the run was created (pg_lsn text), for reads that may go to the
   * replica (docs/scaling.md, "Read replica"); null when the run reads on the primary only.
   */
  readLsn: string | null;
  /** The worker's CPU pool. */
  cpu: CpuRunner;
  /**
   * Runs `fn` once the writing transaction has committed with the run `done` (never on rollback or
   * expiry), e.g. `() => outbox.wake(eventIds)` for the events `write` appended. Errors are logged.
   */
  afterCommit(fn: () => unknown): void;
}

/**
 * A kind's work in two steps:
 * - `compute` runs outside any transaction: reads, and CPU work through `ctx.cpu`;
 * - `write` (optional) runs inside the run's writing transaction, after the executor checked
 *   `write_by` under the run's row lock: the kind's own writes (job changes, events through the
 *   outbox, a report's file) go through `manager`, so they commit with the result or not at all.
 *   It answers the result; without `write`, what `compute` answered is the result.
 * Throw {@link DomainError} for answers the client should get as they are (e.g. -1 naming a field).
 */
export interface RunHandler<K extends RunKind, C = RunResult<K>> {
  compute(params: RunParams<K>, ctx: RunContext): Promise<C>;
  write?(manager: EntityManager, computed: C, ctx: RunContext): Promise<RunResult<K>>;
}

/** A registered handler with its types erased (the registry checks them at `register`). */
export interface AnyRunHandler {
  compute(params: unknown, ctx: RunContext): Promise<unknown>;
  write?(manager: EntityManager, computed: unknown, ctx: RunContext): Promise<unknown>;
}
