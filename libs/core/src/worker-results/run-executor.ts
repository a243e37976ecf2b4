import { Injectable, Logger, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { newId } from '../ids';
import { query, queryOne } from '../database/query';
import { SQL_NOW_MS } from '../time';
import { CpuRunner, RunContext, RunKindRegistry } from './run-kinds';
import { RUN_CHANNEL } from './run-listener';
import { RunState, StoredRunError, storedError, writeDecision } from './run-rules';

/** The database clock under the lock: `clock_timestamp()`, not the transaction's start. */
const SQL_CLOCK_MS = `(floor(extract(epoch from clock_timestamp()) * 1000))::bigint`;

/** How one task ended, for the processor's return value and logs. */
export type RunOutcome = { state: 'done' | 'failed' | 'expired' } | { state: 'skipped'; why: string };

/** Thrown inside the writing transaction to roll the kind's writes back when `write_by` passed meanwhile. */
class WriteDeadlinePassed extends Error {}

/**
 * The worker side of worker results: takes a run (`queued` → `running`, so a task BullMQ hands out
 * twice — a stalled one after a crash — runs at most once), computes it with its kind's handler, then
 * writes the result and the kind's own writes in ONE transaction that first locks the run's row and
 * checks `write_by` (and checks it again just before commit): past it, nothing is written and the run
 * is `expired`. Failures become `failed` with a clean message. Every finish notifies the api.
 */
@Injectable()
export class RunExecutor {
  private readonly logger = new Logger('Runs');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly registry: RunKindRegistry,
    @Optional() private readonly cpu?: CpuRunner,
  ) {}

  /** Executes run `runId` of `companyId` (the `run` task's body). Never throws for the run's own failures. */
  async execute(companyId: string, runId: string): Promise<RunOutcome> {
    const run = await queryOne<{ kind: string; params: unknown; memberId: string | null; writeBy: number }>(
      this.dataSource,
      `UPDATE worker_runs SET state = 'running', started_at = ${SQL_NOW_MS},
              write_by = coalesce(write_by, ${SQL_NOW_MS} + max_run_ms)
        WHERE company_id = $1 AND id = $2 AND state = 'queued'
        RETURNING kind, params, member_id AS "memberId", write_by::float8 AS "writeBy"`,
      [companyId, runId],
    );
    if (!run) return { state: 'skipped', why: 'not queued (finished, expired, or taken by another worker)' };
    const handler = this.registry.get(run.kind);
    if (!handler) return this.fail(companyId, runId, { message: `no handler for run kind ${run.kind} in this worker` });
    const committed: Array<() => unknown> = [];
    const ctx: RunContext = {
      companyId,
      runId,
      memberId: run.memberId,
      writeBy: run.writeBy,
      cpu: this.cpuRunner(),
      afterCommit: (fn) => committed.push(fn),
    };
    let computed: unknown;
    try {
      computed = await handler.compute(run.params, ctx);
    } catch (err) {
      return this.failWith(run.kind, companyId, runId, err);
    }
    try {
      const outcome = await this.dataSource.transaction(async (manager): Promise<RunOutcome> => {
        const locked = await this.lock(manager, companyId, runId);
        const decision = locked ? writeDecision(locked.state, locked.writeBy, locked.now) : 'skip';
        if (decision === 'skip') return { state: 'skipped', why: `already ${locked?.state ?? 'gone'} when its result was ready` } as const;
        if (decision === 'expire') {
          await this.finish(manager, companyId, runId, 'expired', null, { message: 'past write_by: nothing was written' });
          return { state: 'expired' } as const;
        }
        const result = handler.write ? await handler.write(manager, computed, ctx) : computed;
        const now = await queryOne<{ now: number }>(manager, `SELECT ${SQL_CLOCK_MS}::float8 AS now`);
        if (now!.now >= locked!.writeBy!) throw new WriteDeadlinePassed();
        await this.finish(manager, companyId, runId, 'done', result ?? null, null);
        return { state: 'done' } as const;
      });
      if (outcome.state === 'done') this.runAfterCommit(runId, committed);
      return outcome;
    } catch (err) {
      if (err instanceof WriteDeadlinePassed) {
        await this.finishOutside(companyId, runId, 'expired', { message: 'past write_by while writing: nothing was written' });
        return { state: 'expired' };
      }
      return this.failWith(run.kind, companyId, runId, err);
    }
  }

  /**
   * Expires runs nobody will finish: still queued or running past their write deadline (a worker that
   * died mid-run, a task Redis lost). Platform-wide housekeeping, run by the worker on a timer.
   * Dispatch runs are normally expired by the waiting api at once; this catches reports and api crashes.
   * @returns how many runs it expired.
   */
  async sweep(): Promise<number> {
    const rows = await query(
      this.dataSource,
      `UPDATE worker_runs SET state = 'expired', finished_at = ${SQL_NOW_MS}, error = $1
        WHERE state IN ('queued', 'running') AND answer_by < ${SQL_NOW_MS}
          AND coalesce(write_by, answer_by + coalesce(max_run_ms, 0)) < ${SQL_NOW_MS}
        RETURNING id`,
      [JSON.stringify({ message: 'no worker finished it before write_by' })],
    );
    return rows.length;
  }

  private runAfterCommit(runId: string, fns: Array<() => unknown>): void {
    for (const fn of fns) {
      try {
        Promise.resolve(fn()).catch((err: Error) => this.logger.warn(`after-commit step of run ${runId} failed: ${err.message}`));
      } catch (err) {
        this.logger.warn(`after-commit step of run ${runId} failed: ${(err as Error).message}`);
      }
    }
  }

  private cpuRunner(): CpuRunner {
    if (this.cpu) return this.cpu;
    return {
      run: () => Promise.reject(new Error('no CPU pool in this process')),
    };
  }

  private async lock(manager: EntityManager, companyId: string, runId: string) {
    return queryOne<{ state: RunState; writeBy: number | null; now: number }>(
      manager,
      `SELECT state, write_by::float8 AS "writeBy", ${SQL_CLOCK_MS}::float8 AS now
         FROM worker_runs WHERE company_id = $1 AND id = $2 FOR UPDATE`,
      [companyId, runId],
    );
  }

  /** Marks the run finished and notifies the api (delivered at commit). */
  private async finish(
    manager: EntityManager | DataSource,
    companyId: string,
    runId: string,
    state: 'done' | 'failed' | 'expired',
    result: unknown,
    error: StoredRunError | null,
  ): Promise<boolean> {
    const rows = await query(
      manager,
      `WITH f AS (
         UPDATE worker_runs SET state = $3, result = $4, error = $5, finished_at = ${SQL_NOW_MS}
          WHERE company_id = $1 AND id = $2 AND state = 'running' RETURNING id)
       SELECT pg_notify('${RUN_CHANNEL}', id) FROM f`,
      [companyId, runId, state, result === null ? null : JSON.stringify(result), error ? JSON.stringify(error) : null],
    );
    return rows.length > 0;
  }

  private async finishOutside(companyId: string, runId: string, state: 'failed' | 'expired', error: StoredRunError): Promise<void> {
    await this.finish(this.dataSource, companyId, runId, state, null, error);
  }

  private async fail(companyId: string, runId: string, error: StoredRunError): Promise<RunOutcome> {
    await this.finishOutside(companyId, runId, 'failed', error);
    return { state: 'failed' };
  }

  /** Logs an unexpected error with an id (its stack stays here) and stores the clean message. */
  private async failWith(kind: string, companyId: string, runId: string, err: unknown): Promise<RunOutcome> {
    const errorId = newId();
    const stored = storedError(err, errorId);
    if (!stored.kind) this.logger.error(`run ${runId} (${kind}) failed, error id ${errorId}: ${(err as Error)?.stack ?? String(err)}`);
    return this.fail(companyId, runId, stored);
  }
}
