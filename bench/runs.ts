/**
 * The worker-results round trip: a no-op run (`test.echo`) through the whole mechanism — run row,
 * bounded enqueue, the BUILT worker taking the run, its writing transaction, NOTIFY, the api's read —
 * against a bare BullMQ `add` + `waitUntilFinished` to a bare worker process returning the payload.
 * Calls alternate (ours, baseline, ours, …) so both see the same machine load.
 */
import { RunOwner, WorkerResultsService } from '@app/core';
import { Queue, QueueEvents } from 'bullmq';
import pg from 'pg';
import { TestApi } from '../test/support/api';
import { Child, childEnv, waitFor } from '../test/support/proc-child';
import { startWorker } from '../test/support/worker';
import { fmt, percentile } from './stats';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

export const RUNS_CONFIG = { warmups: envInt('BENCH_RUN_WARMUPS', 20), iterations: envInt('BENCH_RUN_ITERATIONS', 200) };

export interface RunFigures {
  iterations: number;
  ours: { p50: number; p99: number };
  baseline: { p50: number; p99: number };
}

const BASELINE_QUEUE = 'bench-bare-runs';

/** The baseline's worker: a bare BullMQ Worker answering each task's payload, in a child process like ours. */
const BASELINE_WORKER = `
const { Worker } = require('bullmq');
const u = new URL(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
const connection = { host: u.hostname, port: Number(u.port || 6379), maxRetriesPerRequest: null };
const w = new Worker(${JSON.stringify(BASELINE_QUEUE)}, async (job) => job.data, { connection, prefix: process.env.QUEUE_PREFIX, concurrency: 4 });
w.waitUntilReady().then(() => console.log('baseline worker ready'));
process.on('SIGTERM', () => w.close().finally(() => process.exit(0)));
`;

const opened: { children: Child[]; close: Array<() => Promise<unknown>> } = { children: [], close: [] };

/** Stops the two worker children and closes the baseline's queue connections. Safe to call twice. */
export async function closeRuns(): Promise<void> {
  for (const c of opened.close.splice(0)) await c().catch(() => undefined);
  await Promise.all(opened.children.splice(0).map((c) => c.stop('SIGTERM', 10_000).catch(() => undefined)));
}

/**
 * Times `iterations` sequential no-op runs each way (after `warmups`).
 * @returns p50 / p99 ms (nearest rank) of ours and of the baseline.
 */
export async function benchRuns(opts: { api: TestApi; pool: pg.Pool; owner: RunOwner; log: (line: string) => void }): Promise<RunFigures> {
  const query = (sql: string, params: unknown[]) => opts.pool.query(sql, params);
  // the test kinds are refused under NODE_ENV=production (the bench's); this worker runs as development
  const worker = await startWorker(
    'bench runs worker',
    { NODE_ENV: 'development', WORKER_TEST_KINDS: 'true', CPU_POOL_THREADS: '1' },
    query,
  );
  opened.children.push(worker);
  const bare = new Child('bench bare worker', process.execPath, ['-e', BASELINE_WORKER], childEnv());
  opened.children.push(bare);
  await waitFor('the bare BullMQ worker', () => bare.stdout.includes('baseline worker ready'), { timeoutMs: 30_000 });

  const u = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const connection = { host: u.hostname, port: Number(u.port || 6379) };
  const queue = new Queue(BASELINE_QUEUE, { connection, prefix: process.env.QUEUE_PREFIX });
  const events = new QueueEvents(BASELINE_QUEUE, {
    connection: { ...connection, maxRetriesPerRequest: null },
    prefix: process.env.QUEUE_PREFIX,
  });
  opened.close.push(
    () => queue.close(),
    () => events.close(),
  );
  await events.waitUntilReady();

  const runs = opts.api.app.get(WorkerResultsService);
  const ours = async (i: number) => {
    const t0 = performance.now();
    const answer = await runs.call('test.echo', { value: i }, opts.owner, { profile: 'dispatch', timeoutMs: 10_000 });
    if ((answer.value as number) !== i) throw new Error(`run answered ${JSON.stringify(answer)} for ${i}`);
    return performance.now() - t0;
  };
  const baseline = async (i: number) => {
    const t0 = performance.now();
    // kept a while: waitUntilFinished reads the finished task once its event arrives
    const task = await queue.add('noop', { value: i }, { removeOnComplete: { count: 1000 }, removeOnFail: { count: 1000 } });
    const answer = (await task.waitUntilFinished(events, 10_000)) as { value: number };
    if (answer.value !== i) throw new Error(`bare task answered ${JSON.stringify(answer)} for ${i}`);
    return performance.now() - t0;
  };

  for (let i = 0; i < RUNS_CONFIG.warmups; i++) {
    await ours(i);
    await baseline(i);
  }
  const o: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < RUNS_CONFIG.iterations; i++) {
    o.push(await ours(i));
    b.push(await baseline(i));
  }
  opts.log(`worker-results: ${RUNS_CONFIG.iterations} no-op runs each way`);
  await closeRuns();
  return {
    iterations: RUNS_CONFIG.iterations,
    ours: { p50: percentile(o, 50), p99: percentile(o, 99) },
    baseline: { p50: percentile(b, 50), p99: percentile(b, 99) },
  };
}

/** The rows of the figures for the bench table (informational: no target is pinned for them). */
export function runsReport(f: RunFigures): { rows: string[][]; notes: string[] } {
  const row = (label: string, a: number, b: number) => [label, fmt(a, 2), fmt(b, 2), `${(a / b).toFixed(2)}×`, '—', 'info'];
  return {
    rows: [
      row('worker-results no-op round trip: p50 ms', f.ours.p50, f.baseline.p50),
      row('worker-results no-op round trip: p99 ms', f.ours.p99, f.baseline.p99),
    ],
    notes: [
      `worker-results: ${f.iterations} sequential test.echo runs through WorkerResultsService.call (run row, bounded enqueue, built worker, ` +
        `writing transaction, NOTIFY, read) alternating with a bare BullMQ add + waitUntilFinished to a bare worker process.`,
    ],
  };
}
