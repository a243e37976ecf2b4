import { ChildProcess, fork } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import { AppConfig } from '@app/core';
import { JOB_SELECT_SQL, JobRow, toJobView } from '@app/jobs';
import { API_KEY_AUTH_SQL } from '@app/members';
import pg from 'pg';
import { RateLimitService } from '../apps/api/src/ops/rate-limit.service';
import type { LoadConfig, LoadResult } from './load';
import { post } from './stats';

/**
 * The SQL getjobs runs for `{day, worker}` (an administrator's key, no sort, no templates): the same
 * SELECT and WHERE as JobsQueryService.getJobs builds.
 */
export const WORKER_DAY_SQL = `${JOB_SELECT_SQL} WHERE j.company_id = $1 AND j.is_template = $2 AND j.day = $3 AND j.worker_id = (SELECT id FROM members m WHERE m.company_id = $1 AND lower(m.username) = lower($4)) AND j.archived = false ORDER BY j.number, j.ts_created, j.id LIMIT 1000 OFFSET 0`;

/** The API key's shape (ApiKeysService): its public prefix is the first group. */
const KEY_FORMAT = /^(fwk_[0-9A-Za-z]{8})_[0-9A-Za-z]{32}$/;

/**
 * The baseline: a minimal node:http server that does what every getjobs request must do and no more:
 * reads `{data: {day, worker}}`, authenticates the `API-Key` header as the api's guard does (the key's
 * format, the same prepared statement `fieldwork_authenticate` by prefix, HMAC-SHA-256 with the pepper
 * compared in constant time, revoked / deactivated checks), charges the key through the api's own
 * `RateLimitService` (its own Redis connection: the same EVALSHA round trip), then runs WORKER_DAY_SQL
 * through a pg.Pool as a named prepared statement (as the api's read is since 2026-11-28: the same SQL
 * work on both sides, so the ratio is the framework's) and answers `{status: 0, jobs: rows.map(toJobView)}` — no framework, no logging.
 */
