/**
 * The report pool's thread entry: renders one report job (`@app/reports` renderJob) with this thread's
 * own small `pg` pool (two connections: the read snapshot and the chunk writer). Loaded by every
 * report thread from the compiled `dist` JS, so it imports the reports lib's pure modules only — no
 * Nest, no TypeORM.
 */
import { setPriority } from 'node:os';
import { Pool } from 'pg';
import { isWorkerThread, workerData } from 'piscina';
import { DomainError } from '@app/core/pure';
import { renderJob } from '@app/reports/render/render-job';
import type { RenderAnswer, RenderJob } from '@app/reports/report-run';

/** What the pool hands each thread (piscina's `workerData`). */
export interface ReportThreadData {
  databaseUrl: string;
  /** the nice value the thread gives itself (`CPU_POOL_NICE`) */
  nice: number;
}

const data = workerData as ReportThreadData | undefined;
if (isWorkerThread && data) {
  try {
    setPriority(data.nice);
  } catch {
    // lowering never needs privileges; where the OS refuses anyway the thread runs at the process's priority
  }
}

let pool: Pool | undefined;

/**
 * One job of the pool: renders it and answers the stored file's size, chunks and rows — or the
 * DomainError it met as plain data (a thread's errors cross to the main thread by structured clone,
 * which keeps only name and message), for the kind to raise again.
 */
export default async function renderReportTask(job: RenderJob): Promise<RenderAnswer> {
  pool ??= new Pool({ connectionString: data?.databaseUrl, max: 2, idleTimeoutMillis: 30_000, application_name: 'fieldwork-report' });
  try {
    return { outcome: await renderJob(pool, job) };
  } catch (err) {
    if (err instanceof DomainError) return { domainError: { kind: err.kind, message: err.message, field: err.field, rule: err.rule } };
    throw err;
  }
}
