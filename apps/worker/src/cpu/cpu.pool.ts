import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { AppConfig, CpuRunner, CpuTaskName, CpuTasks } from '@app/core';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Piscina } from 'piscina';
import type { CpuThreadData } from './cpu-functions';

/** Threads of the pool: `CPU_POOL_THREADS`, or max(1, cores − 1) when it is 0 (one core stays with the event loop). */
export function cpuPoolThreads(config: Pick<AppConfig, 'CPU_POOL_THREADS'>, cores = availableParallelism()): number {
  return config.CPU_POOL_THREADS > 0 ? config.CPU_POOL_THREADS : Math.max(1, cores - 1);
}

/**
 * The worker's worker-thread pool (piscina) for CPU-heavy run kinds: route search, clustering,
 * report rendering run here, never on the event loop that drains webhooks (CONTRACTS.md, "Worker
 * results"). Threads start on first use, lower their own priority (`CPU_POOL_NICE`, so the event loops
 * win the cores under contention) and idle out after a minute. On shutdown the pool closes after
 * the run processors' workers have closed (their `beforeApplicationShutdown`, which waits for in-flight
 * runs), and piscina's `close()` lets any task still running finish.
 */
@Injectable()
export class CpuPool extends CpuRunner implements OnApplicationShutdown {
  private readonly logger = new Logger('CpuPool');
  private readonly pool: Piscina;

  constructor(config: AppConfig) {
    super();
    const threads = cpuPoolThreads(config);
    this.pool = new Piscina({
      // the compiled entry beside this file (the worker runs from dist/)
      filename: resolve(__dirname, 'cpu-functions.js'),
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 60_000,
      workerData: { nice: config.CPU_POOL_NICE } satisfies CpuThreadData,
    });
    this.logger.log(`CPU pool: up to ${threads} threads at nice ${config.CPU_POOL_NICE}`);
  }

  run<N extends CpuTaskName>(name: N, input: CpuTasks[N]['input']): Promise<CpuTasks[N]['output']> {
    return this.pool.run({ name, input }) as Promise<CpuTasks[N]['output']>;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.close();
  }
}
