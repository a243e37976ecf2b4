/**
 * `npm run bench`: createjobs, getjobs and webhook delivery against baselines measured in the same
 * run, on a database of the run's own (created and migrated here, dropped at the end). See bench/README.md.
 */
import { DATABASE_URL, DB_NAME, POOL_SIZE, SERVER_URL } from './env';
import './webhooks-env';
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { AppConfig } from '@app/core';
import Redis from 'ioredis';
import pg from 'pg';
import { createCompany, createMember, startApi, TestApi } from '../test/support/api';
import { benchCreateJobs, CreateJobsFigures } from './createjobs';
import { baselineChildren } from './createjobs-baseline';
import { clientChildren } from './createjobs-client';
import { createBatch, dayFromToday, JobInput, makeJob } from './fixtures';
import { alertsReport, benchAlerts } from './alerts';
import { benchGeofence, closeGeofence, geofenceReport } from './geofence';
import { closeRouteWebhooks, runRouteWebhooksOnly } from './route-webhooks';
import { closeRestHooks, runRestHooksOnly } from './rest-hooks';
import { closeReports, runReportsOnly } from './reports';
import { closeLive, runLiveOnly } from './live';
import { closeMixed, runMixedOnly } from './mixed-load';
import { runPollingOnly } from './polling';
import { closeCluster, runClusterOnly } from './redis-cluster';
import { benchGetJobs, GetJobsFigures, loadChildren } from './getjobs';
import { benchLocate, locateRows } from './locate';
import { benchIngest, ingestLoadChildren, ingestReport } from './locations-ingest';
import { benchTracks, tracksReport } from './tracks';
import { closeAgent, fmt, markdownTable, post } from './stats';
import { benchRuns, closeRuns, RunFigures, runsReport } from './runs';
import { benchWebhooks, closeWebhooks, WebhookFigures, webhookReport } from './webhooks';
import { benchPlaces, placesReport } from './places';
import { benchOptimizeRoute, closeOptimizeRoute, optimizeRouteReport, runOptimizeRouteOnly } from './optimize-route';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

const CONFIG = {
  createJobs: 1000,
  warmups: envInt('BENCH_WARMUPS', 3),
  iterations: envInt('BENCH_ITERATIONS', 20),
  /** timed createjobs pairs: its p95 is the 38th of 40, not the 19th of 20 (one slow call decided that) */
  createjobsIterations: envInt('BENCH_CREATEJOBS_ITERATIONS', 40),
  breakdownSamples: envInt('BENCH_BREAKDOWN_SAMPLES', 10),
  concurrency: envInt('BENCH_CONCURRENCY', 8),
  getjobsSeconds: envInt('BENCH_GETJOBS_SECONDS', 5),
  getjobsWarmupSeconds: envInt('BENCH_GETJOBS_WARMUP_SECONDS', 2),
  rounds: envInt('BENCH_ROUNDS', 2),
  workers: 10,
  days: 10,
  jobsPerWorkerDay: 30,
  unassigned: 600,
};
/** Issue #29 item 6's targets (issue #4's were 2.2× and 60 %). */
const TARGETS = { createP95Ratio: 1.5, getjobsShare: 0.8 };
/** `BENCH_ONLY=createjobs` runs only the createjobs part (set-up, timed pairs, split). */
const ONLY_CREATEJOBS = process.env.BENCH_ONLY === 'createjobs';
/** `BENCH_ONLY=jobs` runs createjobs, getjobs, the webhooks and the worker-results round trip, and nothing after them. */
const ONLY_JOBS = process.env.BENCH_ONLY === 'jobs';
/** `BENCH_ONLY=getjobs` runs only getjobs (its set-up and the alternating rounds against the bare server). */
const ONLY_GETJOBS = process.env.BENCH_ONLY === 'getjobs';
/** `BENCH_ONLY=webhooks` runs only the webhook delivery table (bench/webhooks.ts). */
const ONLY_WEBHOOKS = process.env.BENCH_ONLY === 'webhooks';
/** `BENCH_ONLY=places` runs only getplaces (10,000 places, nearest 500) against its raw-pg baseline. */
const ONLY_PLACES = process.env.BENCH_ONLY === 'places';
/** `BENCH_ONLY=locate` runs only locate (1,000 and 5,000 members); otherwise it runs after the others. */
const ONLY_LOCATE = process.env.BENCH_ONLY === 'locate';
/** `BENCH_ONLY=geofence` runs only the geofence latency under load (bench/geofence.ts). */
const ONLY_GEOFENCE = process.env.BENCH_ONLY === 'geofence';
/** `BENCH_ONLY=ingest` runs only the ingestion part (pushlocations and /osmand, bench/locations-ingest.ts). */
const ONLY_INGEST = process.env.BENCH_ONLY === 'ingest';
/** `BENCH_ONLY=tracks` runs only the track building part (bench/tracks.ts). */
const ONLY_TRACKS = process.env.BENCH_ONLY === 'tracks';

