/**
 * A report thread's body (the worker hosts the piscina pool and its entry file,
 * `apps/worker/src/reports/report-thread.ts`): renders one report job ({@link renderJob}) with the
 * thread's own small `pg` pool (two connections: the read snapshot and the chunk writer) — and, with
 * a read replica, a second one on it for the snapshot (docs/scaling.md, "Read replica"). Loaded by
 * every report thread: it imports the reports lib's pure modules only — no Nest, no TypeORM.
 */
import { setPriority } from 'node:os';
import { Pool } from 'pg';
import { DomainError, ReplicaRouter, routedRead } from '@app/core/pure';
import type { RenderAnswer, RenderJob } from '../report-run';
import { renderJob } from './render-job';

/** A report thread's task: renders one job; `close` ends its connections. */
export type ReportThreadTask = ((job: RenderJob) => Promise<RenderAnswer>) & { close(): Promise<void> };

/** What the pool hands each thread (piscina's `workerData`). */
export interface ReportThreadData {
  databaseUrl: string;
  /** `DATABASE_REPLICA_URL`: the report's snapshot is read there once it has replayed past the run's `readLsn` */
  replicaUrl?: string;
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
 * `pg` pools open on the first job and live as long as the thread (`close` ends them: tests).
 */
export function reportThreadTask(data: ReportThreadData | undefined): ReportThreadTask {
  let pool: Pool | undefined;
  let replica: { pool: Pool; router: ReplicaRouter } | undefined;
  const task = async (job: RenderJob): Promise<RenderAnswer> => {
    pool ??= new Pool({ connectionString: data?.databaseUrl, max: 2, idleTimeoutMillis: 30_000, application_name: 'fieldwork-report' });
    if (data?.replicaUrl) replica ??= replicaOf(data.replicaUrl);
    const primary = pool;
    try {
      // on the replica when it has replayed past the run's creation; a render that fails there for
      // the replica's sake (gone, or a recovery conflict) runs again from the start on the primary
      const { value, server } = await routedRead(replica?.router, job.readLsn ?? null, (on) =>
        renderJob(primary, job, on === 'replica' ? replica!.pool : primary),
      );
      return { outcome: value, readFrom: server };
    } catch (err) {
      if (err instanceof DomainError) return { domainError: { kind: err.kind, message: err.message, field: err.field, rule: err.rule } };
      throw err;
    }
  };
  const close = async () => {
    await Promise.all([pool?.end(), replica?.pool.end()]);
    pool = replica = undefined;
  };
  return Object.assign(task, { close });
}

/**
 * The replica's pool in a report thread (the snapshot's connection, and the probe's) and its router, whose probe
 * asks the replica's `pg_last_wal_replay_lsn()` (null when the server is not a standby).
 */
function replicaOf(url: string): { pool: Pool; router: ReplicaRouter } {
  const pool = new Pool({
    connectionString: url,
    max: 2,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 2000,
    application_name: 'fieldwork-report-replica',
  });
  // an idle connection cut by the replica's restart is dropped by the pool; nothing else to do
  pool.on('error', () => undefined);
  const probe = async () =>
    (await pool.query<{ lsn: string | null }>(`SELECT CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()::text END AS lsn`))
      .rows[0].lsn;
  return { pool, router: new ReplicaRouter(probe) };
}
