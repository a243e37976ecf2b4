/**
 * optimizeroute through the whole action (issue #11: "a typical day (10–60 jobs) through the whole
 * action, database included: p95 ms | the solver alone | ≤ 80 ms"): `POST /api/optimizeroute` over
 * HTTP to the in-process api, which runs the `optimizeroute` kind in ONE built worker (its CPU pool),
 * database reads and the renumbering transaction with its events included. Baseline: the solver alone
 * on the same instance — `geodesicMatrix` + `solveTour` in this process, with the options the action
 * gives it (a path from the member's fixed start).
 */
import { dayInZone } from '@app/core';
import { geodesicMatrix, planRoute, solveTour } from '@app/dispatch/pure';
import pg from 'pg';
import { createCompany, createMember, TestApi } from '../test/support/api';
import { Child } from '../test/support/proc-child';
import { startWorker } from '../test/support/worker';
import { fmt, percentile, printPart, post } from './stats';
import { PartContext } from './part';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

/** Day sizes cycled through; each timed call optimizes a worker-day it has not seen. */
const SIZES = [10, 20, 30, 40, 50, 60];
export const OPTIMIZE_ROUTE_CONFIG = {
  warmups: envInt('BENCH_ROUTE_WARMUPS', 6),
  iterations: envInt('BENCH_ROUTE_ITERATIONS', 60),
  targetP95Ms: 80,
};

export interface OptimizeRouteFigures {
  iterations: number;
  ours: { p50: number; p95: number; max: number };
  solver: { p50: number; p95: number; max: number };
  /** mean jobs per call */
  meanJobs: number;
}

const opened: { worker?: Child } = {};

/** Stops the bench's worker child. Safe to call twice. */
export async function closeOptimizeRoute(): Promise<void> {
  const w = opened.worker;
  opened.worker = undefined;
  await w?.stop('SIGTERM', 10_000).catch(() => undefined);
}

/** A reproducible scatter of `n` points within ~6 km of Ljubljana's centre. */
function scatter(n: number, seed: number): Array<{ lat: number; lng: number }> {
  let s = seed;
  const rnd = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) * 2 - 1;
  return Array.from({ length: n }, () => ({ lat: 46.0511 + rnd() * 0.05, lng: 14.5051 + rnd() * 0.075 }));
}

/** One worker-day to optimize: its worker's username, its day (YYYYMMDD) and its jobs' points. */
export interface RouteDay {
  worker: string;
  day: number;
  points: Array<{ lat: number; lng: number }>;
}

/** The depot every bench worker starts its route from (`route_start_*`). */
const DEPOT = { lat: 46.02, lng: 14.45 };

/**
 * Seeds `calls` worker-days in a new company (6 workers starting at {@link DEPOT}; day sizes cycling
 * 10…60 jobs, scattered over a city, numbered in creation order; tomorrow onwards, so no
 * latest-location start) through createaccount/editaccount/createjobs.
 * @returns the company's API key and the worker-days, in seeding order
 */
export async function seedRouteDays(api: TestApi, pool: pg.Pool, calls: number): Promise<{ key: string; days: RouteDay[] }> {
  const zone = 'Europe/Ljubljana';
  const company = await createCompany(api, { name: 'Bench optimizeroute', timezone: zone });
  const workersNeeded = 6;
  const workers: string[] = [];
  for (let i = 0; i < workersNeeded; i++) {
    const m = await createMember(api, company, { role: 'worker' });
    const res = await post(
      `${api.url}/api/editaccount`,
      JSON.stringify({ data: { uid: m.uid, route_start_lat: DEPOT.lat, route_start_lng: DEPOT.lng } }),
      { 'api-key': company.key },
    );
    if (!res.text.startsWith('{"status":0')) throw new Error(`editaccount answered ${res.status}: ${res.text.slice(0, 300)}`);
    workers.push(m.username);
  }
  // one worker-day per call: worker k % 6, a day of its own
  const today = dayInZone(Date.now(), zone);
  const dayAfter = (d: number) =>
    dayInZone(Date.UTC(Math.floor(today / 10000), (Math.floor(today / 100) % 100) - 1, today % 100, 12) + d * 86_400_000, zone);
  const days = Array.from({ length: calls }, (_, k) => ({
    worker: workers[k % workersNeeded],
    day: dayAfter(1 + Math.floor(k / workersNeeded)),
    points: scatter(SIZES[k % SIZES.length], 1000 + k),
  }));
  const jobs = days.flatMap((x) =>
    x.points.map((p, i) => ({
      destinationName: `Stop ${i + 1}`,
      destinationLat: p.lat,
      destinationLng: p.lng,
      day: x.day,
      worker: x.worker,
      number: i + 1,
    })),
  );
  for (let at = 0; at < jobs.length; at += 1000) {
    const res = await post(`${api.url}/api/createjobs`, JSON.stringify({ data: { jobs: jobs.slice(at, at + 1000) } }), {
      'api-key': company.key,
    });
    if (res.status !== 200 || !res.text.startsWith('{"status":0'))
      throw new Error(`seeding createjobs answered ${res.status}: ${res.text.slice(0, 300)}`);
  }
  await pool.query('ANALYZE jobs');
  return { key: company.key, days };
}

