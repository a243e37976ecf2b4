/**
 * `BENCH_ONLY=cluster` (issue #29): the webhook delivery rate with every Redis use on a Redis Cluster
 * (a private 3-master cluster from Debian's redis, test/support/redis-cluster.ts) against the same on
 * the single Redis, in the same run, rounds alternating. See bench/README.md ("Redis Cluster").
 */
import { createRedis, QueueName, queuePrefix, RedisClient, redisConnectionOptions } from '@app/core';
import { Queue } from 'bullmq';
import pg from 'pg';
import { createCompany, TestApi } from '../test/support/api';
import { ApiProcess, Child, startApiProcess } from '../test/support/proc-child';
import { RedisClusterProcess } from '../test/support/redis-cluster';
import { dayFromToday, makeJob } from './fixtures';
import { fmt, PartReport, percentile, post, printPart } from './stats';
import { BenchReceiver, ReceiptLog } from './webhooks-receiver';
import { cpuSeconds, startBenchWorker } from './webhooks-worker';
import { PartContext } from './part';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

export const CLUSTER_CONFIG = {
  companies: 10,
  /** jobs (so job_created deliveries) per measured round */
  jobs: envInt('BENCH_CLUSTER_JOBS', 4000),
  batch: 50,
  warmupJobs: 200,
  /** measured rounds per mode, in ABBA order: single, cluster, cluster, single, … */
  rounds: envInt('BENCH_CLUSTER_ROUNDS', 4),
  /** the worker's settings: the app's defaults, as in the webhooks part */
  workerConcurrency: 32,
  maxInFlightPerEndpoint: 4,
  roundTimeoutMs: 180_000,
  target: 0.8,
};

type ModeName = 'single' | 'cluster';

/** One side of the comparison: the api that writes the events, its worker, and the queue to pause. */
interface Mode {
  name: ModeName;
  apiUrl: string;
  worker: Child;
  queue: Queue;
  /** CPU seconds of the Redis side (the server, or every cluster node), read through INFO */
  redisCpu: () => Promise<number>;
}

export interface ClusterRound {
  mode: ModeName;
  events: number;
  elapsedMs: number;
  rps: number;
  /** resume → receipt, ms */
  p50: number;
  p99: number;
  /** CPU seconds during the timed part: the mode's worker, and its Redis side */
  cpu: { worker: number; redis: number };
}

/** What the part opened, closed by {@link closeCluster}. */
const opened: {
  cluster?: RedisClusterProcess;
  apiProc?: ApiProcess;
  workers: Child[];
  receivers: BenchReceiver[];
  queues: Queue[];
  clients: RedisClient[];
} = { workers: [], receivers: [], queues: [], clients: [] };

/** Stops the workers, the cluster's api process, the receivers and the cluster (by pid). Safe to call twice. */
export async function closeCluster(): Promise<void> {
  const { workers, receivers, queues, clients } = opened;
  opened.workers = [];
  opened.receivers = [];
  opened.queues = [];
  opened.clients = [];
  await Promise.all(receivers.map((r) => r.close().catch(() => undefined)));
  for (const q of queues) await q.resume().catch(() => undefined);
  await Promise.all(queues.map((q) => q.close().catch(() => undefined)));
  for (const c of clients) c.disconnect();
  await Promise.all(workers.map((w) => w.stop('SIGTERM', 10_000).catch(() => undefined)));
  await opened.apiProc?.child.stop('SIGTERM', 10_000).catch(() => undefined);
  opened.apiProc = undefined;
  await opened.cluster?.stop().catch(() => undefined);
  opened.cluster = undefined;
}

/** `used_cpu_user + used_cpu_sys` of one Redis server (seconds). */
async function infoCpu(redis: { info(section: string): Promise<string> }): Promise<number> {
  const info = await redis.info('cpu').catch(() => '');
  const num = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? NaN);
  return num('used_cpu_user') + num('used_cpu_sys');
}

