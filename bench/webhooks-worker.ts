/**
 * The BUILT worker (`dist/apps/worker/src/main.js`) as one child process for the webhook benchmark,
 * with the bench's database and queue prefix, and its CPU time read from /proc (Linux).
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { resolve } from 'node:path';
import { Child, childEnv, ROOT, spawnNode, waitFor } from '../test/support/proc-child';

export interface WorkerSettings {
  concurrency: number;
  maxInFlightPerEndpoint: number;
}

/**
 * Starts the worker and waits until its heartbeat row is written (its processors are then set up).
 * @throws with the worker's output when it exits or does not come up within 30 s.
 */
export async function startWorker(pool: pg.Pool, settings: WorkerSettings): Promise<Child> {
  const env = {
    DATABASE_URL: process.env.DATABASE_URL,
    QUEUE_PREFIX: process.env.QUEUE_PREFIX,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_CONCURRENCY: String(settings.concurrency),
    WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: String(settings.maxInFlightPerEndpoint),
    // the worker's pool: the app's default (10), unless a BENCH_WEBHOOK_WORKER_POOL_SIZE experiment says otherwise
    DATABASE_POOL_SIZE: process.env.BENCH_WEBHOOK_WORKER_POOL_SIZE ?? '10',
  };
  // node flags for experiments, e.g. BENCH_WEBHOOK_WORKER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"
  const nodeArgs = process.env.BENCH_WEBHOOK_WORKER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const script = 'dist/apps/worker/src/main.js';
  const child = nodeArgs.length
    ? new Child('bench worker', process.execPath, [...nodeArgs, resolve(ROOT, script)], childEnv(env))
    : spawnNode('bench worker', script, env);
  try {
    await Promise.race([
      waitFor(
        'the worker heartbeat',
        async () => {
          const { rows } = await pool.query(`SELECT 1 FROM worker_heartbeats WHERE id LIKE $1 AND stopped_at IS NULL`, [
            `%:${child.pid}:%`,
          ]);
          return rows.length > 0;
        },
        { timeoutMs: 30_000, intervalMs: 100 },
      ),
      child.exited.then((exit) => Promise.reject(new Error(`the worker exited during start-up: ${JSON.stringify(exit)}`))),
    ]);
  } catch (err) {
    await child.stop('SIGKILL');
    throw new Error(`${(err as Error).message}\n${child.output()}`);
  }
  return child;
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
