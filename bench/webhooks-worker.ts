/**
 * The BUILT worker (`dist/apps/worker/src/main.js`) as one child process for the webhook benchmark,
 * with the bench's database and queue prefix, and its CPU time read from /proc (Linux).
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { Child } from '../test/support/proc-child';
import { startWorker } from '../test/support/worker';

export interface WorkerSettings {
  concurrency: number;
  maxInFlightPerEndpoint: number;
  /** the worker's `WEBHOOK_CLAIM_ROUNDS` (unset: the app's default) */
  claimRounds?: number;
}

/**
 * Starts the worker with the bench's settings (and `extraEnv`, e.g. `REDIS_CLUSTER_NODES`) and waits
 * until its heartbeat row is written.
 * @throws with the worker's output when it exits or does not come up within 30 s.
 */
export async function startBenchWorker(
  pool: pg.Pool,
  settings: WorkerSettings,
  extraEnv: Record<string, string> = {},
  label = 'bench worker',
): Promise<Child> {
  const env = {
    DATABASE_URL: process.env.DATABASE_URL,
    QUEUE_PREFIX: process.env.QUEUE_PREFIX,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_CONCURRENCY: String(settings.concurrency),
    WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: String(settings.maxInFlightPerEndpoint),
    ...(settings.claimRounds ? { WEBHOOK_CLAIM_ROUNDS: String(settings.claimRounds) } : {}),
    // the worker's pool: the app's default (10), unless a BENCH_WEBHOOK_WORKER_POOL_SIZE experiment says otherwise
    DATABASE_POOL_SIZE: process.env.BENCH_WEBHOOK_WORKER_POOL_SIZE ?? '10',
    ...extraEnv,
  };
  // node flags for experiments, e.g. BENCH_WEBHOOK_WORKER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"
  const nodeArgs = process.env.BENCH_WEBHOOK_WORKER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  return startWorker(label, env, (sql, params) => pool.query(sql, params), nodeArgs);
}

/** CPU seconds (user + system) the process has used so far, or NaN where /proc is not readable. */
export function cpuSeconds(pid: number): number {
  try {
    // fields after the ")" of the command name: state is field 3, utime 14, stime 15
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
  } catch {
    return NaN;
  }
}