const started = performance.now();
/** Other work on the machine skews absolute figures (ratios less so): shown in the header. */
const LOAD_AT_START = os.loadavg()[0].toFixed(2);
const log = (line: string) => process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(1)}s] ${line}\n`);

function migrate(): void {
  const cli = path.join(__dirname, '..', 'dist', 'apps', 'cli', 'src', 'main.js');
  const res = spawnSync(process.execPath, [cli, 'migrate'], { env: process.env, encoding: 'utf8' });
  if (res.status !== 0) {
    throw new Error(`migrate failed (is dist/ built? bench/run.sh builds it):\n${res.stderr || res.stdout || res.error?.message}`);
  }
}

async function dropDatabase(): Promise<void> {
  if (process.env.BENCH_KEEP_DB === '1') {
    process.stderr.write(`BENCH_KEEP_DB=1: kept ${DATABASE_URL} (drop it yourself)\n`);
    return;
  }
  const client = new pg.Client({ connectionString: `${SERVER_URL}/postgres` });
  try {
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
  } catch (err) {
    process.stderr.write(`could not drop ${DB_NAME}: ${(err as Error).message}\n`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The api's and the worker's BullMQ queues leave `<prefix>:<queue>:…` keys behind, the rate limiter
 * `{<prefix>:ratelimit:…}:…` ones (they expire within a minute); remove this run's.
 */
async function dropQueueKeys(): Promise<void> {
  const prefix = process.env.QUEUE_PREFIX!;
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    for (const pattern of [`${prefix}:*`, `{${prefix}:*`]) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
        if (keys.length) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    }
  } catch (err) {
    process.stderr.write(`could not remove the Redis keys ${prefix}:* / {${prefix}:*: ${(err as Error).message}\n`);
  } finally {
    redis.disconnect();
  }
}

/** Company B's jobs: `workers` × `days` × `jobsPerWorkerDay` assigned plus some unassigned, sent as createjobs calls of ≤ 1,000. */
async function seedGetJobsCompany(api: TestApi, key: string, workers: string[], days: number[]): Promise<void> {
  const jobs: JobInput[] = [];
  let i = 0;
  for (const day of days)
    for (const worker of workers) for (let k = 0; k < CONFIG.jobsPerWorkerDay; k++) jobs.push(makeJob(i++, day, worker));
  for (let k = 0; k < CONFIG.unassigned; k++) jobs.push(makeJob(i++, days[k % days.length]));
  for (let at = 0; at < jobs.length; at += 1000) {
    const res = await post(`${api.url}/api/createjobs`, JSON.stringify({ data: { jobs: jobs.slice(at, at + 1000) } }), { 'api-key': key });
    if (res.status !== 200 || !res.text.startsWith('{"status":0'))
      throw new Error(`seeding createjobs answered ${res.status}: ${res.text.slice(0, 300)}`);
  }
}

/** The getjobs rows of the main table (none when only createjobs ran). */
function getjobsRows(get: GetJobsFigures | undefined, share: number, pass: (ok: boolean) => string): string[][] {
  if (!get) return [];
  return [
    [
      `getjobs worker-day (${get.jobsPerResponse} jobs): req/s, c=${get.concurrency}`,
      fmt(get.ours.rps, 0),
      fmt(get.baseline.rps, 0),
      `${(share * 100).toFixed(0)} %`,
      `≥ ${TARGETS.getjobsShare * 100} %`,
      pass(share >= TARGETS.getjobsShare),
    ],
    [
      'getjobs worker-day: CPU ms per request (api / bare server process)',
      fmt(get.ours.cpuMsPerRequest, 3),
      fmt(get.baseline.cpuMsPerRequest, 3),
      `${((get.baseline.cpuMsPerRequest / get.ours.cpuMsPerRequest) * 100).toFixed(0)} %`,
      '—',
      'info',
    ],
    [
      'getjobs worker-day: latency p50 ms',
      fmt(get.ours.p50, 2),
      fmt(get.baseline.p50, 2),
      `${(get.ours.p50 / get.baseline.p50).toFixed(2)}×`,
      '—',
      'info',
    ],
  ];
}

function report(
  create: CreateJobsFigures,
  get: GetJobsFigures | undefined,
  hooks: WebhookFigures | undefined,
  runs: RunFigures | undefined,
  serverVersion: string,
): { text: string; failed: number } {
  const ratio = create.ours.p95 / create.baseline.p95;
  const share = get ? get.ours.rps / get.baseline.rps : 1;
  const pass = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  const c = create.ours;
  const cb = create.baseline;
  const main = markdownTable(
    ['benchmark', 'ours', 'baseline', 'ratio', 'target', 'pass/fail'],
    [
      [
        'createjobs 1,000 jobs: p95 ms',
        fmt(c.p95),
        fmt(cb.p95),
        `${ratio.toFixed(2)}×`,
        `≤ ${TARGETS.createP95Ratio}×`,
        pass(ratio <= TARGETS.createP95Ratio),
      ],
      ['createjobs 1,000 jobs: p50 ms', fmt(c.p50), fmt(cb.p50), `${(c.p50 / cb.p50).toFixed(2)}×`, '—', 'info'],
      ['createjobs 1,000 jobs: mean ms', fmt(c.mean), fmt(cb.mean), `${(c.mean / cb.mean).toFixed(2)}×`, '—', 'info'],
      ...getjobsRows(get, share, pass),
    ],
  );
  const b = create.breakdown;
  const http = c.p50;
  const pct = (ms: number) => `${((ms / http) * 100).toFixed(0)} %`;
  const otherJs = b.serviceTotal - b.serviceSql;
  const rest = http - b.jsonParse - b.envelopeCheck - b.auth - b.dtoPipe - b.serviceTotal - b.responseStringify;
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
  const base = b.baseline;
  const baseMs = (label: string) => {
    const st = base.statements.find((x) => x.label === label);
    return st ? fmt(st.ms) : '—';
  };
  const statementLabels = [...new Set([...b.statements.map((x) => x.label), ...base.statements.map((x) => x.label)])];
  const oursMs = (label: string) => b.statements.find((x) => x.label === label)?.ms;
  const split = markdownTable(
    ['createjobs 1,000 jobs: where the time goes (medians)', 'ours ms', 'of HTTP p50', 'baseline ms'],
    [
      [`JSON.parse of the request body (${mb(b.bodyBytes)})`, fmt(b.jsonParse), pct(b.jsonParse), '—'],
      ['envelope check (unstorableIssue over data)', fmt(b.envelopeCheck), pct(b.envelopeCheck), '—'],
      ['auth: ApiKeysService.authenticate (one query)', fmt(b.auth), pct(b.auth), '—'],
      [
        'DTO pipe: EnvelopeValidationPipe on CreateJobsDto (class-transformer + class-validator), yielding the typed writes',
        fmt(b.dtoPipe),
        pct(b.dtoPipe),
        '—',
      ],
      ['  · of which validation: parseJobWrite × 1,000 (timed apart)', fmt(b.validation), pct(b.validation), '—'],
      ['SQL: time awaiting pg in the transaction code', fmt(b.serviceSql), pct(b.serviceSql), fmt(base.sql)],
      ...statementLabels.map((label) => {
        const ms = oursMs(label);
        return [`  · ${label}`, ms === undefined ? '—' : fmt(ms), ms === undefined ? '—' : pct(ms), baseMs(label)];
      }),
      ['other JS (ours: createJobs total − SQL)', fmt(otherJs), pct(otherJs), fmt(base.total - base.sql)],
      ['  · of which toJobView × 1,000 (timed apart)', fmt(b.toJobView), pct(b.toJobView), 'incl.'],
      [
        '  · of which JSON.stringify of each view × 1,000, for its payload and the answer (timed apart)',
        fmt(b.payloadStringify),
        pct(b.payloadStringify),
        'incl.',
      ],
      [
        `serialisation: the response (${mb(b.responseBytes)}) put together from the views' UTF-8 bytes`,
        fmt(b.responseStringify),
        pct(b.responseStringify),
        '—',
      ],
      [
        'rest: sockets, body read, Nest/express, response write (= HTTP p50 − the rows above)',
        rest < 0 ? `${fmt(rest)} (noise)` : fmt(rest),
        rest < 0 ? '—' : pct(rest),
        '—',
      ],
      ['JobsService.createJobs in-process / baseline transaction, total', fmt(b.serviceTotal), pct(b.serviceTotal), fmt(base.total)],
      ['createjobs over HTTP, p50 (baseline: the timed pairs)', fmt(http), '100 %', fmt(cb.p50)],
    ],
  );
  const wh = hooks ? webhookReport(hooks) : { rows: [], notes: [], failed: 0 };
  const rr = runs ? runsReport(runs) : { rows: [], notes: [] };
  const webhooks =
    hooks || runs
      ? `${markdownTable(['benchmark', 'ours', 'baseline', 'ratio', 'target', 'pass/fail'], [...wh.rows, ...rr.rows])}\n\n`
      : '';
  const failed = [ratio <= TARGETS.createP95Ratio, share >= TARGETS.getjobsShare].filter((ok) => !ok).length + wh.failed;
  const notes = [
    `createjobs: ${create.iterations} timed HTTP calls (after ${CONFIG.warmups} warm-ups), each followed by one baseline transaction; split = medians of ${b.samples} in-process calls.`,
    ...(get
      ? [
          `getjobs: ${get.rounds} alternating rounds × ${get.durationMs / 1000} s per side (after ${CONFIG.getjobsWarmupSeconds} s warm-up each), ` +
            `${get.ours.requests} / ${get.baseline.requests} requests, ${mb(get.responseBytes)} per response; node:http load generator in a child process.`,
        ]
      : ['BENCH_ONLY=createjobs: getjobs and webhooks not run.']),
  ];
  return {
    text: `${header(serverVersion)}\n\n${main}\n\n${split}\n\n${webhooks}${[...notes, ...wh.notes, ...rr.notes].join('\n')}\n`,
    failed,
  };
}

