/**
 * Webhook delivery through the real pipeline — createjobs/editjobs on the in-process api → outbox
 * (+ fan-out trigger) → `wake` task → ONE built worker child process → node:http receivers on
 * 127.0.0.1 — against plain undici loops, in the same run. See bench/README.md ("Webhook delivery").
 */
import { ChildProcess, fork } from 'node:child_process';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import pg from 'pg';
import { createCompany, TestApi, TestCompany } from '../test/support/api';
import { Child } from '../test/support/proc-child';
import { verifySignature } from '../test/support/webhook-receiver';
import { dayFromToday, makeJob } from './fixtures';
import { fmt, median, percentile, post } from './stats';
import { BaselineConfig, BaselineRequest, BaselineResult, baselineAgent, sendSigned } from './webhooks-baseline';
import { BenchReceiver, Receipt, ReceiptLog } from './webhooks-receiver';
import { TaskCounter, TaskTally } from './webhooks-events';
import { cpuSeconds, startBenchWorker } from './webhooks-worker';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

export const WEBHOOK_CONFIG = {
  companies: envInt('BENCH_WEBHOOK_COMPANIES', 10),
  jobs: envInt('BENCH_WEBHOOK_JOBS', 2000),
  batch: envInt('BENCH_WEBHOOK_BATCH', 50),
  warmupJobs: envInt('BENCH_WEBHOOK_WARMUP_JOBS', 200),
  edits: envInt('BENCH_WEBHOOK_EDITS', 200),
  editWarmups: 20,
  editConcurrency: envInt('BENCH_WEBHOOK_EDIT_CONCURRENCY', 4),
  slowMs: envInt('BENCH_WEBHOOK_SLOW_MS', 2000),
  /**
   * unslowed backlog rounds, each followed by its baseline; and slowed rounds, each right after one of
   * them: every ratio is taken per adjacent pair and the median of the pairs is the figure (odd counts:
   * a middle pair), so a pass of the shared machine that moves one round moves one pair, not the figure
   */
  rounds: envInt('BENCH_WEBHOOK_ROUNDS', 3),
  slowedRounds: envInt('BENCH_WEBHOOK_SLOWED_ROUNDS', 3),
  /** the worker's settings: its defaults */
  workerConcurrency: envInt('BENCH_WEBHOOK_CONCURRENCY', 32),
  maxInFlightPerEndpoint: envInt('BENCH_WEBHOOK_MAX_IN_FLIGHT', 4),
  claimRounds: envInt('BENCH_WEBHOOK_CLAIM_ROUNDS', 4),
  /** the baseline's concurrency: the worker's */
  baselineConcurrency: envInt('BENCH_WEBHOOK_CONCURRENCY', 32),
  roundTimeoutMs: 180_000,
};
/** Issue #29 item 6: the backlog at ≥ 90 % of the bare undici loop (issue #5's target was 50 %). */
export const WEBHOOK_TARGETS = { throughputShare: 0.9, slowOthersShare: 0.9 };

/** Where a round's CPU went (seconds) and how its deliveries spent their time (from the delivery tables). */
export interface RoundDiagnostics {
  cpu: { worker: number; postgres: number; bench: number; redis: number };
  /** medians, ms: outbox row written → attempt started; the HTTP attempt; attempt ended → delivery row finished */
  queuedP50: number;
  queuedP99: number;
  httpP50: number;
  recordP50: number;
  attemptsPerDelivery: number;
  /** the worker's tasks during the round by outcome (BullMQ events): delivered, deferred (per-endpoint cap), skipped, wake, … */
  tasks: TaskTally;
  /** deliveries in flight (claimed, not recorded), sampled every 50 ms: mean and max, total and on one endpoint */
  inFlight: { mean: number; max: number; maxPerEndpoint: number };
}