/** `POST /api/optimizeroute` for one worker-day; throws unless it answers status 0. @returns ms */
export async function optimizeRouteCall(api: TestApi, key: string, x: RouteDay): Promise<number> {
  const t0 = performance.now();
  const res = await post(`${api.url}/api/optimizeroute`, JSON.stringify({ data: { day: x.day, account: x.worker } }), { 'api-key': key });
  const ms = performance.now() - t0;
  if (res.status !== 200 || !res.text.startsWith('{"status":0'))
    throw new Error(`optimizeroute answered ${res.status}: ${res.text.slice(0, 300)}`);
  return ms;
}

/**
 * Seeds one worker-day per call (warm-ups + iterations, {@link seedRouteDays}), then times each call,
 * followed by the solver alone on the same points and options.
 */
export async function benchOptimizeRoute(opts: {
  api: TestApi;
  pool: pg.Pool;
  log: (line: string) => void;
}): Promise<OptimizeRouteFigures> {
  const { api, log } = opts;
  opened.worker = await startWorker('bench optimizeroute worker', { NODE_ENV: 'production' }, (sql, params) =>
    opts.pool.query(sql, params),
  );
  const calls = OPTIMIZE_ROUTE_CONFIG.warmups + OPTIMIZE_ROUTE_CONFIG.iterations;
  const { key, days: instances } = await seedRouteDays(api, opts.pool, calls);
  log(`optimizeroute: ${calls} worker-days seeded (${instances.reduce((n, x) => n + x.points.length, 0)} jobs)`);

  const ours: number[] = [];
  const solver: number[] = [];
  let jobsSum = 0;
  for (let k = 0; k < calls; k++) {
    const x = instances[k];
    const ms = await optimizeRouteCall(api, key, x);
    // the solver alone, on what the action solved: the depot as the pinned start, then the jobs
    const plan = planRoute(
      x.points.map((p, i) => ({ id: String(i), tsDoneSuccess: 0, tsDoneFailed: 0, lat: p.lat, lng: p.lng })),
      { start: DEPOT, end: null, startSource: 'member', endSource: 'open', closed: false },
    );
    const s0 = performance.now();
    solveTour(geodesicMatrix(plan.points), plan.options!);
    const sms = performance.now() - s0;
    if (k < OPTIMIZE_ROUTE_CONFIG.warmups) continue;
    ours.push(ms);
    solver.push(sms);
    jobsSum += x.points.length;
  }
  log(`optimizeroute: ${ours.length} timed calls`);
  await closeOptimizeRoute();
  const stats = (v: number[]) => ({ p50: percentile(v, 50), p95: percentile(v, 95), max: Math.max(...v) });
  return { iterations: ours.length, ours: stats(ours), solver: stats(solver), meanJobs: jobsSum / ours.length };
}

/** The table rows and notes of the figures. */
export function optimizeRouteReport(f: OptimizeRouteFigures): { rows: string[][]; notes: string[]; failed: number } {
  const ok = f.ours.p95 <= OPTIMIZE_ROUTE_CONFIG.targetP95Ms;
  const row = (label: string, a: number, b: number, target: string, pass: string) => [
    label,
    fmt(a),
    fmt(b),
    `${(a / b).toFixed(2)}×`,
    target,
    pass,
  ];
  return {
    rows: [
      row(
        'optimizeroute, a typical day (10–60 jobs), whole action: p95 ms',
        f.ours.p95,
        f.solver.p95,
        `≤ ${OPTIMIZE_ROUTE_CONFIG.targetP95Ms} ms`,
        ok ? 'PASS' : 'FAIL',
      ),
      row('optimizeroute, whole action: p50 ms', f.ours.p50, f.solver.p50, '—', 'info'),
      row('optimizeroute, whole action: max ms', f.ours.max, f.solver.max, '—', 'info'),
    ],
    notes: [
      `optimizeroute: ${f.iterations} timed calls (after ${OPTIMIZE_ROUTE_CONFIG.warmups} warm-ups), each on a worker-day of its own ` +
        `(${SIZES.join('/')} jobs in turn, mean ${f.meanJobs.toFixed(0)}, scattered over ~12 × 11 km, a fixed start), numbers rewritten with their jobupdated events; ` +
        `ours = POST /api/optimizeroute over HTTP through the worker (run row, queue, CPU pool, renumbering transaction, NOTIFY); ` +
        `baseline = geodesicMatrix + solveTour alone on the same points and options, in the bench process, right after each call.`,
    ],
    failed: ok ? 0 : 1,
  };
}

/**
 * `BENCH_ONLY=optimizeroute`: runs this part alone and prints its table with the run's header (the
 * one line `bench/main.ts` calls). Stops its worker whatever happens.
 * @returns the process exit code (1 only with `BENCH_STRICT=1` and a missed target).
 */
export async function runOptimizeRouteOnly(opts: PartContext): Promise<number> {
  try {
    return printPart('optimizeroute', optimizeRouteReport(await benchOptimizeRoute(opts)), opts);
  } finally {
    await closeOptimizeRoute();
  }
}