/** The header line every report starts with. */
function header(serverVersion: string): string {
  return (
    `Fieldwork bench — ${new Date().toISOString()} — node ${process.version}, PostgreSQL ${serverVersion}, ` +
    `${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? '?'}), pool ${POOL_SIZE}/${POOL_SIZE}, ` +
    `load average ${LOAD_AT_START} at start / ${os.loadavg()[0].toFixed(2)} at end (1 min)`
  );
}

/** `BENCH_ONLY=places`: getplaces over 10,000 places (and 40,000 of other companies), nearest 500. */
async function runPlacesOnly(api: TestApi, pool: pg.Pool, serverVersion: string): Promise<number> {
  const company = await createCompany(api, { name: 'Bench places' });
  const others: string[] = [];
  for (let i = 0; i < 4; i++) others.push((await createCompany(api, { name: `Bench places neighbour ${i}` })).companyUid);
  const figures = await benchPlaces({
    api,
    pool,
    key: company.key,
    companyId: company.companyUid,
    memberId: company.ownerUid,
    otherCompanyIds: others,
    places: 10_000,
    max: 500,
    warmups: envInt('BENCH_WARMUPS', 20),
    iterations: envInt('BENCH_ITERATIONS', 200),
    log,
  });
  const { text, failed } = placesReport(figures);
  process.stdout.write(`\n${header(serverVersion)}\n\n${text}`);
  log(`done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return failed && process.env.BENCH_STRICT === '1' ? 1 : 0;
}

/** Runs the locate benchmark and prints its table (with the run's header). */
async function locateReport(api: TestApi, pool: pg.Pool, serverVersion: string): Promise<{ text: string; failed: number }> {
  const sizes = await benchLocate({ api, pool, sizes: [1000, 5000], warmups: CONFIG.warmups * 2, iterations: CONFIG.iterations * 3, log });
  const { rows, failed } = locateRows(sizes);
  const header =
    `Fieldwork bench (locate) — ${new Date().toISOString()} — node ${process.version}, PostgreSQL ${serverVersion}, ` +
    `${os.cpus().length} CPUs, load average ${LOAD_AT_START} at start / ${os.loadavg()[0].toFixed(2)} at end (1 min)`;
  const table = markdownTable(['benchmark', 'ours', 'baseline', 'ratio', 'target', 'pass/fail'], rows);
  const note =
    `locate: ${sizes[0]?.iterations ?? 0} timed calls per size (after ${CONFIG.warmups * 2} warm-ups), each followed by the baseline query; ` +
    `ours = POST /api/locate {teams: true} over HTTP (keep-alive), ${sizes.map((s) => `${(s.responseBytes / 1e6).toFixed(2)} MB`).join(' / ')} per answer; ` +
    `baseline = the same members and latest fixes as one SELECT through pg (no HTTP, no JSON); ` +
    `floor = a bare node:http server in the same process running that SELECT and answering JSON.stringify of the records, over the same client; ` +
    `"moved" rows: before each call (ours and the floor's alike) 1 % of the members get a new latest location by an UPDATE committed first, ` +
    `as ingestion between two polls would; whole reads of ours's snapshot during the timed calls: ${sizes.map((s) => s.fullReads).join(' / ')}.`;
  return { text: `${header}\n\n${table}\n\n${note}\n`, failed };
}

/** What the run opened, closed by {@link cleanup}. */
const opened: { api?: TestApi; pool?: pg.Pool } = {};
let cleaning: Promise<void> | undefined;

/** Stops the load generators, closes the api and the pool, removes the queue keys, drops the database. Once. */
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const child of loadChildren) child.kill();
    for (const child of ingestLoadChildren) child.kill();
    for (const child of clientChildren) child.kill();
    for (const child of baselineChildren) child.kill();
    const within = <T>(p: Promise<T>, ms = 5000) =>
      Promise.race([p, new Promise<void>((r) => setTimeout(r, ms).unref())]).catch(() => undefined);
    // the worker child first (it writes to the database and Redis); SIGKILL after 10 s
    await within(closeWebhooks(), 20_000);
    await within(closeRuns(), 20_000);
    await within(closeGeofence(), 20_000);
    await within(closeOptimizeRoute(), 20_000);
    await within(closeRouteWebhooks(), 20_000);
    await within(closeRestHooks(), 20_000);
    await within(closeReports(), 20_000);
    await within(closeLive(), 20_000);
    await within(closeMixed(), 30_000);
    await within(closeCluster(), 30_000);
    closeAgent();
    if (opened.api) await within(opened.api.close());
    if (opened.pool) await within(opened.pool.end());
    await dropQueueKeys();
    await dropDatabase();
  })();
  return cleaning;
}

