import { AppConfig, closeWorkers, loadConfig, QueueName, RunExecutor, TaskPayloads } from '@app/core';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Job } from 'bullmq';
import { cpuPoolThreads } from '../cpu/cpu.pool';
import { workerOptions } from './maintenance.processor';

type RunTask<Q extends typeof QueueName.Dispatch | typeof QueueName.Reports> = {
  [T in keyof TaskPayloads[Q]]: Job<TaskPayloads[Q][T], unknown, T & string>;
}[keyof TaskPayloads[Q]];

/** ms between sweeps of runs nobody will finish. */
const SWEEP_MS = 60_000;

/**
 * Runs at once per worker: twice the CPU pool's threads (CPU kinds wait in the pool while I/O
 * kinds proceed), at least 2. The lock is renewed by BullMQ while the loop is free (CPU work is off it).
 */
function runWorkerOptions() {
  const config = loadConfig();
  return { ...workerOptions(), concurrency: Math.max(2, 2 * cpuPoolThreads(config)) };
}

/** Dispatch runs: thin, hands each `run` task to {@link RunExecutor}; also sweeps runs nobody will finish. */
@Processor(QueueName.Dispatch, runWorkerOptions())
export class DispatchRunsProcessor extends WorkerHost implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Runs');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly executor: RunExecutor,
    private readonly config: AppConfig,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.executor.sweep().then(
        (n) => n && this.logger.warn(`expired ${n} runs nobody finished before write_by`),
        (err: Error) => this.logger.warn(`run sweep failed: ${err.message}`),
      );
    }, SWEEP_MS);
    this.timer.unref();
  }

  /** Closes this queue's worker first (its in-flight runs finish), so the CPU pool closes after them. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await closeWorkers([this.worker], this.logger);
  }

  async process(task: RunTask<typeof QueueName.Dispatch>): Promise<unknown> {
    switch (task.name) {
      case 'run':
        return this.executor.execute(task.data.companyId, task.data.runId);
    }
  }
}

/** Report runs: the same executor on the reports queue (its own concurrency, so long reports never hold dispatch back). */
@Processor(QueueName.Reports, runWorkerOptions())
export class ReportRunsProcessor extends WorkerHost implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Runs');

  constructor(private readonly executor: RunExecutor) {
    super();
  }

  /** Closes this queue's worker first (its in-flight runs finish), so the CPU pool closes after them. */
  async beforeApplicationShutdown(): Promise<void> {
    await closeWorkers([this.worker], this.logger);
  }

  async process(task: RunTask<typeof QueueName.Reports>): Promise<unknown> {
    switch (task.name) {
      case 'run':
        return this.executor.execute(task.data.companyId, task.data.runId);
    }
  }
}
