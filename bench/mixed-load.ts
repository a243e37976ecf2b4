/**
 * `BENCH_ONLY=mixed npm run bench` (issue #29, "A mixed load held"): the built api ×3 and worker ×2
 * behind haproxy, one company of 2,000 phones and 20 dispatchers, everyone within the default rate
 * limit; held for `MIXED_SECONDS` (300), then the single-node ceiling found by adding phones at one fix
 * per 5 s. See bench/README.md ("mixed load") for what each figure means.
 */
import { ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpRequest, ClientRequest } from 'node:http';
import os from 'node:os';
import { resolve } from 'node:path';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import pg from 'pg';
import { ALL_QUEUES, newId } from '@app/core';
import { ApiKeysService } from '@app/members';
import { createCompany, TestApi, TestCompany } from '../test/support/api';
import { ApiProcess, Child, freePort, getJson, ROOT, startApiProcess, waitFor } from '../test/support/proc-child';
import { Balance, ReverseProxy, startReverseProxy } from '../test/support/reverse-proxy';
import { WebhookReceiver } from '../test/support/webhook-receiver';
import { startWorker } from '../test/support/worker';
import { DB_NAME } from './env';
import { dayFromToday, makeJob } from './fixtures';
import type { GenCollected, GenInit, GenRates, MixedRoute, RouteFigures } from './mixed-load-gen';
import { LoopbackFigures, loopbackRoundTrip } from './loopback';
import { ApiThreadFigures, MainThreadMeter } from './main-threads';
import type { ThreadSchedTimes } from '../apps/api/src/metrics/scheduler.metrics';
import { fmt, markdownTable, percentile, post } from './stats';
import { cpuSeconds } from './webhooks-worker';
import { PartContext } from './part';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v >= 0 && process.env[name] !== '' && process.env[name] !== undefined ? v : fallback;
};

export const MIXED_CONFIG = {
  apis: 3,
  workers: 2,
  phones: envInt('MIXED_PHONES', 2000),
  dispatchers: 20,
  /** console streams held open, one per dispatcher from the first (`MIXED_STREAMS`, 0 = none) */
  streams: Math.min(20, envInt('MIXED_STREAMS', 20)),
  /**
   * `MIXED_PHONE_ROUTE=osmand`: the phones report as Traccar-type devices on the lean `/osmand` route
   * (one fix a request in the query string, the member's device id as the credential: no key, no Nest)
   * instead of `pushlocations` — to see what the action envelope costs a fix (bench/RESULTS.md "mixed")
   */
  phoneRoute: (process.env.MIXED_PHONE_ROUTE === 'osmand' ? 'osmand' : 'pushlocations') as 'osmand' | 'pushlocations',
  /**
   * `MIXED_BALANCE`: haproxy's `balance` over the apis — `roundrobin` (the default) or `leastconn` (the
   * api with the fewest requests in progress), to see what a long request (createjobs, locate) on one
   * api costs the short ones queued behind it there (bench/RESULTS.md "mixed")
   */
  balance: (process.env.MIXED_BALANCE === 'leastconn' ? 'leastconn' : 'roundrobin') as Balance,
  receivers: 5,
  fixIntervalMs: 10_000,
  /** `MIXED_DISPATCHER_RPS` (0 = the phones alone, with `MIXED_CREATE_JOBS=0`) */
  dispatcherRps: envInt('MIXED_DISPATCHER_RPS', 20),
  /** `MIXED_DISPATCHER_ROUTES=locate|getjobs` narrows the dispatchers' polling to one route (to see what each costs) */
  dispatcherRoutes: (['locate', 'getjobs'].includes(process.env.MIXED_DISPATCHER_ROUTES ?? '')
    ? process.env.MIXED_DISPATCHER_ROUTES
    : 'both') as 'both' | 'locate' | 'getjobs',
  createJobs: envInt('MIXED_CREATE_JOBS', 100),
  createEveryMs: 10_000,
  /** jobs per phone on today's date, seeded before the load (what getjobs reads) */
  jobsPerWorkerToday: 5,
  warmupSeconds: envInt('MIXED_WARMUP_SECONDS', 20),
  holdSeconds: envInt('MIXED_SECONDS', 300),
  /** the CPU split after the hold: windows of phones only, dispatchers + createjobs only, and nothing (0 = skipped) */
  splitSeconds: envInt('MIXED_SPLIT_SECONDS', 30),
  /** the ceiling: phones at one fix per `ceilingFixIntervalMs`, `stepPhones` more each step of `stepSeconds` */
  ceiling: process.env.MIXED_CEILING !== '0',
  ceilingFixIntervalMs: 5_000,
  /** phones of the first step (250 at one fix per 5 s = 50 fixes/s, a quarter of the hold's) */
  startPhones: envInt('MIXED_CEILING_START_PHONES', 250),
  stepPhones: envInt('MIXED_STEP_PHONES', 250),
  /** from this many phones on, steps are twice `stepPhones` (a fast machine passes 6,000 phones) */
  widenAtPhones: envInt('MIXED_STEP_WIDEN_AT', 4_000),
  stepSeconds: envInt('MIXED_STEP_SECONDS', 30),
  /** the first seconds of a step are not measured (the rate just changed) */
  stepSettleSeconds: 5,
  maxPhones: envInt('MIXED_MAX_PHONES', 12_000),
  ceilingP99Ms: 1_000,
  /** each process's pg pool: 3 apis + 2 workers share a PostgreSQL of max_connections 100 with others */
  poolSize: envInt('MIXED_POOL_SIZE', 6),
  timeoutMs: 10_000,
};
const TARGETS = { p99Ms: 100, locateP99Ms: 50, errors: 0, lagMs: 2_000 };

interface Opened {
  apis: ApiProcess[];
  workers: Child[];
  proxy?: ReverseProxy;
  receivers: WebhookReceiver[];
  streams: StreamReader[];
  gen?: ChildProcess;
  queues: Queue[];
  redis?: Redis;
}
const opened: Opened = { apis: [], workers: [], receivers: [], streams: [], queues: [] };