async function main(): Promise<number> {
  if (process.env.BENCH_ONLY === 'autoassign') return (await import('./autoassign')).runAutoassignBench(log); // in memory: no database
  if (process.env.BENCH_ONLY === 'tsp') return (await import('./tsp')).benchTsp(log, (text) => process.stdout.write(`\n${text}`));
  if (process.env.BENCH_ONLY === 'distribute') return (await import('./distribute')).distributeOnly(log); // pure computation: no database
  log(`database ${DB_NAME}: migrating`);
  migrate();
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: POOL_SIZE });
  pool.on('error', () => undefined); // an idle client cut off by the final DROP … WITH (FORCE) must not crash the run
  opened.pool = pool;
  try {
    const api = await startApi();
    opened.api = api;
    log(`api on ${api.url}`);
    const [{ server_version: serverVersion }] = (await pool.query<{ server_version: string }>('SHOW server_version')).rows;
    if (ONLY_PLACES) return await runPlacesOnly(api, pool, serverVersion);
    if (process.env.BENCH_ONLY === 'optimizeroute')
      return await runOptimizeRouteOnly({ api, pool, serverVersion, loadAtStart: LOAD_AT_START, log });
    if (process.env.BENCH_ONLY === 'routewebhooks')
      return await runRouteWebhooksOnly({ api, pool, serverVersion, loadAtStart: LOAD_AT_START, log });
    if (process.env.BENCH_ONLY === 'hooks') return await runRestHooksOnly({ api, pool, serverVersion, loadAtStart: LOAD_AT_START, log });
    if (process.env.BENCH_ONLY === 'hookslag')
      return await (await import('./hooks-lag')).runHooksLagOnly({ api, pool, serverVersion, loadAtStart: LOAD_AT_START, log });
    if (process.env.BENCH_ONLY === 'reports') return await runReportsOnly({ api, pool, serverVersion, loadAtStart: LOAD_AT_START, log });
    if (process.env.BENCH_ONLY === 'mixed') return await runMixedOnly({ api, pool, serverVersion, loadAtStart: LOAD_AT_START, log });
    if (process.env.BENCH_ONLY === 'live') return await runLiveOnly({ api, pool, serverVersion, loadAtStart: LOAD_AT_START, log });
    if (process.env.BENCH_ONLY === 'polling') return await runPollingOnly({ api, pool, serverVersion, loadAtStart: LOAD_AT_START, log });
    if (process.env.BENCH_ONLY === 'console')
      return await (await import('./console')).runConsoleBench({ serverVersion, loadAtStart: LOAD_AT_START, log });
    if (process.env.BENCH_ONLY === 'cluster') return await runClusterOnly({ api, pool, serverVersion, loadAtStart: LOAD_AT_START, log });
    if (ONLY_LOCATE) {
      const { text, failed } = await locateReport(api, pool, serverVersion);
      process.stdout.write(`\n${text}`);
      log(`done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      return failed && process.env.BENCH_STRICT === '1' ? 1 : 0;
    }

    if (ONLY_TRACKS) {
      const r = tracksReport(await benchTracks({ api, pool, log }));
      const header =
        `Fieldwork bench (tracks) — ${new Date().toISOString()} — node ${process.version}, PostgreSQL ${serverVersion}, ` +
        `${os.cpus().length} CPUs, load average ${LOAD_AT_START} at start / ${os.loadavg()[0].toFixed(2)} at end (1 min)`;
      process.stdout.write(
        `\n${header}\n\n${markdownTable(['benchmark', 'ours', 'baseline', 'ratio', 'target', 'pass/fail'], r.rows)}\n\n${r.notes.join('\n')}\n`,
      );
      log(`done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      return r.failed && process.env.BENCH_STRICT === '1' ? 1 : 0;
    }

    if (ONLY_GEOFENCE || process.env.BENCH_ONLY === 'alerts') {
      const g = ONLY_GEOFENCE
        ? geofenceReport(await benchGeofence({ api, pool, log }))
        : alertsReport(await benchAlerts({ api, pool, log }));
      const table = markdownTable(['benchmark', 'ours', 'baseline', 'ratio', 'target', 'pass/fail'], g.rows);
      process.stdout.write(
        `\nFieldwork bench (${process.env.BENCH_ONLY}) — ${new Date().toISOString()} — node ${process.version}, PostgreSQL ${serverVersion}, ` +
          `${os.cpus().length} CPUs, load average ${LOAD_AT_START} at start / ${os.loadavg()[0].toFixed(2)} at end (1 min)\n\n${table}\n\n${g.notes.join('\n')}\n`,
      );
      log(`done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      return g.failed && process.env.BENCH_STRICT === '1' ? 1 : 0;
    }

    if (ONLY_INGEST) {
      const r = ingestReport(await benchIngest({ api, pool, log }));
      const header =
        `Fieldwork bench (ingest) — ${new Date().toISOString()} — node ${process.version}, PostgreSQL ${serverVersion}, ` +
        `${os.cpus().length} CPUs, pool ${POOL_SIZE}/${POOL_SIZE}, load average ${LOAD_AT_START} at start / ${os.loadavg()[0].toFixed(2)} at end (1 min)`;
      process.stdout.write(
        `\n${header}\n\n${markdownTable(['benchmark', 'ours', 'baseline', 'ratio', 'target', 'pass/fail'], r.rows)}\n\n${r.notes.join('\n')}\n`,
      );
      log(`done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      return r.failed && process.env.BENCH_STRICT === '1' ? 1 : 0;
    }

    if (ONLY_WEBHOOKS) {
      const wh = webhookReport(await benchWebhooks({ api, pool, log }));
      await closeWebhooks();
      process.stdout.write(
        `\n${header(serverVersion)}\n\n${markdownTable(['benchmark', 'ours', 'baseline', 'ratio', 'target', 'pass/fail'], wh.rows)}\n\n${wh.notes.join('\n')}\n`,
      );
      log(`done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      return wh.failed && process.env.BENCH_STRICT === '1' ? 1 : 0;
    }

    // company B: the getjobs data set
    const b = await createCompany(api, { name: 'Bench getjobs' });
    const bWorkers: string[] = [];
    for (let w = 0; w < CONFIG.workers; w++) bWorkers.push((await createMember(api, b)).username);
    const days = Array.from({ length: CONFIG.days }, (_, d) => dayFromToday(d + 1));
    if (!ONLY_CREATEJOBS) await seedGetJobsCompany(api, b.key, bWorkers, days);
    // company A: createjobs (its jobs pile up: 1,000 per call, ours and baseline)
    const a = await createCompany(api, { name: 'Bench createjobs' });
    const aWorkers: string[] = [];
    for (let w = 0; w < 5; w++) aWorkers.push((await createMember(api, a)).username);
    await pool.query('ANALYZE');
    log(`set-up done: ${CONFIG.workers * CONFIG.days * CONFIG.jobsPerWorkerDay + CONFIG.unassigned} jobs in the getjobs company`);

    const get = ONLY_CREATEJOBS
      ? undefined
      : await benchGetJobs({
          apiUrl: api.url,
          key: b.key,
          pool,
          config: api.app.get(AppConfig),
          companyId: b.companyUid,
          day: days[3],
          worker: bWorkers[0],
          expectJobs: CONFIG.jobsPerWorkerDay,
          concurrency: CONFIG.concurrency,
          warmupMs: CONFIG.getjobsWarmupSeconds * 1000,
          durationMs: CONFIG.getjobsSeconds * 1000,
          rounds: CONFIG.rounds,
          log,
        });

    if (ONLY_GETJOBS && get) {
      const share = get.ours.rps / get.baseline.rps;
      const rows = getjobsRows(get, share, (ok) => (ok ? 'PASS' : 'FAIL'));
      process.stdout.write(
        `\n${header(serverVersion)}\n\n${markdownTable(['benchmark', 'ours', 'baseline', 'ratio', 'target', 'pass/fail'], rows)}\n\n` +
          `getjobs: ${get.rounds} alternating rounds × ${get.durationMs / 1000} s per side, ${get.ours.requests} / ${get.baseline.requests} requests.\n`,
      );
      log(`done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      return share < TARGETS.getjobsShare && process.env.BENCH_STRICT === '1' ? 1 : 0;
    }

    const create = await benchCreateJobs({
      app: api.app,
      url: api.url,
      key: a.key,
      companyId: a.companyUid,
      ownerUid: a.ownerUid,
      pool,
      jobs: createBatch(CONFIG.createJobs, aWorkers),
      warmups: CONFIG.warmups,
      iterations: CONFIG.createjobsIterations,
      breakdownSamples: CONFIG.breakdownSamples,
      log,
    });

    const hooks = ONLY_CREATEJOBS ? undefined : await benchWebhooks({ api, pool, log });
    await closeWebhooks();
    const runs = ONLY_CREATEJOBS
      ? undefined
      : await benchRuns({ api, pool, owner: { companyId: a.companyUid, memberId: a.ownerUid }, log });

    const ingest = ONLY_CREATEJOBS || ONLY_JOBS ? undefined : ingestReport(await benchIngest({ api, pool, log }));
    const tracks = ONLY_CREATEJOBS || ONLY_JOBS ? undefined : tracksReport(await benchTracks({ api, pool, log }));

    const { text, failed: reportFailed } = report(create, get, hooks, runs, serverVersion);
    const ingestText = ingest
      ? `\n${markdownTable(['benchmark', 'ours', 'baseline', 'ratio', 'target', 'pass/fail'], ingest.rows)}\n\n${ingest.notes.join('\n')}\n`
      : '';
    const tracksText = tracks
      ? `\n${markdownTable(['benchmark', 'ours', 'baseline', 'ratio', 'target', 'pass/fail'], tracks.rows)}\n\n${tracks.notes.join('\n')}\n`
      : '';
    const locate = ONLY_CREATEJOBS || ONLY_JOBS ? undefined : await locateReport(api, pool, serverVersion);
    const route = ONLY_CREATEJOBS || ONLY_JOBS ? undefined : optimizeRouteReport(await benchOptimizeRoute({ api, pool, log }));
    if (route) await closeOptimizeRoute();
    const routeText = route
      ? `\n${markdownTable(['benchmark', 'ours', 'baseline', 'ratio', 'target', 'pass/fail'], route.rows)}\n\n${route.notes.join('\n')}\n`
      : '';
    let failed = reportFailed + (ingest?.failed ?? 0) + (tracks?.failed ?? 0) + (locate?.failed ?? 0) + (route?.failed ?? 0);
    process.stdout.write(`\n${text}${ingestText}${tracksText}${locate ? `\n${locate.text}` : ''}${routeText}`);
    if (!ONLY_CREATEJOBS && !ONLY_JOBS) {
      // the dispatch algorithms alone (no database; each prints its own table)
      failed += (await import('./tsp')).benchTsp(log, (t) => process.stdout.write(`\n${t}`));
      failed += (await import('./distribute')).distributeOnly(log);
      failed += await (await import('./autoassign')).runAutoassignBench(log);
    }
    log(`done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    return failed && process.env.BENCH_STRICT === '1' ? 1 : 0;
  } finally {
    await cleanup();
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`${signal}: cleaning up (${DB_NAME})\n`);
    void cleanup().finally(() => process.exit(130));
  });
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    process.stderr.write(`bench failed: ${err.stack ?? err.message}\n`);
    void cleanup().finally(() => process.exit(1));
  },
);