export interface RoundFigures {
  label: string;
  /** `live`: timed from the first createjobs call; `backlog`: the events were written with the queue paused, timed from its resume */
  mode: 'live' | 'backlog';
  events: number;
  elapsedMs: number;
  /** ms the createjobs calls took */
  createdMs: number;
  rps: number;
  /** the companies other than the slowed one: deliveries/s until the last of theirs arrived, and latency */
  others: { events: number; rps: number; p50: number; p99: number };
  /** createjobs call start (live) or resume (backlog) → receipt, ms */
  p50: number;
  p99: number;
  /** receipts of the slowed company by the time the others were done (slowed round only) */
  slowReceived?: number;
  diag: RoundDiagnostics;
}

export interface WebhookFigures {
  /** the backlog rounds: the throughput figure */
  rounds: RoundFigures[];
  /** the live round: end to end, with createjobs */
  live: RoundFigures;
  /** `baseline[i]`: the undici loop right after `rounds[i]`, over the same bodies */
  baseline: Array<BaselineResult & { rps: number }>;
  latency: { ours: { p50: number; p99: number }; baseline: { p50: number; p99: number }; edits: number; editP50: number };
  /** `slowed[j]`: one endpoint slowed, right after `rounds[j]` and its baseline */
  slowed: RoundFigures[];
  duplicates: number;
  signaturesChecked: number;
}

interface BenchCompany extends TestCompany {
  index: number;
  secret: string;
  receiver: BenchReceiver;
}

/** What the webhook bench opened, closed by {@link closeWebhooks}. */
const opened: { worker?: Child; receivers: BenchReceiver[]; children: Set<ChildProcess> } = { receivers: [], children: new Set() };

/** Stops the worker child (SIGTERM, SIGKILL after 10 s), the baseline child and the receivers. Safe to call twice. */
export async function closeWebhooks(): Promise<void> {
  for (const child of opened.children) child.kill('SIGKILL');
  const receivers = opened.receivers.splice(0);
  // receivers first: a worker stopping waits for its in-flight requests, which then fail fast
  await Promise.all(receivers.map((r) => r.close().catch(() => undefined)));
  const worker = opened.worker;
  opened.worker = undefined;
  if (worker) await worker.stop('SIGTERM', 10_000).catch(() => undefined);
}

function runBaselineChild(cfg: BaselineConfig): Promise<BaselineResult> {
  return new Promise((resolve, reject) => {
    const child = fork(require.resolve('./webhooks-baseline'), [], {
      execArgv: process.execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    opened.children.add(child);
    child.once('exit', (code) => {
      opened.children.delete(child);
      if (code !== 0) reject(new Error(`webhook baseline exited with ${code}`));
    });
    child.once('message', (msg: BaselineResult | { error: string }) => ('error' in msg ? reject(new Error(msg.error)) : resolve(msg)));
    child.once('error', reject);
    child.send(cfg);
  });
}

async function action(api: TestApi, key: string, name: string, data: unknown): Promise<any> {
  const res = await post(`${api.url}/api/${name}`, JSON.stringify({ data }), { 'api-key': key });
  const body = JSON.parse(res.text);
  if (res.status !== 200 || body.status !== 0) throw new Error(`${name} answered ${res.status}: ${res.text.slice(0, 300)}`);
  return body;
}

const hooksFor = (c: { receiver: BenchReceiver }) => ({
  job_created: { url: `${c.receiver.url}/ours/job_created` },
  job_updated: { url: `${c.receiver.url}/ours/job_updated` },
});

/** CPU seconds so far of the worker, of this database's PostgreSQL backends (by pid), of this process, and of Redis (whole server). */
async function cpuSnapshot(
  pool: pg.Pool,
  redis: Redis,
  workerPid: number,
): Promise<{ worker: number; backends: Map<number, number>; bench: number; redis: number }> {
  const { rows } = await pool.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`);
  const backends = new Map(rows.map((r) => [r.pid, cpuSeconds(r.pid)]));
  const info = await redis.info('cpu').catch(() => '');
  const num = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? NaN);
  const u = process.cpuUsage();
  return {
    worker: cpuSeconds(workerPid),
    backends,
    bench: (u.user + u.system) / 1e6,
    redis: num('used_cpu_user') + num('used_cpu_sys'),
  };
}

function cpuDelta(a: Awaited<ReturnType<typeof cpuSnapshot>>, b: Awaited<ReturnType<typeof cpuSnapshot>>): RoundDiagnostics['cpu'] {
  let postgres = 0;
  for (const [pid, after] of b.backends) postgres += after - (a.backends.get(pid) ?? 0); // a backend opened mid-round started at 0
  return { worker: b.worker - a.worker, postgres, bench: b.bench - a.bench, redis: b.redis - a.redis };
}

/** Samples the deliveries in flight every 50 ms until stopped. */
function sampleInFlight(pool: pg.Pool): { stop: () => Promise<RoundDiagnostics['inFlight']> } {
  const totals: number[] = [];
  let maxPerEndpoint = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE state = 'in_flight' GROUP BY endpoint_id`,
      );
      totals.push(rows.reduce((a, r) => a + r.n, 0));
      maxPerEndpoint = Math.max(maxPerEndpoint, ...rows.map((r) => r.n));
      await new Promise((r) => setTimeout(r, 50));
    }
  })().catch(() => undefined); // the pool closed under it (clean-up on a signal): stop sampling
  return {
    stop: async () => {
      running = false;
      await loop;
      return { mean: totals.reduce((a, b) => a + b, 0) / Math.max(1, totals.length), max: Math.max(0, ...totals), maxPerEndpoint };
    },
  };
}

