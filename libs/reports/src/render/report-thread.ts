/**
 * A report thread's body (the worker hosts the piscina pool and its entry file,
 * `apps/worker/src/reports/report-thread.ts`): renders one report job ({@link renderJob}) with the
 * thread's own small `pg` pool (two connections: the read snapshot and the chunk writer). Loaded by
 * every report thread: it imports the reports lib's pure modules only — no Nest, no TypeORM.
 */
import { setPriority } from 'node:os';
import { Pool } from 'pg';
import { DomainError } from '@app/core/pure';
import type { RenderAnswer, RenderJob } from '../report-run';
import { renderJob } from './render-job';

/** What the pool hands each thread (piscina's `workerData`). */
export interface ReportThreadData {
  databaseUrl: string;
  /** the nice value the thread gives itself (`CPU_POOL_NICE`) */
  nice: number;
}

/**
 * Lowers the calling thread's priority to `nice` (per thread on Linux: the worker's event loop keeps
 * its own). Lowering never needs privileges; where the OS refuses anyway the thread runs at the
 * process's priority.
 */
export function lowerReportThreadPriority(nice: number): void {
  try {
    setPriority(nice);
  } catch {
    // see above: the thread runs on at the process's priority
  }
}

/**
 * The thread's task over `data`'s database: one job renders and answers the stored file's size,
 * chunks and rows — or the DomainError it met as plain data (a thread's errors cross to the main
 * thread by structured clone, which keeps only name and message), for the kind to raise again. The
 * `pg` pool opens on the first job and lives as long as the thread.
 */
export function reportThreadTask(data: ReportThreadData | undefined): (job: RenderJob) => Promise<RenderAnswer> {
  let pool: Pool | undefined;
  return async (job) => {
    pool ??= new Pool({ connectionString: data?.databaseUrl, max: 2, idleTimeoutMillis: 30_000, application_name: 'fieldwork-report' });
    try {
      return { outcome: await renderJob(pool, job) };
    } catch (err) {
      if (err instanceof DomainError) return { domainError: { kind: err.kind, message: err.message, field: err.field, rule: err.rule } };
      throw err;
    }
  };
}
