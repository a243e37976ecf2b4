import { Injectable, Logger, Optional } from '@nestjs/common';
import { newId } from '../ids';
import { CpuRunner, RunContext } from './run-kinds';
import { RunKindRegistry } from './run-kind-registry.service';
import { StoredRunError, storedError, writeDecision } from './run-rules';
import { WorkerRunsRepository } from './worker-runs.repository';

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
    private readonly runs: WorkerRunsRepository,
    private readonly registry: RunKindRegistry,
    @Optional() private readonly cpu?: CpuRunner,
  ) {}

  /** Executes run `runId` of `companyId` (the `run` task's body). Never throws for the run's own failures. */
  async execute(companyId: string, runId: string): Promise<RunOutcome> {
    const run = await this.runs.take(companyId, runId);
    if (!run) return { state: 'skipped', why: 'not queued (finished, expired, or taken by another worker)' };
    const handler = this.registry.get(run.kind);
    if (!handler) return this.fail(companyId, runId, { message: `no handler for run kind ${run.kind} in this worker` });
    const committed: Array<() => unknown> = [];
    const ctx: RunContext = {
      companyId,
      runId,
      memberId: run.memberId,
      writeBy: run.writeBy,
      readLsn: run.readLsn,
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
      const outcome = await this.runs.transaction(async (manager): Promise<RunOutcome> => {
        const locked = await this.runs.lock(manager, companyId, runId);
        const decision = locked ? writeDecision(locked.state, locked.writeBy, locked.now) : 'skip';
        if (decision === 'skip') return { state: 'skipped', why: `already ${locked?.state ?? 'gone'} when its result was ready` } as const;
        if (decision === 'expire') {
          await this.runs.finish(manager, companyId, runId, 'expired', null, { message: 'past write_by: nothing was written' });
          return { state: 'expired' } as const;
        }
        const result = handler.write ? await handler.write(manager, computed, ctx) : computed;
        const now = await this.runs.clockNow(manager);
        if (now >= locked!.writeBy!) throw new WriteDeadlinePassed();
        await this.runs.finish(manager, companyId, runId, 'done', result ?? null, null);
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
  sweep(): Promise<number> {
    return this.runs.sweep({ message: 'no worker finished it before write_by' });
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

  private async finishOutside(companyId: string, runId: string, state: 'failed' | 'expired', error: StoredRunError): Promise<void> {
    await this.runs.finishOutside(companyId, runId, state, error);
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