/** Waits until no delivery is pending or in flight (the previous round's stragglers are done). */
async function quiesce(pool: pg.Pool, timeoutMs = 30_000): Promise<void> {
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

/** The delivery and attempt rows of these events: where their time went. */
async function deliveryDiagnostics(pool: pg.Pool, eventIds: string[]): Promise<Omit<RoundDiagnostics, 'cpu' | 'tasks' | 'inFlight'>> {
  const { rows } = await pool.query<{ queued: number; http: number; record: number; attempts: number }>(
    `SELECT (a.started_at - d.created_at)::float8 AS queued, a.duration_ms::float8 AS http,
            (d.finished_at - a.started_at - a.duration_ms)::float8 AS record,
            d.attempts
       FROM webhook_deliveries d
       JOIN LATERAL (SELECT started_at, duration_ms FROM webhook_attempts x WHERE x.delivery_id = d.id ORDER BY started_at DESC LIMIT 1) a ON true
      WHERE d.event_id = ANY($1::text[]) AND d.state = 'delivered'`,
    [eventIds],
  );
  return {
    queuedP50: percentile(
      rows.map((r) => r.queued),
      50,
    ),
    queuedP99: percentile(
      rows.map((r) => r.queued),
      99,
    ),
    httpP50: percentile(
      rows.map((r) => r.http),
      50,
    ),
    recordP50: percentile(
      rows.map((r) => r.record),
      50,
    ),
    attemptsPerDelivery: rows.reduce((s, r) => s + r.attempts, 0) / Math.max(1, rows.length),
  };
}

/**
 * Sets up the companies, receivers and the worker, then measures: a live round (createjobs while
 * the worker delivers), two unslowed backlog rounds (each followed by its baseline), the editjobs →
 * receipt latency, and a backlog round with one endpoint answering in {@link WEBHOOK_CONFIG.slowMs}. Call {@link closeWebhooks} afterwards (also on failure).
 */
export async function benchWebhooks(opts: { api: TestApi; pool: pg.Pool; log: (line: string) => void }): Promise<WebhookFigures> {
  const { api, pool, log } = opts;
  const cfg = WEBHOOK_CONFIG;
  const receipts = new ReceiptLog();
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  const tasks = new TaskCounter(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', process.env.QUEUE_PREFIX!);
  // the worker's queue, to hold its tasks while a backlog round writes its events
  const u = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const queue = new Queue('webhook-delivery', {
    prefix: process.env.QUEUE_PREFIX!,
    connection: { host: u.hostname, port: Number(u.port || 6379), db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0 },
  });
  try {
    await tasks.ready();
    // companies, one receiver each, job_created + job_updated configured
    const companies: BenchCompany[] = [];
    for (let i = 0; i < cfg.companies; i++) {
      const receiver = await new BenchReceiver(i, receipts).start();
      opened.receivers.push(receiver);
      const c = await createCompany(api, { name: `Bench webhooks ${i}` });
      const res = await action(api, c.key, 'setwebhooks', hooksFor({ receiver }));
      if (typeof res.secret !== 'string') throw new Error('setwebhooks answered no secret');
      companies.push({ ...c, index: i, secret: res.secret, receiver });
    }
    const slow = companies[companies.length - 1];

    const worker = await startBenchWorker(pool, {
      concurrency: cfg.workerConcurrency,
      maxInFlightPerEndpoint: cfg.maxInFlightPerEndpoint,
      claimRounds: cfg.claimRounds,
    });
    opened.worker = worker;
    log(`webhooks: worker pid ${worker.pid}, ${cfg.companies} companies with receivers`);

    let jobSeq = 0;
    const days = [1, 2, 3, 4, 5].map(dayFromToday);
    /** Creates `n` jobs in batches rotating over the companies; waits until every jobcreated arrived (or only the non-slow ones). */
    type Round = RoundFigures & { byCompany: string[][]; receipts: Receipt[] };
    /**
     * Creates `n` jobs in batches rotating over the companies; waits until every jobcreated arrived
     * (or only the non-slow ones). `live`: the worker delivers while the jobs are created, timed from
     * the first createjobs call. `backlog`: the queue is paused while the jobs are created (their
     * events, delivery rows and wake tasks wait), timed from its resume: outbox → queue → worker → receiver alone.
     */
    const round = async (label: string, n: number, mode: 'live' | 'backlog', waitOthersOnly = false): Promise<Round> => {
      await quiesce(pool);
      if (mode === 'backlog') await queue.pause();
      let before = await cpuSnapshot(pool, redis, worker.pid);
      tasks.take();
      const sampler = sampleInFlight(pool);
      const started = new Map<string, number>();
      const companyOf = new Map<string, number>();
      const ids: string[] = [];
      let t0 = performance.now();
      let createdMs = 0;
      let got: Receipt[];
      try {
        for (let call = 0, made = 0; made < n; call++) {
          const c = companies[call % companies.length];
          const size = Math.min(cfg.batch, n - made);
          const jobs = Array.from({ length: size }, () => makeJob(jobSeq, days[jobSeq++ % days.length]));
          const s = performance.now();
          const res = await action(api, c.key, 'createjobs', { jobs });
          for (const job of res.jobs as Array<{ id: string }>) {
            started.set(job.id, s);
            companyOf.set(job.id, c.index);
            ids.push(job.id);
          }
          made += size;
        }
        createdMs = performance.now() - t0;
        if (mode === 'backlog') {
          // the CPU of the timed part only (not the creation's)
          before = await cpuSnapshot(pool, redis, worker.pid);
          t0 = performance.now();
          for (const id of ids) started.set(id, t0);
          await queue.resume();
        }
        const othersIds = ids.filter((id) => companyOf.get(id) !== slow.index);
        got = await receipts.waitForJobs('ours', 'jobcreated', waitOthersOnly ? othersIds : ids, cfg.roundTimeoutMs);
      } catch (err) {
        await sampler.stop();
        await queue.resume();
        throw new Error(`webhooks ${label}: ${(err as Error).message}\n${worker.output()}`);
      }
      const after = await cpuSnapshot(pool, redis, worker.pid);
      const inFlight = await sampler.stop();
      const tally = tasks.take();
      const lat = (rs: Receipt[]) => rs.map((r) => r.at - started.get(r.formId)!);
      const end = (rs: Receipt[]) => Math.max(...rs.map((r) => r.at));
      const others = got.filter((r) => r.company !== slow.index);
      const elapsedMs = end(got) - t0;
      const fig: Round = {
        label,
        mode,
        events: got.length,
        elapsedMs,
        createdMs,
        rps: (got.length / elapsedMs) * 1000,
        others: {
          events: others.length,
          rps: (others.length / (end(others) - t0)) * 1000,
          p50: percentile(lat(others), 50),
          p99: percentile(lat(others), 99),
        },
        p50: percentile(lat(got), 50),
        p99: percentile(lat(got), 99),
        byCompany: companies.map((c) => ids.filter((id) => companyOf.get(id) === c.index)),
        receipts: got,
        diag: {
          cpu: cpuDelta(before, after),
          tasks: tally,
          inFlight,
          ...(await deliveryDiagnostics(
            pool,
            got.map((r) => r.webhookId),
          )),
        },
      };
      if (waitOthersOnly)
        fig.slowReceived = ids.filter((id) => companyOf.get(id) === slow.index && receipts.job('ours', 'jobcreated', id)).length;
      log(
        `webhooks ${label} (${mode}): ${fig.events} deliveries in ${(elapsedMs / 1000).toFixed(2)} s = ${fmt(fig.rps, 0)}/s ` +
          `(creates took ${(createdMs / 1000).toFixed(2)} s${mode === 'backlog' ? ', before the timed part' : ''}; others ${fmt(fig.others.rps, 0)}/s, p50 ${fmt(fig.others.p50, 0)} ms, p99 ${fmt(fig.others.p99, 0)} ms; ` +
          `worker CPU ${fmt(fig.diag.cpu.worker, 2)} s, postgres ${fmt(fig.diag.cpu.postgres, 2)} s, tasks ${JSON.stringify(tally)}, ` +
          `in flight mean ${fmt(inFlight.mean)} / max ${inFlight.max} / max per endpoint ${inFlight.maxPerEndpoint})`,
      );
      return fig;
    };

    const baseline = async (r: { receipts: Receipt[] }): Promise<BaselineResult & { rps: number }> => {
      // the very bodies the worker delivered, in the order they were created, re-signed per request
      const byCompany = new Map(companies.map((c) => [c.index, c]));
      const requests: BaselineRequest[] = r.receipts.map((x) => ({
        url: `${byCompany.get(x.company)!.receiver.url}/base/job_created`,
        webhookId: x.webhookId,
        secret: x.company,
        body: x.body!,
      }));
      const benchCpu0 = process.cpuUsage();
      const res = await runBaselineChild({ requests, secrets: companies.map((c) => c.secret), concurrency: cfg.baselineConcurrency });
      const benchCpu = process.cpuUsage(benchCpu0); // the receivers (the in-process api is idle meanwhile)
      if (res.errors) throw new Error(`webhook baseline: ${res.errors} failed requests (first: ${res.firstError})`);
      await receipts.waitForJobs(
        'base',
        'jobcreated',
        r.receipts.map((x) => x.formId),
        10_000,
      );
      const out = { ...res, rps: (res.requests / res.elapsedMs) * 1000 };
      log(
        `webhooks baseline: ${res.requests} POSTs in ${(res.elapsedMs / 1000).toFixed(2)} s = ${fmt(out.rps, 0)}/s (c=${cfg.baselineConcurrency}); ` +
          `CPU s per 1,000: the loop ${fmt((res.cpuS / res.requests) * 1000, 2)}, bench process (receivers) ${fmt(((benchCpu.user + benchCpu.system) / 1e6 / res.requests) * 1000, 2)}`,
      );
      return out;
    };

    // warm-up (JIT, connections, the worker's first tasks)
    await round('warm-up', cfg.warmupJobs, 'live');
    const live = await round('live', cfg.jobs, 'live');

    // editjobs → receipt, closed loops over the first round's jobs
    const measureEdits = async (roundA: Round): Promise<WebhookFigures['latency']> => {
      const agent = baselineAgent();
      const latency = { ours: [] as number[], base: [] as number[], edit: [] as number[] };
      try {
        const perCompany = roundA.byCompany;
        let next = 0;
        const total = cfg.editWarmups + cfg.edits;
        await Promise.all(
          Array.from({ length: cfg.editConcurrency }, async () => {
            while (next < total) {
              const e = next++;
              const c = companies[e % companies.length];
              const id = perCompany[c.index][Math.floor(e / companies.length) % perCompany[c.index].length];
              const t0 = performance.now();
              const res = await action(api, c.key, 'editjobs', { jobs: { [id]: { textDispatcher: `bench edit ${e}` } } });
              const t1 = performance.now();
              const body = new URLSearchParams({
                account: c.username,
                id,
                data: JSON.stringify(res.jobs),
                action: 'jobupdated',
                reason: 'jobupdated',
              }).toString();
              const status = await sendSigned(agent, `${c.receiver.url}/base/job_updated`, `msg_benchedit${e}`, c.secret, body);
              if (status !== 200) throw new Error(`baseline POST answered ${status}`);
              const [ours] = await receipts.waitForJobs('ours', 'jobupdated', [id], 30_000);
              const base = receipts.job('base', 'jobupdated', id)!;
              // a later edit of this job must be told apart from this one
              receipts.forget('ours', 'jobupdated', id);
              receipts.forget('base', 'jobupdated', id);
              if (e < cfg.editWarmups) continue;
              latency.ours.push(ours.at - t0);
              latency.base.push(base.at - t0);
              latency.edit.push(t1 - t0);
            }
          }),
        );
      } finally {
        await agent.close();
      }
      const lat = {
        ours: { p50: percentile(latency.ours, 50), p99: percentile(latency.ours, 99) },
        baseline: { p50: percentile(latency.base, 50), p99: percentile(latency.base, 99) },
        edits: latency.ours.length,
        editP50: percentile(latency.edit, 50),
      };
      log(
        `webhooks editjobs → receipt: p50 ${fmt(lat.ours.p50)} ms, p99 ${fmt(lat.ours.p99)} ms ` +
          `(baseline p50 ${fmt(lat.baseline.p50)} ms, p99 ${fmt(lat.baseline.p99)} ms; editjobs alone p50 ${fmt(lat.editP50)} ms)`,
      );
      return lat;
    };

    /** A backlog round with one endpoint answering in `slowMs` (the other companies' deliveries timed), then that endpoint restored. */
    const slowedRound = async (k: number): Promise<Round> => {
      slow.receiver.delayMs = cfg.slowMs;
      const slowed = await round(`slowed ${k} (company ${slow.index} answers in ${cfg.slowMs} ms)`, cfg.jobs, 'backlog', true);
      // stop the slow endpoint's backlog (removing the key abandons its pending deliveries), then restore it
      await action(api, slow.key, 'setwebhooks', { job_created: null });
      slow.receiver.delayMs = 0;
      await quiesce(pool, 15_000);
      const deadline = Date.now() + cfg.slowMs + 5_000;
      while (slow.receiver.pending && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await action(api, slow.key, 'setwebhooks', hooksFor(slow));
      return slowed;
    };

    // the unslowed rounds, each with its baseline right after it, and a slowed round after each of the first ones
    const rounds: Round[] = [];
    const baselines: Array<BaselineResult & { rps: number }> = [];
    const slowed: Round[] = [];
    let latency: WebhookFigures['latency'] | undefined;
    let signaturesChecked = 0;
    for (let i = 0; i < Math.max(1, cfg.rounds, cfg.slowedRounds); i++) {
      const roundA = await round(`round ${i + 1}`, cfg.jobs, 'backlog');
      rounds.push(roundA);
      if (i === 0) {
        // the deliveries are what the contract says: signed with the company's secret, one webhook-id per event
        for (const r of roundA.receipts.filter((_, k) => k % 50 === 0)) {
          const c = companies[r.company];
          const ok = verifySignature(c.secret, { path: '', headers: r.headers!, body: r.body!, form: {}, at: 0 });
          if (!ok) throw new Error(`webhook ${r.webhookId} to company ${r.company}: the signature does not verify`);
          signaturesChecked += 1;
        }
      }
      baselines.push(await baseline(roundA));
      if (i === 0) latency = await measureEdits(roundA);
      if (i < cfg.slowedRounds) slowed.push(await slowedRound(i + 1));
    }

    const strip = ({ byCompany: _b, receipts: _r, ...f }: Round): RoundFigures => f;
    return {
      rounds: rounds.map(strip),
      live: strip(live),
      baseline: baselines,
      latency: latency!,
      slowed: slowed.map(strip),
      duplicates: receipts.duplicates,
      signaturesChecked,
    };
  } finally {
    await queue.resume().catch(() => undefined);
    await queue.close();
    redis.disconnect();
    await tasks.close();
  }
}

/** The item of `xs` whose `key` is the median (nearest rank) of all keys. @throws Error when `xs` is empty */
function medianBy<T>(xs: T[], key: (x: T) => number): T {
  if (!xs.length) throw new Error('no pairs to take a median of');
  const target = median(xs.map(key));
  return xs.find((x) => key(x) === target)!;
}

/** The webhook table's rows and the notes under it. */
export function webhookReport(f: WebhookFigures): { rows: string[][]; notes: string[]; failed: number } {
  const pass = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  const sum = <T>(xs: T[], v: (x: T) => number) => xs.reduce((s, x) => s + v(x), 0);
  // per adjacent pair: each backlog round against the baseline run right after it, each slowed round
  // against the unslowed round right before it; the figure is the median pair (nearest rank)
  const pairs = f.baseline.map((b, i) => ({ ours: f.rounds[i].rps, base: b.rps, share: f.rounds[i].rps / b.rps }));
  const { ours, base, share } = medianBy(pairs, (p) => p.share);
  const pooled =
    sum(f.rounds.slice(0, pairs.length), (r) => r.events) /
    (sum(f.rounds.slice(0, pairs.length), (r) => r.elapsedMs) / 1000) /
    (sum(f.baseline, (b) => b.requests) / (sum(f.baseline, (b) => b.elapsedMs) / 1000));
  const slowPairs = f.slowed.map((slowed, j) => ({ slowed, unslowed: f.rounds[j], share: slowed.others.rps / f.rounds[j].others.rps }));
  const { slowed, unslowed, share: othersShare } = medianBy(slowPairs, (p) => p.share);
  const percents = (xs: Array<{ share: number }>) => xs.map((p) => `${(p.share * 100).toFixed(0)} %`).join(', ');
  const n = WEBHOOK_CONFIG.companies;
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
  const rows = [
    [
      `webhooks job_created, ${n} endpoints: deliveries/s of a backlog (outbox → queue → worker → receiver; baseline: undici loop, c=${WEBHOOK_CONFIG.baselineConcurrency}, right after it; the median of ${pairs.length} pairs)`,
      fmt(ours, 0),
      fmt(base, 0),
      `${(share * 100).toFixed(0)} %`,
      `≥ ${WEBHOOK_TARGETS.throughputShare * 100} %`,
      pass(share >= WEBHOOK_TARGETS.throughputShare),
    ],
    [
      `webhooks live: deliveries/s from the first createjobs call (baseline: createjobs alone, jobs/s)`,
      fmt(f.live.rps, 0),
      fmt((f.live.events / f.live.createdMs) * 1000, 0),
      `${((f.live.rps / ((f.live.events / f.live.createdMs) * 1000)) * 100).toFixed(0)} %`,
      '—',
      'info',
    ],
    ['webhooks live: createjobs call → receipt, p50 / p99 ms', `${fmt(f.live.p50, 0)} / ${fmt(f.live.p99, 0)}`, '—', '—', '—', 'info'],
    [
      `webhooks editjobs → receipt, p50 ms (${f.latency.edits} edits, c=${WEBHOOK_CONFIG.editConcurrency}; baseline: editjobs, then one direct POST)`,
      fmt(f.latency.ours.p50),
      fmt(f.latency.baseline.p50),
      ratio(f.latency.ours.p50, f.latency.baseline.p50),
      '—',
      'info',
    ],
    [
      'webhooks editjobs → receipt, p99 ms',
      fmt(f.latency.ours.p99),
      fmt(f.latency.baseline.p99),
      ratio(f.latency.ours.p99, f.latency.baseline.p99),
      '—',
      'info',
    ],
    [
      `webhooks, 1 of ${n} endpoints answering in ${WEBHOOK_CONFIG.slowMs / 1000} s: the other ${n - 1}'s deliveries/s (baseline: same ${n - 1}, the unslowed round right before; the median of ${slowPairs.length} pairs)`,
      fmt(slowed.others.rps, 0),
      fmt(unslowed.others.rps, 0),
      `${(othersShare * 100).toFixed(0)} %`,
      `≥ ${WEBHOOK_TARGETS.slowOthersShare * 100} %`,
      pass(othersShare >= WEBHOOK_TARGETS.slowOthersShare),
    ],
    [
      `webhooks, 1 endpoint slowed: the other ${n - 1}'s resume → receipt, p50 / p99 ms (the median pair)`,
      `${fmt(slowed.others.p50, 0)} / ${fmt(slowed.others.p99, 0)}`,
      `${fmt(unslowed.others.p50, 0)} / ${fmt(unslowed.others.p99, 0)}`,
      `${ratio(slowed.others.p50, unslowed.others.p50)} / ${ratio(slowed.others.p99, unslowed.others.p99)}`,
      '—',
      'info',
    ],
  ];
  const perK = (s: number, events: number) => `${fmt((s / events) * 1000, 2)}`;
  const diagLine = (r: RoundFigures) => {
    const d = r.diag;
    return (
      `  ${r.label}: ${r.events} deliveries in ${(r.elapsedMs / 1000).toFixed(2)} s; outbox row → attempt start p50 ${fmt(d.queuedP50, 0)} ms / p99 ${fmt(d.queuedP99, 0)} ms, ` +
      `HTTP p50 ${fmt(d.httpP50, 0)} ms, attempt end → recorded p50 ${fmt(d.recordP50, 0)} ms; ` +
      `in flight mean ${fmt(d.inFlight.mean)} / max ${d.inFlight.max} (max ${d.inFlight.maxPerEndpoint} on one endpoint); ` +
      `worker tasks: drain → drained ${d.tasks.drained ?? 0} (${d.tasks.batches ?? 0} batches), → idle (nothing due, or the endpoint's slots held by another drain) ${d.tasks.idle ?? 0}, wake ${d.tasks.wake ?? 0}; ` +
      `attempts/delivery ${fmt(d.attemptsPerDelivery, 2)}; CPU s per 1,000 deliveries: worker ${perK(d.cpu.worker, r.events)}, PostgreSQL backends ${perK(d.cpu.postgres, r.events)}, ` +
      `bench process (api + receivers) ${perK(d.cpu.bench, r.events)}, Redis (whole server) ${perK(d.cpu.redis, r.events)}` +
      (r.slowReceived !== undefined ? `; the slowed endpoint had ${r.slowReceived} of its deliveries by then` : '')
    );
  };
  const notes = [
    `webhooks: ${WEBHOOK_CONFIG.jobs} jobs per round in createjobs calls of ${WEBHOOK_CONFIG.batch} rotating over ${n} companies, each with job_created and job_updated on its own node:http receiver; ` +
      `ONE built worker (WEBHOOK_CONCURRENCY=${WEBHOOK_CONFIG.workerConcurrency}, WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT=${WEBHOOK_CONFIG.maxInFlightPerEndpoint}, WEBHOOK_CLAIM_ROUNDS=${WEBHOOK_CONFIG.claimRounds}); ` +
      `a ${WEBHOOK_CONFIG.warmupJobs}-job warm-up and a live round (timed from the first createjobs call to the receipt of the last distinct webhook-id: bounded by createjobs), ` +
      `then ${f.rounds.length} backlog rounds (jobs created while the worker's queue is paused, timed from its resume to the last receipt), ` +
      `each followed by its baseline (the same bodies re-signed per request, same receivers, child process), and after each of the first ${f.slowed.length} a round with one endpoint slowed. ` +
      `Each pair's share: backlog ${percents(pairs)} (pooled over the rounds ${(pooled * 100).toFixed(0)} %); one endpoint slowed ${percents(slowPairs)}. ` +
      `Duplicates: ${f.duplicates}; signatures verified: ${f.signaturesChecked}.`,
    'webhooks, where the time goes (delivery and attempt rows; CPU from /proc and Redis INFO; in backlog rounds "outbox row → attempt start" includes the paused creation):',
    ...[f.live, ...f.rounds, ...f.slowed].map(diagLine),
  ];
  const failed = [share >= WEBHOOK_TARGETS.throughputShare, othersShare >= WEBHOOK_TARGETS.slowOthersShare].filter((ok) => !ok).length;
  return { rows, notes, failed };
}