/** Stops what the part started (the generator, streams, receivers, haproxy, workers, apis). Safe to call twice. */
export async function closeMixed(): Promise<void> {
  const { gen, streams, receivers, queues, redis, proxy, workers, apis } = opened;
  Object.assign(opened, {
    gen: undefined,
    streams: [],
    receivers: [],
    queues: [],
    redis: undefined,
    proxy: undefined,
    workers: [],
    apis: [],
  });
  if (gen && gen.exitCode === null) {
    gen.send({ cmd: 'stop' });
    await new Promise((r) => setTimeout(r, 500));
    gen.kill();
  }
  for (const s of streams) s.close();
  await Promise.all(receivers.map((r) => r.close().catch(() => undefined)));
  await Promise.all(queues.map((q) => q.close().catch(() => undefined)));
  redis?.disconnect();
  await proxy?.stop().catch(() => undefined);
  await Promise.all(workers.map((w) => w.stop('SIGTERM', 10_000).catch(() => undefined)));
  await Promise.all(apis.map((a) => a.child.stop('SIGTERM', 10_000).catch(() => undefined)));
}

/**
 * One dispatcher's console stream (`GET /v1/stream`, every event and position), read raw: frames
 * counted by event; a job event's `ts` (its writing transaction's clock) gives commit → received.
 */
class StreamReader {
  snapshot = false;
  positions = 0;
  events = 0;
  readonly lagMs: number[] = [];
  ended = false;
  private req?: ClientRequest;

  open(url: string, key: string): void {
    this.req = httpRequest(`${url}/v1/stream`, { agent: false, headers: { accept: 'text/event-stream', 'api-key': key } }, (res) => {
      if (res.statusCode !== 200) {
        this.ended = true;
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          this.frame(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
        }
      });
      res.on('end', () => (this.ended = true));
    });
    this.req.on('error', () => (this.ended = true));
    this.req.end();
  }

  private frame(frame: string): void {
    if (frame.startsWith('event: snapshot')) this.snapshot = true;
    else if (frame.startsWith('event: position')) this.positions++;
    else if (frame.startsWith('event: job')) {
      this.events++;
      const m = /"ts":(\d+),"data":/.exec(frame);
      if (m) this.lagMs.push(Date.now() - Number(m[1]));
    }
  }

  close(): void {
    this.req?.destroy();
  }
}

async function inBatches<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/** Members inserted by SQL with their usernames' global lookup rows (as bench/console.ts seeds), then a key each through ApiKeysService. */
async function seedMembers(
  api: TestApi,
  pool: pg.Pool,
  company: TestCompany,
  label: string,
  n: number,
  role: 'worker' | 'operator',
): Promise<Array<{ username: string; key: string }>> {
  const now = Date.now();
  const tag = `${label}.${now.toString(36)}`;
  const usernames = Array.from({ length: n }, (_, i) => `${tag}.${i}@example.test`);
  const ids = usernames.map(() => newId());
  await pool.query(
    `WITH l AS (INSERT INTO member_usernames (username, company_id, member_id)
                SELECT lower(u.username), $1, u.id FROM unnest($2::varchar[], $3::varchar[]) AS u(id, username))
     INSERT INTO members (id, company_id, username, name, email, phone, role, teams, created_at, updated_at)
     SELECT u.id, $1, u.username, $4 || ' ' || i, 'm' || i || '@example.test', '+386 40 ' || i, $5, '[]'::jsonb, $6 + i, $6 + i
       FROM unnest($2::varchar[], $3::varchar[]) WITH ORDINALITY AS u(id, username, i)`,
    [company.companyUid, ids, usernames, label, role, now],
  );
  const keys = api.app.get(ApiKeysService);
  const out: Array<{ username: string; key: string }> = usernames.map((username) => ({ username, key: '' }));
  await inBatches(out, 16, async (m) => {
    m.key = (await keys.issue(m.username, 'bench')).apiKey;
  });
  return out;
}

/**
 * `MIXED_PHONE_ROUTE=osmand`: each phone gets a device id (`dev` + its member id, lower case; the
 * global lookup row too, as the members lib writes it), which replaces its key in `phones` — the
 * generator sends it as `/osmand`'s `id`.
 */
async function giveDeviceIds(pool: pg.Pool, companyId: string, phones: Array<{ username: string; key: string }>): Promise<void> {
  const { rows } = await pool.query<{ username: string; device_id: string }>(
    `WITH d AS (INSERT INTO member_device_ids (device_id, company_id, member_id)
                SELECT 'dev' || lower(id), company_id, id FROM members WHERE company_id = $1 AND role = 'worker')
     UPDATE members SET device_id = 'dev' || lower(id) WHERE company_id = $1 AND role = 'worker' RETURNING username, device_id`,
    [companyId],
  );
  const byUsername = new Map(rows.map((r) => [r.username, r.device_id]));
  for (const p of phones) p.key = byUsername.get(p.username) ?? p.key;
}

/** CPU seconds of a set of processes, by pid; a pid gone since keeps its last reading. */
class CpuMeter {
  private readonly first = new Map<number, number>();
  private readonly last = new Map<number, number>();

  sample(pids: number[]): void {
    for (const pid of pids) {
      const s = cpuSeconds(pid);
      if (!Number.isFinite(s)) continue;
      if (!this.first.has(pid)) this.first.set(pid, s);
      this.last.set(pid, s);
    }
  }

  /** seconds used since each pid's first reading */
  used(): number {
    let sum = 0;
    for (const [pid, s] of this.last) sum += s - (this.first.get(pid) ?? s);
    return sum;
  }
}

/** `used_cpu_user + used_cpu_sys` of the Redis server (the whole server: other users count too). */
async function redisCpu(redis: Redis): Promise<number> {
  const info = await redis.info('cpu').catch(() => '');
  const num = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? NaN);
  return num('used_cpu_user') + num('used_cpu_sys');
}