export async function startBaselineServer(
  pool: pg.Pool,
  companyId: string,
  config: AppConfig,
  sql = WORKER_DAY_SQL,
): Promise<{ url: string; close: () => Promise<void> }> {
  const limiter = new RateLimitService(config);
  const authenticate = async (key: unknown): Promise<{ companyId: string; prefix: string } | undefined> => {
    const match = typeof key === 'string' ? KEY_FORMAT.exec(key) : null;
    if (!match) return undefined;
    const { rows } = await pool.query<{ key_hash: string; revoked_at: string | null; active_status: string; company_id: string }>({
      name: 'fieldwork_authenticate',
      text: API_KEY_AUTH_SQL,
      values: [match[1]],
    });
    const presented = Buffer.from(createHmac('sha256', config.API_KEY_PEPPER).update(key as string).digest('hex'), 'hex');
    const stored = Buffer.from(rows[0]?.key_hash ?? '0'.repeat(64), 'hex');
    if (!timingSafeEqual(presented, stored) || !rows[0] || rows[0].revoked_at !== null || rows[0].active_status !== 'active') return undefined;
    await limiter.chargeKey(match[1]);
    return { companyId: rows[0].company_id, prefix: match[1] };
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        try {
          const { data } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { day: number; worker: string } };
          const caller = await authenticate(req.headers['api-key']);
          if (!caller || caller.companyId !== companyId) {
            res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
            res.end('{"status":-2,"error":"invalid API key"}');
            return;
          }
          // a named prepared statement, as the api's read is (shapeQuery): the same SQL work on both sides
          const { rows } = await pool.query<JobRow>({ name: 'bench_bare_getjobs', text: sql, values: [caller.companyId, false, data.day, data.worker] });
          const out = JSON.stringify({ status: 0, jobs: rows.map(toJobView) });
          res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(out) });
          res.end(out);
        } catch (err) {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(String(err));
        }
      })();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/getjobs`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).finally(() => limiter.onModuleDestroy()),
  };
}

/** Load generators running now (stopped by the bench's clean-up on a signal). */
export const loadChildren = new Set<ChildProcess>();

/** Runs the load generator in a child process (same ts-node flags as this one). */
export function runLoad(cfg: LoadConfig): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(require.resolve('./load'), [], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    loadChildren.add(child);
    child.once('exit', () => loadChildren.delete(child));
    child.once('message', (msg: LoadResult | { error: string }) => ('error' in msg ? reject(new Error(msg.error)) : resolve(msg)));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`load generator exited with ${code}`));
    });
    child.send(cfg);
  });
}

export interface GetJobsFigures {
  jobsPerResponse: number;
  responseBytes: number;
  ours: { rps: number; p50: number; p99: number; requests: number; cpuMsPerRequest: number };
  baseline: { rps: number; p50: number; p99: number; requests: number; cpuMsPerRequest: number };
  rounds: number;
  concurrency: number;
  durationMs: number;
}

/**
 * Throughput of getjobs for one worker-day: ours (`POST /api/getjobs` on the api) vs the baseline
 * server, `rounds` alternating rounds of each (baseline first), each `warmupMs` + `durationMs`.
 */
export async function benchGetJobs(opts: {
  apiUrl: string;
  key: string;
  pool: pg.Pool;
  /** The api's configuration: the baseline's key pepper and rate limiter. */
  config: AppConfig;
  companyId: string;
  day: number;
  worker: string;
  expectJobs: number;
  concurrency: number;
  warmupMs: number;
  durationMs: number;
  rounds: number;
  log: (line: string) => void;
}): Promise<GetJobsFigures> {
  const body = JSON.stringify({ data: { day: opts.day, worker: opts.worker } });
  const baseline = await startBaselineServer(opts.pool, opts.companyId, opts.config);
  const oursUrl = `${opts.apiUrl}/api/getjobs`;
  try {
    // both answer the same jobs, serialised the same way
    const a = await post(oursUrl, body, { 'api-key': opts.key });
    const b = await post(baseline.url, body, { 'api-key': opts.key });
    const ours = JSON.parse(a.text) as { status: number; jobs: unknown[] };
    const base = JSON.parse(b.text) as { status: number; jobs: unknown[] };
    if (a.status !== 200 || ours.status !== 0) throw new Error(`getjobs answered ${a.status}: ${a.text.slice(0, 300)}`);
    if (ours.jobs.length !== opts.expectJobs) throw new Error(`getjobs answered ${ours.jobs.length} jobs, expected ${opts.expectJobs}`);
    if (!isDeepStrictEqual(ours, base)) throw new Error('getjobs and the baseline answer different bodies');

    const runs: Record<'ours' | 'baseline', LoadResult[]> = { ours: [], baseline: [] };
    // CPU of this process (api or baseline server; the load generator is a child) per request, warm-up included
    const cpu: Record<'ours' | 'baseline', { ms: number; requests: number }> = { ours: { ms: 0, requests: 0 }, baseline: { ms: 0, requests: 0 } };
    for (let r = 0; r < opts.rounds; r++) {
      for (const [name, url, headers] of [
        ['baseline', baseline.url, { 'api-key': opts.key }],
        ['ours', oursUrl, { 'api-key': opts.key }],
      ] as const) {
        const cpu0 = process.cpuUsage();
        const res = await runLoad({
          url,
          body,
          headers,
          concurrency: opts.concurrency,
          warmupMs: opts.warmupMs,
          durationMs: opts.durationMs,
        });
        const used = process.cpuUsage(cpu0);
        cpu[name].ms += (used.user + used.system) / 1000;
        cpu[name].requests += res.requests + res.warmupRequests;
        if (res.errors) throw new Error(`getjobs ${name}: ${res.errors} failed requests (first: ${res.firstError})`);
        opts.log(
          `getjobs round ${r + 1} ${name}: ${res.rps.toFixed(0)} req/s (p50 ${res.p50.toFixed(2)} ms, p99 ${res.p99.toFixed(2)} ms), ` +
            `${((used.user + used.system) / 1000 / (res.requests + res.warmupRequests)).toFixed(3)} CPU ms/request`,
        );
        runs[name].push(res);
      }
    }
    const combine = (rs: LoadResult[], side: 'ours' | 'baseline') => {
      const requests = rs.reduce((s, r) => s + r.requests, 0);
      const ms = rs.reduce((s, r) => s + r.elapsedMs, 0);
      return {
        rps: (requests / ms) * 1000,
        p50: rs.reduce((s, r) => s + r.p50, 0) / rs.length,
        p99: Math.max(...rs.map((r) => r.p99)),
        requests,
        cpuMsPerRequest: cpu[side].ms / cpu[side].requests,
      };
    };
    return {
      jobsPerResponse: ours.jobs.length,
      responseBytes: Buffer.byteLength(a.text),
      ours: combine(runs.ours, 'ours'),
      baseline: combine(runs.baseline, 'baseline'),
      rounds: opts.rounds,
      concurrency: opts.concurrency,
      durationMs: opts.durationMs,
    };
  } finally {
    await baseline.close();
  }
}
