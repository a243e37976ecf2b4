import { resolve } from 'node:path';
import { AppConfig } from '@app/core';
import { RenderAnswer, RenderJob, ReportRenderer } from '@app/reports';
import type { ReportThreadData } from '@app/reports/pure';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Piscina } from 'piscina';

/** MB of a report thread's young generation (V8 `--max-semi-space-size` × 3 in effect). */
const REPORT_YOUNG_GEN_MB = 8;
/**
 * MB a report thread's old generation may reach. Renders stream (a 100,000-row xlsx retains ~10 MB),
 * so this is far above need: it bounds a runaway report (the thread ends with ERR_WORKER_OUT_OF_MEMORY,
 * the run fails, the worker goes on) — and V8 grows a capped heap less eagerly: measured on the
 * 100,000-row xlsx rendered in a plain process, peak RSS 177 MB uncapped, 113 MB capped at 96–192 MB.
 */
const REPORT_OLD_GEN_MB = 256;

/**
 * The worker's report threads (piscina), apart from the CPU pool: `REPORT_THREADS` renders at once,
 * each on a thread of its own with its own two PostgreSQL connections (the snapshot's on the read
 * replica when it has replayed past the run's creation: docs/scaling.md), at the CPU pool's lowered
 * priority — so a 100,000-row report neither holds the event loop that drains webhooks nor the
 * threads dispatch computes on. Reports beyond that wait in piscina's queue (their runs stay
 * `running`, bounded by `REPORT_MAX_RUN_MS`).
 */
@Injectable()
export class ReportPool extends ReportRenderer implements OnApplicationShutdown {
  private readonly pool: Piscina;

  constructor(config: AppConfig) {
    super();
    this.pool = new Piscina({
      filename: resolve(__dirname, 'report-thread.js'),
      minThreads: 0,
      maxThreads: config.REPORT_THREADS,
      idleTimeout: 60_000,
      // a render keeps two cursor batches and one chunk: a small young generation is enough, and
      // V8's default (up to 3 × 16 MB semi-spaces) would be resident for nothing
      resourceLimits: { maxYoungGenerationSizeMb: REPORT_YOUNG_GEN_MB, maxOldGenerationSizeMb: REPORT_OLD_GEN_MB },
      workerData: {
        databaseUrl: config.DATABASE_URL,
        replicaUrl: config.DATABASE_REPLICA_URL,
        nice: config.CPU_POOL_NICE,
      } satisfies ReportThreadData,
    });
    new Logger('ReportPool').log(`report pool: up to ${config.REPORT_THREADS} threads`);
  }

  render(job: RenderJob): Promise<RenderAnswer> {
    return this.pool.run(job) as Promise<RenderAnswer>;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.close();
  }
}