/** `MIXED_API_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"`: node flags for the apis (a CPU profile of each, written at its exit). */
const API_NODE_ARGS = (process.env.MIXED_API_NODE_ARGS ?? '').split(' ').filter(Boolean);
/** `MIXED_WORKER_NODE_ARGS`: node flags for the workers, as {@link API_NODE_ARGS} for the apis. */
const WORKER_NODE_ARGS = (process.env.MIXED_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean);

/** The built api with {@link API_NODE_ARGS} (startApiProcess takes no node flags), on a free port, once `/health/live` answers. */
async function startApiWithArgs(env: Record<string, string | undefined>): Promise<ApiProcess> {
  const port = await freePort();
  const child = new Child(`api:${port}`, process.execPath, [...API_NODE_ARGS, resolve(ROOT, 'dist/apps/api/src/main.js')], {
    ...Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, v]) => v !== undefined)),
    SHUTDOWN_DRAIN_MS: '0',
    PORT: String(port),
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`api on :${port}`, async () => child.running && (await getJson(`${url}/health/live`, 2_000)).status === 200, {
    timeoutMs: 60_000,
    intervalMs: 200,
  });
  return { child, url, port };
}

/** What one measured window saw. */
interface Window {
  gen: GenCollected;
  seconds: number;
  /** CPU seconds in the window, by group */
  cpu: { api: number; worker: number; postgres: number; redis: number; haproxy: number; generator: number; bench: number };
  /** webhook deliveries received in the window: receipt − event ts, ms */
  hookLagMs: number[];
  hookReceived: number;
  hookDuplicates: number;
  /** stream job events received in the window: receipt − event ts, ms */
  streamLagMs: number[];
  streamPositions: number;
  /** the largest age seen of a queue's oldest due task, ms, by queue (sampled each second) */
  queueLagMs: Record<string, number>;
  /** the largest count of due tasks seen, by queue */
  queueWaiting: Record<string, number>;
  loadavg: string;
  /** the main threads of the apis and of the workers: on a CPU, waiting for one, and the apis' GC (ms in the window) */
  threads: { api: ApiThreadFigures; worker: ThreadSchedTimes };
}