async function action(url: string, key: string, name: string, data: unknown): Promise<any> {
  const res = await post(`${url}/api/${name}`, JSON.stringify({ data }), { 'api-key': key });
  const body = JSON.parse(res.text);
  if (res.status !== 200 || body.status !== 0) throw new Error(`${name} answered ${res.status}: ${res.text.slice(0, 300)}`);
  return body;
}

/** Waits until no delivery is pending or in flight (the previous round is done). */
async function quiesce(pool: pg.Pool, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE state IN ('pending', 'in_flight')`,
    );
    if (rows[0].n === 0) return;
    if (Date.now() > deadline) throw new Error(`${rows[0].n} webhook deliveries still pending after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Sets up the cluster, an api process and a worker on it, a worker on the single Redis (the in-process
 * api writes that side's events), ten companies with receivers; then a warm-up per side and
 * {@link CLUSTER_CONFIG.rounds} backlog rounds per side, alternating. Call {@link closeCluster} afterwards.
 */
export async function benchCluster(opts: { api: TestApi; pool: pg.Pool; log: (line: string) => void }): Promise<ClusterRound[]> {
  const { api, pool, log } = opts;
  const cfg = CLUSTER_CONFIG;
  const prefix = process.env.QUEUE_PREFIX!;
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

  const cluster = (opened.cluster = await RedisClusterProcess.start());
  const clusterConfig = { REDIS_URL: redisUrl, REDIS_CLUSTER_NODES: cluster.nodesEnv, QUEUE_PREFIX: prefix };
  log(`cluster: 3 masters on ${cluster.nodesEnv}`);
  const settings = { concurrency: cfg.workerConcurrency, maxInFlightPerEndpoint: cfg.maxInFlightPerEndpoint };
  const [apiProc, singleWorker, clusterWorker] = await Promise.all([
    startApiProcess({ REDIS_CLUSTER_NODES: cluster.nodesEnv, LOG_LEVEL: 'error' }),
    startBenchWorker(pool, settings, {}, 'bench worker (one Redis)'),
    startBenchWorker(pool, settings, { REDIS_CLUSTER_NODES: cluster.nodesEnv }, 'bench worker (Redis Cluster)'),
  ]);
  opened.apiProc = apiProc;
  opened.workers.push(singleWorker, clusterWorker);

  const singleQueue = new Queue(QueueName.WebhookDelivery, { prefix, connection: redisConnectionOptions(redisUrl) });
  const clusterClient = createRedis(clusterConfig, 'queue-worker');
  clusterClient.on('error', () => undefined);
  opened.clients.push(clusterClient);
  const clusterQueue = new Queue(QueueName.WebhookDelivery, {
    prefix: queuePrefix(clusterConfig, QueueName.WebhookDelivery),
    connection: clusterClient,
  });
  opened.queues.push(singleQueue, clusterQueue);
  const singleInfo = createRedis({ REDIS_URL: redisUrl }, 'health-probe');
  singleInfo.on('error', () => undefined);
  opened.clients.push(singleInfo);
  const nodeInfos = cluster.ports.map((port) => {
    const c = createRedis({ REDIS_URL: `redis://127.0.0.1:${port}` }, 'health-probe');
    c.on('error', () => undefined);
    opened.clients.push(c);
    return c;
  });
  const modes: Record<ModeName, Mode> = {
    single: { name: 'single', apiUrl: api.url, worker: singleWorker, queue: singleQueue, redisCpu: () => infoCpu(singleInfo) },
    cluster: {
      name: 'cluster',
      apiUrl: apiProc.url,
      worker: clusterWorker,
      queue: clusterQueue,
      redisCpu: async () => (await Promise.all(nodeInfos.map((c) => infoCpu(c)))).reduce((a, b) => a + b, 0),
    },
  };

  const receipts = new ReceiptLog();
  const companies: Array<{ key: string; index: number }> = [];
  for (let i = 0; i < cfg.companies; i++) {
    const receiver = await new BenchReceiver(i, receipts).start();
    opened.receivers.push(receiver);
    const c = await createCompany(api, { name: `Bench cluster ${i}` });
    await action(api.url, c.key, 'setwebhooks', { job_created: { url: `${receiver.url}/ours/job_created` } });
    companies.push({ key: c.key, index: i });
  }
  log(
    `cluster: api process ${apiProc.url}, workers ${singleWorker.pid} (one Redis) and ${clusterWorker.pid} (cluster), ${cfg.companies} receivers`,
  );

  let jobSeq = 0;
  const days = [1, 2, 3, 4, 5].map(dayFromToday);
  /** `n` jobs through the mode's api with its queue paused (or not: `live`), timed from the resume to the last receipt. */
  const round = async (mode: Mode, n: number, live: boolean): Promise<ClusterRound> => {
    await quiesce(pool);
    // the other side's worker takes nothing meanwhile (its reconciler may queue drains: they wait)
    await modes[mode.name === 'single' ? 'cluster' : 'single'].queue.pause();
    await mode.queue.resume();
    if (!live) await mode.queue.pause();
    const ids: string[] = [];
    let t0 = performance.now();
    for (let call = 0, made = 0; made < n; call++) {
      const c = companies[call % companies.length];
      const size = Math.min(cfg.batch, n - made);
      const jobs = Array.from({ length: size }, () => makeJob(jobSeq, days[jobSeq++ % days.length]));
      const res = await action(mode.apiUrl, c.key, 'createjobs', { jobs });
      ids.push(...(res.jobs as Array<{ id: string }>).map((j) => j.id));
      made += size;
    }
    const before = { worker: cpuSeconds(mode.worker.pid), redis: await mode.redisCpu() };
    if (!live) {
      t0 = performance.now();
      await mode.queue.resume();
    }
    const got = await receipts.waitForJobs('ours', 'jobcreated', ids, cfg.roundTimeoutMs).catch((err: Error) => {
      throw new Error(`cluster bench, ${mode.name}: ${err.message}\n${mode.worker.output()}`);
    });
    const after = { worker: cpuSeconds(mode.worker.pid), redis: await mode.redisCpu() };
    const elapsedMs = Math.max(...got.map((r) => r.at)) - t0;
    const lat = got.map((r) => r.at - t0);
    const fig: ClusterRound = {
      mode: mode.name,
      events: got.length,
      elapsedMs,
      rps: (got.length / elapsedMs) * 1000,
      p50: percentile(lat, 50),
      p99: percentile(lat, 99),
      cpu: { worker: after.worker - before.worker, redis: after.redis - before.redis },
    };
    log(
      `cluster bench ${live ? 'live' : 'backlog'} round (${mode.name}): ${fig.events} deliveries in ${(elapsedMs / 1000).toFixed(2)} s = ${fmt(fig.rps, 0)}/s; ` +
        `worker CPU ${fmt(fig.cpu.worker, 2)} s, Redis CPU ${fmt(fig.cpu.redis, 2)} s`,
    );
    return fig;
  };

  // warm-ups: one live, one backlog per side (JIT, pools, connections), not counted
  for (const mode of [modes.single, modes.cluster]) {
    await round(mode, cfg.warmupJobs, true);
    await round(mode, cfg.warmupJobs * 5, false);
  }
  // measured: ABBA order (single, cluster, cluster, single, …), so neither side always goes first
  const rounds: ClusterRound[] = [];
  for (let i = 0; i < cfg.rounds; i++) {
    const pair = i % 2 === 0 ? [modes.single, modes.cluster] : [modes.cluster, modes.single];
    for (const mode of pair) rounds.push(await round(mode, cfg.jobs, false));
  }
  if (receipts.duplicates) log(`cluster bench: ${receipts.duplicates} duplicate deliveries`);
  return rounds;
}

/** The part's table: cluster ÷ single deliveries/s (summed over the rounds), target ≥ 0.8×. */
export function clusterReport(rounds: ClusterRound[]): PartReport {
  const of = (mode: ModeName) => rounds.filter((r) => r.mode === mode);
  const rate = (rs: ClusterRound[]) => rs.reduce((s, r) => s + r.events, 0) / (rs.reduce((s, r) => s + r.elapsedMs, 0) / 1000);
  const perK = (rs: ClusterRound[], v: (r: ClusterRound) => number) =>
    (rs.reduce((s, r) => s + v(r), 0) / rs.reduce((s, r) => s + r.events, 0)) * 1000;
  const single = rate(of('single'));
  const onCluster = rate(of('cluster'));
  const ratio = onCluster / single;
  const cfg = CLUSTER_CONFIG;
  const ms = (rs: ClusterRound[], v: (r: ClusterRound) => number) => rs.map((r) => fmt(v(r), 0)).join(' / ');
  return {
    rows: [
      [
        `webhooks job_created, ${cfg.companies} endpoints: deliveries/s of a backlog on Redis Cluster, 3 masters (baseline: one Redis)`,
        fmt(onCluster, 0),
        fmt(single, 0),
        `${ratio.toFixed(2)}×`,
        `≥ ${cfg.target}×`,
        ratio >= cfg.target ? 'PASS' : 'FAIL',
      ],
      ['  resume → receipt p50 ms, per round', ms(of('cluster'), (r) => r.p50), ms(of('single'), (r) => r.p50), '—', '—', 'info'],
      ['  resume → receipt p99 ms, per round', ms(of('cluster'), (r) => r.p99), ms(of('single'), (r) => r.p99), '—', '—', 'info'],
      [
        '  worker CPU s per 1,000 deliveries',
        fmt(
          perK(of('cluster'), (r) => r.cpu.worker),
          2,
        ),
        fmt(
          perK(of('single'), (r) => r.cpu.worker),
          2,
        ),
        '—',
        '—',
        'info',
      ],
      [
        '  Redis CPU s per 1,000 deliveries (cluster: the 3 nodes; one Redis: the whole server)',
        fmt(
          perK(of('cluster'), (r) => r.cpu.redis),
          2,
        ),
        fmt(
          perK(of('single'), (r) => r.cpu.redis),
          2,
        ),
        '—',
        '—',
        'info',
      ],
    ],
    notes: [
      `cluster: ${cfg.rounds} backlog rounds per side in ABBA order (one Redis, cluster, cluster, one Redis, …), each of ${cfg.jobs} jobs in createjobs calls of ${cfg.batch} ` +
        `rotating over ${cfg.companies} companies, each with job_created on its own node:http receiver; the events are written while the side's ` +
        `webhook-delivery queue is paused, timed from its resume to the last receipt (after a ${cfg.warmupJobs}-job live and a ${cfg.warmupJobs * 5}-job backlog warm-up per side). ` +
        `Two BUILT workers with the app's defaults (WEBHOOK_CONCURRENCY=${cfg.workerConcurrency}, WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT=${cfg.maxInFlightPerEndpoint}), ` +
        `one per side, the other side's queue paused during a round; the one-Redis side's events written by the in-process api, the cluster's by a BUILT api process ` +
        `with REDIS_CLUSTER_NODES (both running throughout). Per round (deliveries/s): ` +
        rounds.map((r) => `${r.mode} ${fmt(r.rps, 0)}`).join(', ') +
        '.',
    ],
    failed: ratio >= cfg.target ? 0 : 1,
  };
}

/** `BENCH_ONLY=cluster`: runs the part, prints its table. */
export async function runClusterOnly(opts: PartContext): Promise<number> {
  try {
    return printPart('cluster', clusterReport(await benchCluster(opts)), opts);
  } finally {
    await closeCluster();
  }
}
