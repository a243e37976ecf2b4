import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/env';
import { DomainError } from '../errors/domain-error';
import { newId } from '../ids';
import { TaskProducer } from '../queue/task-producer.service';
import { RunKind, RunParams, RunResult } from './run-kinds';
import { RunListener } from './run-listener.service';
import {
  FINISHED_STATES,
  profileSettings,
  RunProfile,
  RunUnfinishedError,
  StoredRunError,
  unfinishedMessage,
  waitSliceMs,
} from './run-rules';
import { RunView, WorkerRunsRepository } from './worker-runs.repository';

export type { RunView } from './worker-runs.repository';

/** Who a run is for. */
export interface RunOwner {
  companyId: string;
  memberId: string | null;
}

/** Options of one call. */
export interface RunCallOptions {
  profile: RunProfile;
  /** ms the api waits; default the profile's (`DISPATCH_TIMEOUT_MS` / `REPORT_TIMEOUT_MS`). */
  timeoutMs?: number;
}

/** A run written and queued, not yet waited for. */
export interface SubmittedRun {
  runId: string;
  companyId: string;
  /** `performance.now()` deadline of the api's wait (the run's `answer_by` in this process's clock). */
  deadline: number;
  timeoutMs: number;
  profile: RunProfile;
}

/**
 * The api side of worker results (CONTRACTS.md, "Worker results"): writes the run row, enqueues one
 * task naming it (bounded), and waits for the row to finish until `answer_by`, woken by the worker's
 * NOTIFY at commit ({@link RunListener}) with a re-read every second as a safety net.
 *
 * When the wait ends unanswered, a run whose write deadline is its answer deadline (dispatch) is
 * marked `expired` here — conditionally, only while still queued or running, under the same row
 * lock the worker's writing transaction takes, so exactly one of "worker wrote" and "api expired"
 * wins and the client's answer matches the database. A start-relative run (a report) is left to
 * finish; the worker's sweep expires it if its worker died.
 */
@Injectable()
export class WorkerResultsService {
  private readonly logger = new Logger('WorkerResults');

  constructor(
    private readonly runs: WorkerRunsRepository,
    private readonly producer: TaskProducer,
    private readonly listener: RunListener,
    private readonly config: AppConfig,
  ) {}

  /**
   * Runs `kind` in the worker and answers its result.
   * @throws DomainError the handler's own (e.g. `invalid` naming a field), as it threw it in the worker;
   * @throws RunUnfinishedError (`unavailable`, -99/503) when the run did not finish within the timeout
   *   or could not be queued (Redis down): "dispatch did not finish within 30 s; nothing was changed";
   * @throws Error `internal error (id …)` when the handler failed otherwise (its stack is in the worker's log).
   */
  async call<K extends RunKind>(kind: K, params: RunParams<K>, owner: RunOwner, opts: RunCallOptions): Promise<RunResult<K>> {
    const run = await this.submit(kind, params, owner, opts);
    return (await this.await(run)) as RunResult<K>;
  }

  /**
   * Writes the run row (`queued`) and enqueues its task, bounded by the run's own deadline.
   * @throws RunUnfinishedError when the task could not be queued; the run is then `failed`.
   */
  async submit<K extends RunKind>(kind: K, params: RunParams<K>, owner: RunOwner, opts: RunCallOptions): Promise<SubmittedRun> {
    const settings = profileSettings(opts.profile, this.config);
    const timeoutMs = opts.timeoutMs ?? settings.timeoutMs;
    const deadline = performance.now() + timeoutMs;
    const runId = newId();
    await this.runs.insertQueued({
      companyId: owner.companyId,
      id: runId,
      memberId: owner.memberId,
      kind,
      params,
      timeoutMs,
      writeByAnswer: settings.writeBy === 'answer',
      maxRunMs: settings.maxRunMs,
      readPosition: settings.readPosition,
    });
    const run: SubmittedRun = { runId, companyId: owner.companyId, deadline, timeoutMs, profile: opts.profile };
    try {
      await this.boundedEnqueue(settings.queue, run);
    } catch (err) {
      // fail the run unless a worker already took it (the add may have landed after our timer)
      const failed = await this.runs.failQueued(owner.companyId, runId, {
        message: `queue unavailable: ${(err as Error).message}`,
        kind: 'unavailable',
      } satisfies StoredRunError);
      if (failed) {
        this.logger.warn(`run ${runId} (${kind}) could not be queued: ${(err as Error).message}`);
        throw new RunUnfinishedError(`${settings.what} could not be queued (queue unavailable); nothing was changed`, runId, 'failed');
      }
    }
    return run;
  }

  /**
   * Waits for a submitted run until its deadline and answers its result (errors as {@link call}).
   */
  async await(run: SubmittedRun): Promise<unknown> {
    const settings = profileSettings(run.profile, this.config);
    const sub = await this.listener.subscribe(run.runId, waitSliceMs(run.deadline, performance.now()));
    let row: RunView | undefined;
    try {
      for (;;) {
        row = await this.find(run.companyId, run.runId);
        if (!row || FINISHED_STATES.includes(row.state) || performance.now() >= run.deadline) break;
        await sub.next(waitSliceMs(run.deadline, performance.now()));
      }
    } finally {
      sub.close();
    }
    if (row && !FINISHED_STATES.includes(row.state) && settings.writeBy === 'answer') {
      // our answer is "nothing was changed": make it true before saying it (waits for the worker's row lock)
      await this.runs.expireOpen(run.companyId, run.runId, { message: 'the api stopped waiting at answer_by' });
      row = await this.find(run.companyId, run.runId);
    }
    if (!row) throw new Error(`run ${run.runId} vanished`);
    return this.answer(row, settings, run.timeoutMs);
  }

  /** The result of a finished run, or the error its state stands for. */
  private answer(row: RunView, settings: ReturnType<typeof profileSettings>, timeoutMs: number): unknown {
    switch (row.state) {
      case 'done':
        return row.result;
      case 'failed': {
        const e = row.error;
        // never queued (Redis down at submit): answered like a run that did not finish, with its id
        if (e?.kind === 'unavailable') throw new RunUnfinishedError(unfinishedMessage(settings, timeoutMs), row.id, row.state);
        if (e?.kind) throw new DomainError(e.kind, e.message, e.field);
        throw new Error(`${settings.what} failed: ${e?.message ?? 'unknown error'}`);
      }
      case 'expired':
      case 'queued':
      case 'running':
        throw new RunUnfinishedError(unfinishedMessage(settings, timeoutMs), row.id, row.state);
    }
  }

  /** A run of the company, or undefined (another company's runs are unknown ids). */
  find(companyId: string, runId: string): Promise<RunView | undefined> {
    return this.runs.find(companyId, runId);
  }

  /**
   * Adds the run's task, given at most the time left until the deadline (and never more than 5 s):
   * the api's queue connection fails fast while Redis is down (no offline queue), and this timer
   * covers a Redis that accepts connections but does not answer. The task id is the run id, so a
   * retried add never makes a second task.
   */
  private async boundedEnqueue(queue: ReturnType<typeof profileSettings>['queue'], run: SubmittedRun): Promise<void> {
    const ms = Math.min(5000, Math.max(0, run.deadline - performance.now()));
    let timer: NodeJS.Timeout | undefined;
    const add = this.producer.add(queue, 'run', { companyId: run.companyId, runId: run.runId }, { jobId: run.runId });
    add.catch(() => undefined); // the race below reports it; a late rejection must not go unhandled
    try {
      await Promise.race([
        add,
        new Promise<never>(
          (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer from Redis within ${Math.round(ms)} ms`)), ms)),
        ),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