/** Runs the part and prints its tables. @returns the exit code (1 only with BENCH_STRICT=1 and a missed target). */
export async function runMixedOnly(opts: PartContext): Promise<number> {
  const { api, pool, log } = opts;
  const C = MIXED_CONFIG;
  const sleep = (s: number) => new Promise((r) => setTimeout(r, s * 1000));
  // the ceiling's extra phones (other companies) are seeded with keys only: /osmand would refuse them
  if (C.phoneRoute === 'osmand' && C.ceiling) throw new Error('MIXED_PHONE_ROUTE=osmand needs MIXED_CEILING=0');
  const loadBefore = readFileSync('/proc/loadavg', 'utf8').trim();
  // before anything of the part runs: the machine's price of a round trip, for reading the figures against it
  const loopback = await loopbackRoundTrip();
  log(`mixed: loopback round trip ${fmt(loopback.wallUs, 1)} µs, ${fmt(loopback.cpuUs, 1)} µs CPU on one side`);
  // set-up through the in-process api (closed before the load: only the measured processes serve)
  const company = await createCompany(api, { name: 'Bench mixed' });
  log(`mixed: seeding ${C.phones} phones and ${C.dispatchers} dispatchers (members by SQL, a key each)`);
  const phones = await seedMembers(api, pool, company, 'phone', C.phones, 'worker');
  if (C.phoneRoute === 'osmand') await giveDeviceIds(pool, company.companyUid, phones);
  const dispatchers = await seedMembers(api, pool, company, 'dispatcher', C.dispatchers, 'operator');
  const extraPhones: string[] = [];
  if (C.ceiling && C.maxPhones > C.phones) {
    // the ceiling's added phones belong to other companies of ≤ 2,000 phones: the dispatchers' locate stays the same size
    for (let left = C.maxPhones - C.phones, i = 0; left > 0; left -= 2000, i++) {
      const other = await createCompany(api, { name: `Bench mixed ceiling ${i}` });
      extraPhones.push(...(await seedMembers(api, pool, other, `ceiling${i}`, Math.min(2000, left), 'worker')).map((m) => m.key));
    }
    log(`mixed: ${extraPhones.length} more phones for the ceiling, in other companies`);
  }
  const today = dayFromToday(0);
  const days = [0, 1, 2, 3, 4].map(dayFromToday);
  const usernames = phones.map((p) => p.username);
  const seedJobs = Array.from({ length: C.phones * C.jobsPerWorkerToday }, (_, i) =>
    makeJob(1_000_000 + i, today, usernames[i % usernames.length]),
  );
  for (let at = 0; at < seedJobs.length; at += 1000) {
    const res = await post(`${api.url}/api/createjobs`, JSON.stringify({ data: { jobs: seedJobs.slice(at, at + 1000) } }), {
      'api-key': company.key,
    });
    if (res.status !== 200 || !res.text.startsWith('{"status":0'))
      throw new Error(`seeding createjobs answered ${res.status}: ${res.text.slice(0, 300)}`);
  }
  await pool.query('ANALYZE');
  await api.close();
  log(`mixed: ${seedJobs.length} jobs today; starting ${C.apis} apis and ${C.workers} workers (built, default rate limit) behind haproxy`);

  const childEnv = {
    // the bench's own env raises the limit for the in-process benches: the children get the defaults
    RATE_LIMIT_PER_MINUTE: undefined,
    RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: undefined,
    DATABASE_POOL_SIZE: String(C.poolSize),
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  };
  for (let i = 0; i < C.apis; i++) opened.apis.push(await (API_NODE_ARGS.length ? startApiWithArgs(childEnv) : startApiProcess(childEnv)));
  for (let i = 0; i < C.workers; i++)
    opened.workers.push(await startWorker(`worker-mixed-${i}`, childEnv, (sql, params) => pool.query(sql, params), WORKER_NODE_ARGS));
  const proxy = await startReverseProxy(
    opened.apis.map((a) => a.url),
    { balance: C.balance },
  );
  opened.proxy = proxy;
  const url = proxy.url;

  for (let i = 0; i < C.receivers; i++) opened.receivers.push(await new WebhookReceiver().start());
  for (const [i, r] of opened.receivers.entries()) {
    const res = await post(`${url}/v1/hooks`, JSON.stringify({ event: 'jobcreated', url: `${r.url}/hook${i}` }), {
      'api-key': company.key,
    });
    if (res.status !== 201) throw new Error(`POST /v1/hooks answered ${res.status}: ${res.text.slice(0, 300)}`);
  }
  for (const d of dispatchers.slice(0, C.streams)) {
    const s = new StreamReader();
    s.open(url, d.key);
    opened.streams.push(s);
  }
  await waitFor(
    `${C.streams} console streams open`,
    () =>
      opened.streams.every((s) => s.snapshot) ||
      (opened.streams.some((s) => s.ended) ? Promise.reject(new Error('a stream ended')) : false),
    {
      timeoutMs: 30_000,
    },
  );

  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 2 });
  opened.redis = redis;
  for (const name of ALL_QUEUES) opened.queues.push(new Queue(name, { connection: redis, prefix: process.env.QUEUE_PREFIX }));

  // the generator
  let gen!: ChildProcess;
  let replies: Array<{ resolve: (m: any) => void; reject: (e: Error) => void }> = [];
  /** Sends `msg` to the generator; resolves with its next message (it answers in order). */
  const ask = <T>(msg: object): Promise<T> =>
    new Promise((resolve, reject) => {
      if (gen.exitCode !== null) return reject(new Error(`the load generator exited (${gen.exitCode})`));
      replies.push({ resolve, reject });
      gen.send(msg);
    });
  /** Forks a generator (stopping the one before: its requests still waiting are dropped with it) and hands it `init`. */
  const startGen = async () => {
    if (gen && gen.exitCode === null) {
      const exited = new Promise((r) => gen.once('exit', r));
      gen.send({ cmd: 'stop' });
      await Promise.race([exited, sleep(2)]);
      gen.kill('SIGKILL');
    }
    const child = fork(require.resolve('./mixed-load-gen'), [], {
      execArgv: process.execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    gen = child;
    opened.gen = child;
    const mine: typeof replies = [];
    replies = mine;
    child.on('message', (m: any) => mine.shift()?.resolve(m));
    child.once('exit', (code) => {
      for (const r of mine.splice(0)) r.reject(new Error(`the load generator exited (${code})`));
    });
    await ask<{ type: 'ready' }>(init);
  };
  const init: GenInit = {
    cmd: 'init',
    url,
    phoneKeys: [...phones.map((p) => p.key), ...extraPhones],
    dispatcherKeys: dispatchers.map((d) => d.key),
    adminKey: company.key,
    workers: usernames,
    today,
    days,
    timeoutMs: C.timeoutMs,
    dispatcherRoutes: C.dispatcherRoutes,
    phoneRoute: C.phoneRoute,
  };
  await startGen();
  const setRates = (r: Omit<GenRates, 'cmd'>) => gen.send({ cmd: 'set', ...r });

  // sampling each second: CPU by group, the queues' oldest due task
  const pgPids = async () =>
    (
      await pool.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [DB_NAME])
    ).rows.map((r) => r.pid);
  let meters: Record<keyof Window['cpu'], CpuMeter>;
  let redis0 = 0;
  let queueLag: Record<string, number> = {};
  let queueWaiting: Record<string, number> = {};
  const resetMeters = async () => {
    meters = {
      api: new CpuMeter(),
      worker: new CpuMeter(),
      postgres: new CpuMeter(),
      redis: new CpuMeter(),
      haproxy: new CpuMeter(),
      generator: new CpuMeter(),
      bench: new CpuMeter(),
    };
    redis0 = await redisCpu(redis);
    queueLag = {};
    queueWaiting = {};
    await sampleCpu();
  };
  const sampleCpu = async () => {
    meters.api.sample(opened.apis.map((a) => a.child.pid));
    meters.worker.sample(opened.workers.map((w) => w.pid));
    meters.haproxy.sample([proxy.child.pid]);
    meters.generator.sample([gen.pid!]);
    meters.bench.sample([process.pid]);
    meters.postgres.sample(await pgPids().catch(() => []));
  };
  const sampleQueues = async () => {
    const now = Date.now();
    for (const q of opened.queues) {
      const jobs = await q.getJobs(['wait', 'prioritized'], 0, 0, true).catch(() => []);
      const counts = await q.getJobCounts('wait', 'prioritized').catch(() => ({ wait: 0, prioritized: 0 }) as Record<string, number>);
      const due = jobs.filter(Boolean).map((j) => j.timestamp + (j.opts.delay ?? 0));
      const lag = due.length ? Math.max(0, now - Math.min(...due)) : 0;
      queueLag[q.name] = Math.max(queueLag[q.name] ?? 0, lag);
      queueWaiting[q.name] = Math.max(queueWaiting[q.name] ?? 0, (counts.wait ?? 0) + (counts.prioritized ?? 0));
    }
  };
  let sampling = true;
  await resetMeters();
  const sampler = (async () => {
    while (sampling) {
      await new Promise((r) => setTimeout(r, 1000));
      await sampleCpu();
      await sampleQueues();
    }
  })();

  const threads = new MainThreadMeter(
    () => opened.apis.map((a) => ({ pid: a.child.pid, url: a.url })),
    () => opened.workers.map((w) => w.pid),
  );
  const hookMarks = () => opened.receivers.map((r) => r.received.length);
  const streamMarks = () => opened.streams.map((s) => ({ lag: s.lagMs.length, positions: s.positions }));
  /** Starts a window now; its end collects everything measured since. */
  const window = async () => {
    await ask<GenCollected>({ cmd: 'collect' });
    await resetMeters();
    const hooks0 = hookMarks();
    const streams0 = streamMarks();
    await threads.start();
    const t0 = performance.now();
    return async (): Promise<Window> => {
      const g = await ask<GenCollected>({ cmd: 'collect' });
      await sampleCpu();
      const seconds = (performance.now() - t0) / 1000;
      const threadFigures = await threads.end();
      const hookLagMs: number[] = [];
      const seen = new Set<string>();
      let duplicates = 0;
      let received = 0;
      opened.receivers.forEach((r, i) => {
        for (const x of r.received.slice(hooks0[i])) {
          received++;
          const id = `${i}:${String(x.headers['webhook-id'])}`;
          if (seen.has(id)) duplicates++;
          seen.add(id);
          hookLagMs.push(x.at - Number((JSON.parse(x.body) as { ts: number }).ts));
        }
      });
      const streamLagMs: number[] = [];
      let streamPositions = 0;
      opened.streams.forEach((s, i) => {
        streamLagMs.push(...s.lagMs.slice(streams0[i].lag));
        streamPositions += s.positions - streams0[i].positions;
      });
      return {
        gen: g,
        seconds,
        cpu: {
          api: meters.api.used(),
          worker: meters.worker.used(),
          postgres: meters.postgres.used(),
          redis: (await redisCpu(redis)) - redis0,
          haproxy: meters.haproxy.used(),
          generator: meters.generator.used(),
          bench: meters.bench.used(),
        },
        hookLagMs,
        hookReceived: received,
        hookDuplicates: duplicates,
        streamLagMs,
        streamPositions,
        queueLagMs: { ...queueLag },
        queueWaiting: { ...queueWaiting },
        loadavg: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
        threads: threadFigures,
      };
    };
  };

  try {
    // the mixed load: warm-up, then the hold
    const mixedRates = {
      phones: C.phones,
      fixIntervalMs: C.fixIntervalMs,
      dispatcherRps: C.dispatcherRps,
      createEveryMs: C.createJobs > 0 ? C.createEveryMs : 0,
      createJobs: C.createJobs,
    };
    setRates(mixedRates);
    log(
      `mixed: warm-up ${C.warmupSeconds} s (${C.phones} phones at 1 fix / ${C.fixIntervalMs / 1000} s, ${C.dispatcherRps} dispatcher req/s, createjobs ${C.createJobs} / ${C.createEveryMs / 1000} s)`,
    );
    await sleep(C.warmupSeconds);
    const endHold = await window();
    log(`mixed: holding ${C.holdSeconds} s`);
    for (let s = 0; s < C.holdSeconds; s += 30) {
      await sleep(Math.min(30, C.holdSeconds - s));
      log(`mixed: ${Math.min(C.holdSeconds, s + 30)} s held, load ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`);
    }
    const hold = await endHold();
    const deliveries = await pool.query<{ state: string; n: number }>(
      `SELECT state, count(*)::int AS n FROM webhook_deliveries GROUP BY state ORDER BY state`,
    );

    /**
     * A fresh start for the next window: a new generator (the requests the old one still had waiting
     * are dropped: a backlog of the hold would take minutes to serve), then up to 60 s for the
     * worker's queues to empty (the tracks' debounce included).
     */
    const idleRates = { phones: 0, fixIntervalMs: 10_000, dispatcherRps: 0, createEveryMs: 0, createJobs: 0 };
    const drain = async () => {
      await startGen();
      for (let i = 0; i < 60; i++) {
        // delayed tasks count for tracks only (the debounced builds): other queues hold repeatable ones
        const counts = await Promise.all(
          opened.queues.map(async (q) => {
            const c = await q.getJobCounts('wait', 'prioritized', 'active', 'delayed');
            return c.wait + c.prioritized + c.active + (q.name === 'tracks' ? c.delayed : 0);
          }),
        );
        if (counts.every((n) => n === 0)) break;
        await sleep(1);
      }
    };

    // where the CPU goes: the same phones alone, the staff's requests alone, and nothing sent
    const split: Split = {};
    if (C.splitSeconds > 0) {
      for (const [name, rates] of [
        ['idle', idleRates],
        ['phones', { ...mixedRates, dispatcherRps: 0, createEveryMs: 0 }],
        ['staff', { ...mixedRates, phones: 0 }],
      ] as const) {
        await drain();
        setRates(rates);
        await sleep(2);
        const end = await window();
        await sleep(C.splitSeconds);
        split[name] = await end();
        log(
          `mixed split: ${name}: served CPU ${fmt(servedCpu(split[name]) / split[name].seconds, 2)} s/s, ${split[name].gen.fixesAccepted} fixes`,
        );
      }
    }

    // the ceiling
    const steps: Array<{ phones: number; w: Window }> = [];
    if (C.ceiling) {
      await drain();
      const next = (phones: number) => phones + (phones >= C.widenAtPhones ? 2 * C.stepPhones : C.stepPhones);
      for (let phonesNow = C.startPhones; phonesNow <= Math.min(C.maxPhones, init.phoneKeys.length); phonesNow = next(phonesNow)) {
        setRates({ ...mixedRates, phones: phonesNow, fixIntervalMs: C.ceilingFixIntervalMs });
        await sleep(C.stepSettleSeconds);
        const end = await window();
        await sleep(C.stepSeconds - C.stepSettleSeconds);
        const w = await end();
        steps.push({ phones: phonesNow, w });
        const worst = Math.max(...(Object.values(w.gen.routes) as RouteFigures[]).map((r) => percentile(r.ms, 99) || 0));
        const push = w.gen.routes.pushlocations;
        log(
          `mixed ceiling: ${phonesNow} phones (${fmt(phonesNow / (C.ceilingFixIntervalMs / 1000), 0)} fixes/s offered): ` +
            `accepted ${fmt(w.gen.fixesAccepted / w.seconds, 0)}/s, pushlocations p50 ${fmt(percentile(push.ms, 50))} p99 ${fmt(percentile(push.ms, 99))} ms, ` +
            `worst p99 ${fmt(worst)} ms, errors ${errorCount(w)}, load ${w.loadavg}, ` +
            `apis' main threads waiting for a CPU ${fmt((1000 * w.threads.api.runQueueWaitSeconds) / w.seconds, 0)} ms/s (GC ${fmt(w.threads.api.gcMs / w.seconds, 0)} ms/s)`,
        );
        if (worst > C.ceilingP99Ms || errorCount(w) > 0.01 * totalSent(w)) break;
      }
    }
    setRates({ phones: 0, fixIntervalMs: 10_000, dispatcherRps: 0, createEveryMs: 0, createJobs: 0 });
    sampling = false;
    await sampler;
    const loadAfter = readFileSync('/proc/loadavg', 'utf8').trim();
    const logs = [...opened.apis.map((a) => a.child), ...opened.workers].map((c) => ({ label: c.label, errors: errorLines(c) }));
    const report = mixedReport(hold, deliveries.rows, split, steps, {
      loadBefore,
      loadAfter,
      logs,
      serverVersion: opts.serverVersion,
      loopback,
    });
    process.stdout.write(`\n${report.text}`);
    return report.failed && process.env.BENCH_STRICT === '1' ? 1 : 0;
  } finally {
    sampling = false;
    await sampler.catch(() => undefined);
    await closeMixed();
  }
}

type Split = Partial<Record<'idle' | 'phones' | 'staff', Window>>;
/** CPU seconds of everything that serves: api ×3, worker ×2, this database's backends, Redis, haproxy. */
const servedCpu = (w: Window) => w.cpu.api + w.cpu.worker + w.cpu.postgres + w.cpu.redis + w.cpu.haproxy;
const errorCount = (w: Window) =>
  (Object.values(w.gen.routes) as RouteFigures[]).reduce((s, r) => s + Object.values(r.errors).reduce((a, b) => a + b, 0), 0);
const totalSent = (w: Window) => (Object.values(w.gen.routes) as RouteFigures[]).reduce((s, r) => s + r.sent, 0);

/** The child's output lines at level error (Nest's `ERROR` marker, or a stack trace's first line). */
function errorLines(c: Child): string[] {
  return `${c.stdout}\n${c.stderr}`
    .split('\n')
    .filter((l) => /\bERROR\b|Error:/.test(l))
    .slice(-5);
}

const ROUTE_TARGET: Record<MixedRoute, number> = {
  pushlocations: TARGETS.p99Ms,
  locate: TARGETS.locateP99Ms,
  getjobs: TARGETS.p99Ms,
  createjobs: TARGETS.p99Ms,
};

function mixedReport(
  hold: Window,
  deliveries: Array<{ state: string; n: number }>,
  split: Split,
  steps: Array<{ phones: number; w: Window }>,
  run: {
    loadBefore: string;
    loadAfter: string;
    logs: Array<{ label: string; errors: string[] }>;
    serverVersion: string;
    loopback: LoopbackFigures;
  },
): { text: string; failed: number } {
  const C = MIXED_CONFIG;
  let failed = 0;
  const verdict = (ok: boolean) => {
    if (!ok) failed++;
    return ok ? 'PASS' : 'FAIL';
  };
  const rows: string[][] = [];
  for (const [route, r] of Object.entries(hold.gen.routes) as Array<[MixedRoute, RouteFigures]>) {
    const errors = Object.values(r.errors).reduce((a, b) => a + b, 0);
    const p99 = percentile(r.ms, 99);
    rows.push([
      `${route}: p50 / p99 ms (${r.ms.length} ok of ${r.sent}, ${fmt(r.sent / hold.seconds, 1)}/s)`,
      `${fmt(percentile(r.ms, 50))} / ${fmt(p99)}`,
      `p99 ≤ ${ROUTE_TARGET[route]} ms`,
      verdict(p99 <= ROUTE_TARGET[route]),
    ]);
    rows.push([
      `${route}: errors`,
      errors
        ? `${errors} (${Object.entries(r.errors)
            .map(([k, v]) => `${k}×${v}`)
            .join(', ')}; first: ${r.firstError?.slice(0, 120)})`
        : '0',
      '0',
      verdict(errors === 0),
    ]);
  }
  const hookP99 = percentile(hold.hookLagMs, 99);
  const created = hold.gen.routes.createjobs.ms.length * C.createJobs;
  rows.push([
    `webhook lag (jobcreated commit → receipt, ${hold.hookReceived} deliveries to ${C.receivers} receivers, ${hold.hookDuplicates} repeated): p50 / p99 / max ms`,
    `${fmt(percentile(hold.hookLagMs, 50))} / ${fmt(hookP99)} / ${fmt(Math.max(...hold.hookLagMs))}`,
    `≤ ${TARGETS.lagMs} ms`,
    verdict(hookP99 <= TARGETS.lagMs && hold.hookLagMs.length > 0),
  ]);
  // tracks are deferred by design (one build at a time per worker, deduplicated per member): apart
  const lagged = Object.entries(hold.queueLagMs).filter(([k]) => k !== 'tracks');
  const queueMax = Math.max(0, ...lagged.map(([, v]) => v));
  rows.push([
    `worker queues but tracks: oldest due task's age, max over 1-s samples (ms)`,
    lagged
      .filter(([, v]) => v > 0)
      .map(([k, v]) => `${k} ${fmt(v, 0)}`)
      .join(', ') || '0',
    `≤ ${TARGETS.lagMs} ms`,
    verdict(queueMax <= TARGETS.lagMs),
  ]);
  rows.push([
    `tracks queue (deferred by design): oldest due build's age, max (ms); most builds due at once`,
    `${fmt(hold.queueLagMs.tracks ?? 0, 0)}; ${hold.queueWaiting.tracks ?? 0}`,
    '—',
    'info',
  ]);
  rows.push([
    `console streams (${C.streams}): job events commit → received p50 / p99 ms; positions received/s; streams ended`,
    `${fmt(percentile(hold.streamLagMs, 50))} / ${fmt(percentile(hold.streamLagMs, 99))}; ${fmt(hold.streamPositions / hold.seconds, 0)}; ${opened.streams.filter((s) => s.ended).length}`,
    '—',
    'info',
  ]);
  const perKey = hold.gen.maxPerKeyMinute;
  rows.push([
    `rate limit: most requests of one key in one clock minute (default limit ${600}/min)`,
    `${perKey.count} (${perKey.route})`,
    '≤ 600',
    verdict(perKey.count <= 600),
  ]);
  const cpu = hold.cpu;
  const served = cpu.api + cpu.worker + cpu.postgres + cpu.redis + cpu.haproxy;
  rows.push([
    'CPU seconds per second of the hold: api ×3 / worker ×2 / PostgreSQL (this db) / Redis / haproxy / generator',
    [cpu.api, cpu.worker, cpu.postgres, cpu.redis, cpu.haproxy, cpu.generator].map((x) => fmt(x / hold.seconds, 2)).join(' / '),
    '—',
    'info',
  ]);
  const { api: at, worker: wt } = hold.threads;
  const perSecond = (ms: number) => fmt(ms / hold.seconds, 0);
  rows.push([
    `main threads, ms per second of the hold: apis ×${C.apis} on a CPU / waiting for a CPU / in GC (collections > 10 ms; the longest event-loop delay, ms) — workers ×${C.workers} on a CPU / waiting`,
    `${perSecond(1000 * at.cpuSeconds)} / ${perSecond(1000 * at.runQueueWaitSeconds)} / ${perSecond(at.gcMs)} (${at.gcOver10ms}; ${fmt(at.loopDelayMaxMs, 0)}) — ` +
      `${perSecond(1000 * wt.cpuSeconds)} / ${perSecond(1000 * wt.runQueueWaitSeconds)}`,
    '—',
    'info',
  ]);
  const header =
    `Fieldwork bench (mixed) — ${new Date().toISOString()} — node ${process.version}, PostgreSQL ${run.serverVersion}, ` +
    `${os.cpus().length} CPUs; /proc/loadavg before: ${run.loadBefore}; after: ${run.loadAfter}; ` +
    `loopback TCP round trip between two node processes (${run.loopback.roundTrips} one at a time, before the part): ` +
    `${fmt(run.loopback.wallUs, 1)} µs, ${fmt(run.loopback.cpuUs, 1)} µs CPU on one side (${fmt(run.loopback.sysUs, 1)} µs system)`;
  const notes = [
    `Hold: ${fmt(hold.seconds, 0)} s after a ${C.warmupSeconds}-s warm-up; ${C.apis} built apis + ${C.workers} built workers behind haproxy (${C.balance === 'leastconn' ? 'least connections' : 'round robin'}), the default rate limit, pool ${C.poolSize} each; ` +
      `${C.phones} phones (${C.phoneRoute === 'osmand' ? '/osmand, own device id' : 'pushlocations, own key'}, 1 fix / ${C.fixIntervalMs / 1000} s each), ${C.dispatchers} dispatchers (operators, own key, ${C.streams} of them with a console stream open; locate {teams: true} and getjobs {day, worker} alternating, ${C.dispatcherRps} req/s in all), ` +
      `createjobs of ${C.createJobs} every ${C.createEveryMs / 1000} s (administrator key), ${C.receivers} REST hook subscriptions to jobcreated (one receiver each). Load generator: one child process, open loop, undici.`,
    `Requests without an answer when the hold ended: ${hold.gen.inFlight}. Jobs created in the hold: ${created}; deliveries expected ≈ ${created * C.receivers}, received in the window ${hold.hookReceived}. webhook_deliveries at the end of the hold: ${deliveries.map((d) => `${d.state} ${d.n}`).join(', ')}.`,
    // 30 calls whose p99 is their slowest: each one's time, to see where in the hold a slow one fell
    `createjobs calls in the hold, in the order answered (ms): ${hold.gen.routes.createjobs.ms.map((ms) => fmt(ms)).join(', ') || 'none'}.`,
    `Most due tasks seen waiting per queue: ${
      Object.entries(hold.queueWaiting)
        .filter(([, v]) => v > 0)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || 'none'
    }.`,
    `CPU per accepted fix over the hold (everything served: api+worker+PostgreSQL+Redis+haproxy, all routes' work included) = ${fmt((served / Math.max(1, hold.gen.fixesAccepted)) * 1000, 2)} ms.`,
    `Error lines in the processes' logs: ${run.logs.map((l) => `${l.label} ${l.errors.length}`).join(', ')}${run.logs.some((l) => l.errors.length) ? ` — ${run.logs.flatMap((l) => l.errors.map((e) => `${l.label}: ${e.slice(0, 200)}`)).join(' | ')}` : ''}.`,
  ];
  let text = `${header}\n\n${markdownTable(['mixed load (held)', 'measured', 'target', 'pass/fail'], rows)}\n\n${notes.join('\n')}\n`;
  if (split.idle && split.phones && split.staff) {
    const idle = split.idle;
    const perS = (w: Window, k: keyof Window['cpu']) => w.cpu[k] / w.seconds;
    const groups: Array<keyof Window['cpu']> = ['api', 'worker', 'postgres', 'redis', 'haproxy'];
    const splitRows = (['idle', 'phones', 'staff'] as const).map((name) => {
      const w = split[name]!;
      const net = servedCpu(w) / w.seconds - servedCpu(idle) / idle.seconds;
      const fixes = w.gen.fixesAccepted / w.seconds;
      const staff = (w.gen.routes.locate.ms.length + w.gen.routes.getjobs.ms.length) / w.seconds;
      return [
        name,
        fmt(fixes, 0),
        fmt(staff, 1),
        ...groups.map((g) => fmt(perS(w, g), 3)),
        fmt(servedCpu(w) / w.seconds, 2),
        name === 'phones'
          ? `${fmt((net / Math.max(fixes, 1e-9)) * 1000, 2)} ms / fix`
          : name === 'staff'
            ? `${fmt(net, 2)} s/s for ${fmt(staff, 1)} req/s + createjobs`
            : '—',
        w.loadavg.split(' ')[0],
      ];
    });
    text +=
      `\n${markdownTable(['window', 'fixes/s', 'locate+getjobs/s', ...groups.map((g) => `${g} CPU s/s`), 'served CPU s/s', 'net of idle', 'load (1 min)'], splitRows)}\n\n` +
      `Split (after the hold, ${C.splitSeconds} s each, each with a fresh generator — the hold's backlog dropped — after the worker's queues emptied, ≤ 60 s): "idle" sends nothing (the streams stay open: timers, heartbeats, the streams' position reads); ` +
      `"phones" the hold's ${C.phones} phones alone; "staff" the dispatchers' polling and createjobs alone (webhooks and stream events included). Net of idle = served CPU/s − idle's.\n`;
  }
  if (steps.length) {
    const stepRows = steps.map(({ phones, w }) => {
      const push = w.gen.routes.pushlocations;
      const c = w.cpu;
      const servedCpu = c.api + c.worker + c.postgres + c.redis + c.haproxy;
      return [
        String(phones),
        fmt(phones / (C.ceilingFixIntervalMs / 1000), 0),
        fmt(w.gen.fixesAccepted / w.seconds, 0),
        `${fmt(percentile(push.ms, 50))} / ${fmt(percentile(push.ms, 99))}`,
        fmt(percentile(w.gen.routes.locate.ms, 99)),
        fmt(percentile(w.gen.routes.getjobs.ms, 99)),
        fmt(percentile(w.gen.routes.createjobs.ms, 99)),
        String(errorCount(w)),
        fmt(servedCpu / w.seconds, 2),
        fmt((servedCpu / Math.max(1, w.gen.fixesAccepted)) * 1000, 2),
        fmt(c.generator / w.seconds, 2),
        w.loadavg.split(' ')[0],
      ];
    });
    const lastOk = [...steps]
      .reverse()
      .find(
        ({ w }) =>
          Math.max(...(Object.values(w.gen.routes) as RouteFigures[]).map((r) => percentile(r.ms, 99) || 0)) <= C.ceilingP99Ms &&
          errorCount(w) <= 0.01 * totalSent(w),
      );
    const broke = steps.find(
      ({ w }) =>
        !(
          Math.max(...(Object.values(w.gen.routes) as RouteFigures[]).map((r) => percentile(r.ms, 99) || 0)) <= C.ceilingP99Ms &&
          errorCount(w) <= 0.01 * totalSent(w)
        ),
    );
    // marginal CPU per fix: least squares of served CPU/s over accepted fixes/s across the steps
    const xs = steps.map(({ w }) => w.gen.fixesAccepted / w.seconds);
    const ys = steps.map(({ w }) => (w.cpu.api + w.cpu.worker + w.cpu.postgres + w.cpu.redis + w.cpu.haproxy) / w.seconds);
    const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
    const my = ys.reduce((a, b) => a + b, 0) / ys.length;
    const best = steps.reduce((a, b) => (b.w.gen.fixesAccepted / b.w.seconds > a.w.gen.fixesAccepted / a.w.seconds ? b : a));
    const slope = xs.length > 1 ? xs.reduce((s, x, i) => s + (x - mx) * (ys[i] - my), 0) / xs.reduce((s, x) => s + (x - mx) ** 2, 0) : NaN;
    text +=
      `\n${markdownTable(
        [
          'phones',
          'fixes/s offered',
          'fixes/s accepted',
          'pushlocations p50 / p99 ms',
          'locate p99',
          'getjobs p99',
          'createjobs p99',
          'errors',
          'served CPU s/s',
          'CPU ms / fix',
          'generator CPU s/s',
          'load (1 min)',
        ],
        stepRows,
      )}\n\n` +
      `Ceiling: phones at 1 fix / ${C.ceilingFixIntervalMs / 1000} s, +${C.stepPhones} a step (+${2 * C.stepPhones} from ${C.widenAtPhones}) of ${C.stepSeconds} s (first ${C.stepSettleSeconds} s not measured), the dispatchers and createjobs as in the hold; added phones in other companies. ` +
      `Last step with every route's p99 ≤ ${C.ceilingP99Ms} ms and errors ≤ 1 %: ${lastOk ? `${lastOk.phones} phones (${fmt(lastOk.w.gen.fixesAccepted / lastOk.w.seconds, 0)} fixes/s accepted)` : 'none'}; ` +
      `${broke ? `passed at ${broke.phones} phones` : `not passed up to ${steps[steps.length - 1].phones} phones (MIXED_MAX_PHONES)`}. ` +
      `"CPU ms / fix" = CPU of everything served (api ×3, worker ×2, this database's PostgreSQL backends, the Redis server (shared: INFO cpu), haproxy) ÷ fixes accepted, the dispatchers' and createjobs' work included; ` +
      `Most fixes/s accepted in a step: ${fmt(best.w.gen.fixesAccepted / best.w.seconds, 0)} (at ${best.phones} phones). ` +
      `Marginal cost (least squares of served CPU/s over fixes/s across the steps): ${fmt(slope * 1000, 2)} ms CPU per fix. The generator's CPU is apart (it shares the 2 cores).\n`;
  }
  return { text, failed };
}
