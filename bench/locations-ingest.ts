/**
 * Ingestion benchmark (`BENCH_ONLY=ingest`, also part of the full run): (a) `pushlocations` batches
 * of 50 fixes from 200 simulated phones (200 members, each with its own API key) vs a raw `pg`
 * multi-row insert of the same rows into the same partitioned `location_fixes`; (b) `/osmand`, one
 * fix a request, from the same 200 phones (device ids) vs a bare `node:http` server doing the same
 * one-row insert. Load comes from a child process (bench/locations-load.ts), keep-alive, `c` loops.
 */
import { ChildProcess, fork } from 'node:child_process';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import pg from 'pg';
import { AppConfig } from '@app/core';
import { OsmandGroupCommit, PushLocationsService, validateFixes } from '@app/locations';
import { ApiKeysService } from '@app/members';
import { action, createCompany, TestApi, uniqueUsername } from '../test/support/api';
import { IngestLoadConfig, IngestLoadResult } from './locations-load';
import { fmt } from './stats';

export const INGEST_TARGETS = { pushFixesPerS: 20_000, pushShare: 0.1, osmandShare: 0.5 };

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

const PHONES = 200;
const BATCH = 50;
const CONCURRENCY = envInt('BENCH_CONCURRENCY', 8);
const WARMUP_MS = envInt('BENCH_INGEST_WARMUP_SECONDS', 2) * 1000;
const DURATION_MS = envInt('BENCH_INGEST_SECONDS', 5) * 1000;

/** The same statement shape the service uses: one multi-row insert from typed arrays. */
const INSERT = `INSERT INTO location_fixes (company_id, member_id, ts, lat, lng, acc, dir, spd, elv, bat, received_at)
  SELECT $1, $2, u.ts, u.lat, u.lng, u.acc, u.dir, u.spd, u.elv, u.bat, $3
    FROM unnest($4::bigint[], $5::float8[], $6::float8[], $7::int[], $8::int[], $9::float8[], $10::int[], $11::int[])
      AS u(ts, lat, lng, acc, dir, spd, elv, bat)
  ON CONFLICT DO NOTHING`;

interface Side {
  fixesPerS: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
}

export interface IngestFigures {
  push: { ours: Side; baseline: Side };
  /** medians of sequential calls, ms: validateFixes + PushLocationsService.ingest in-process vs the raw insert, 50 fixes */
  split: { service: number; raw: number; samples: number };
  osmand: { ours: Side; baseline: Side };
  /** the /osmand phase's group commit (warm-up included): statements, requests they held, the most in one, and the settings */
  groupCommit: { statements: number; items: number; maxItems: number; passes: number; size: number };
  concurrency: number;
  durationMs: number;
}

/** Load generators running now (stopped by the bench's clean-up). */
export const ingestLoadChildren = new Set<ChildProcess>();

function runLoad(cfg: IngestLoadConfig): Promise<IngestLoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(require.resolve('./locations-load'), [], {
      execArgv: process.execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    ingestLoadChildren.add(child);
    child.once('exit', () => ingestLoadChildren.delete(child));
    child.once('message', (msg: IngestLoadResult | { error: string }) => ('error' in msg ? reject(new Error(msg.error)) : resolve(msg)));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`ingest load generator exited with ${code}`));
    });
    child.send(cfg);
  });
}

const side = (r: IngestLoadResult): Side => ({ fixesPerS: r.fixesPerS, p50: r.p50, p99: r.p99, requests: r.requests, errors: r.errors });

/** Baseline (a): `c` loops of raw pg multi-row inserts of 50 fixes for 200 phones, in this process. */
async function rawInsertLoad(pool: pg.Pool, companyId: string, baseTs: number): Promise<Side> {
  const next = new Array<number>(PHONES).fill(0);
  let counter = 0;
  const one = async () => {
    const phone = counter++ % PHONES;
    const ts: number[] = [];
    const lat: number[] = [];
    for (let i = 0; i < BATCH; i++) {
      const k = next[phone]++;
      ts.push(baseTs + k * 50);
      lat.push(46 + phone / 1000 + k * 1e-5);
    }
    const fill = <T>(v: T) => new Array<T>(BATCH).fill(v);
    await pool.query(INSERT, [
      companyId,
      `BASEPHONE${String(phone).padStart(4, '0')}`,
      Date.now(),
      ts,
      lat,
      fill(14.5),
      fill(5),
      fill(90),
      fill(3.2),
      fill(300),
      fill(80),
    ]);
  };
  const phase = async (ms: number) => {
    const end = performance.now() + ms;
    const latencies: number[] = [];
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < end) {
          const s = performance.now();
          await one();
          latencies.push(performance.now() - s);
        }
      }),
    );
    return { latencies, elapsedMs: performance.now() - t0 };
  };
  await phase(WARMUP_MS);
  const { latencies, elapsedMs } = await phase(DURATION_MS);
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)];
  return { fixesPerS: ((latencies.length * BATCH) / elapsedMs) * 1000, p50: at(50), p99: at(99), requests: latencies.length, errors: 0 };
}

/** Baseline (b): a bare node:http server doing the same one-row insert per request (no lookup, no checks). */
async function startBaselineServer(pool: pg.Pool, companyId: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const q = new URL(req.url ?? '/', 'http://x').searchParams;
    const num = (k: string) => Number(q.get(k));
    pool
      .query(INSERT, [
        companyId,
        q.get('id'),
        Date.now(),
        [num('timestamp')],
        [num('lat')],
        [num('lon')],
        [Math.round(num('accuracy'))],
        [Math.round(num('bearing'))],
        [num('speed') * 0.514444],
        [null],
        [Math.round(num('batt'))],
      ])
      .then(
        () => res.writeHead(200, { 'content-length': '0' }).end(),
        (err: Error) => res.writeHead(500).end(err.message),
      );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

/**
 * Where pushlocations' time goes, without HTTP: medians of `samples` sequential calls of
 * validateFixes + PushLocationsService.ingest (50 fixes, one member) vs the raw insert of 50 rows.
 */
async function serviceSplit(api: TestApi, pool: pg.Pool, companyId: string, memberId: string, baseTs: number, samples = 200) {
  const ingest = api.app.get(PushLocationsService);
  const batch = (i: number) =>
    Array.from({ length: BATCH }, (_, j) => ({
      ts: baseTs + (i * BATCH + j) * 50,
      lat: 46,
      lng: 14.5,
      acc: 5,
      dir: 90,
      spd: 3.2,
      elv: 300,
      bat: 80,
    }));
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const service: number[] = [];
  const raw: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    const { fixes } = validateFixes(batch(i), { now: Date.now(), retentionMs: 365 * 86_400_000 });
    await ingest.ingest({ companyId, memberId, fixes, source: 'app', now: Date.now() });
    service.push(performance.now() - t0);
    const b = batch(samples + i);
    const t1 = performance.now();
    const f = <K extends keyof (typeof b)[0]>(k: K) => b.map((x) => x[k]);
    await pool.query(INSERT, [
      companyId,
      'BASESPLIT',
      Date.now(),
      f('ts'),
      f('lat'),
      f('lng'),
      f('acc'),
      f('dir'),
      f('spd'),
      f('elv'),
      f('bat'),
    ]);
    raw.push(performance.now() - t1);
  }
  return { service: median(service), raw: median(raw), samples };
}

export async function benchIngest(opts: { api: TestApi; pool: pg.Pool; log: (line: string) => void }): Promise<IngestFigures> {
  const { api, pool, log } = opts;
  const company = await createCompany(api, { name: 'Bench ingest' });
  const keys: string[] = [];
  const keysService = api.app.get(ApiKeysService);
  for (let p = 0; p < PHONES; p++) {
    const username = uniqueUsername(`phone${p}`);
    const res = await action(
      api,
      'createaccount',
      { name: `Phone ${p}`, username, password: 'correct horse battery' },
      { key: company.key },
    );
    if (res.body.status !== 0) throw new Error(`createaccount failed: ${JSON.stringify(res.body)}`);
    keys.push((await keysService.issue(username)).apiKey);
  }
  const devices = (
    await pool.query<{ device_id: string }>(
      // the device ids with their global lookup rows (member_device_ids), as editaccount writes them
      `WITH m AS (UPDATE members SET device_id = 'bench-dev-' || id WHERE company_id = $1 AND role = 'worker' RETURNING company_id, id, device_id),
            d AS (INSERT INTO member_device_ids (device_id, company_id, member_id) SELECT lower(device_id), company_id, id FROM m)
       SELECT device_id FROM m`,
      [company.companyUid],
    )
  ).rows.map((r) => r.device_id);
  log(`ingest: ${keys.length} phones with keys and device ids`);

  const now = Date.now();
  const common = { url: api.url, batch: BATCH, concurrency: CONCURRENCY, warmupMs: WARMUP_MS, durationMs: DURATION_MS };
  const pushOurs = await runLoad({ ...common, mode: 'push', phones: keys, baseTs: now - 10 * 3_600_000, stepMs: 50 });
  if (pushOurs.errors) throw new Error(`pushlocations load: ${pushOurs.errors} errors, first: ${pushOurs.firstError}`);
  log(`ingest: pushlocations ${fmt(pushOurs.fixesPerS, 0)} fixes/s`);
  const pushBase = await rawInsertLoad(pool, company.companyUid, now - 10 * 3_600_000);
  log(`ingest: raw insert ${fmt(pushBase.fixesPerS, 0)} fixes/s`);

  const gcBefore = api.app.get(OsmandGroupCommit).groupCommitStats;
  const osmandOurs = await runLoad({ ...common, mode: 'osmand', phones: devices, baseTs: now - 5 * 3_600_000, stepMs: 50 });
  const gcAfter = api.app.get(OsmandGroupCommit).groupCommitStats;
  const config = api.app.get(AppConfig);
  const groupCommit = {
    statements: gcAfter.statements - gcBefore.statements,
    items: gcAfter.items - gcBefore.items,
    maxItems: gcAfter.maxItems,
    passes: config.OSMAND_GROUP_COMMIT_PASSES,
    size: config.OSMAND_GROUP_COMMIT_SIZE,
  };
  if (osmandOurs.errors) throw new Error(`/osmand load: ${osmandOurs.errors} errors, first: ${osmandOurs.firstError}`);
  log(`ingest: /osmand ${fmt(osmandOurs.fixesPerS, 0)} fixes/s`);
  const baseline = await startBaselineServer(pool, company.companyUid);
  try {
    const fakeDevices = devices.map((_, i) => `BASEDEV${String(i).padStart(4, '0')}`);
    const osmandBase = await runLoad({
      ...common,
      url: baseline.url,
      mode: 'osmand',
      phones: fakeDevices,
      baseTs: now - 5 * 3_600_000,
      stepMs: 50,
    });
    if (osmandBase.errors) throw new Error(`baseline http load: ${osmandBase.errors} errors, first: ${osmandBase.firstError}`);
    log(`ingest: node:http + insert ${fmt(osmandBase.fixesPerS, 0)} fixes/s`);
    const [owner] = (
      await pool.query<{ id: string }>(`SELECT id FROM members WHERE company_id = $1 AND role = 'worker' LIMIT 1`, [company.companyUid])
    ).rows;
    const split = await serviceSplit(api, pool, company.companyUid, owner.id, now - 20 * 3_600_000);
    return {
      push: { ours: side(pushOurs), baseline: pushBase },
      split,
      osmand: { ours: side(osmandOurs), baseline: side(osmandBase) },
      groupCommit,
      concurrency: CONCURRENCY,
      durationMs: DURATION_MS,
    };
  } finally {
    await baseline.close();
  }
}

/** The ingestion rows of the main table, and how many targets were missed. */
export function ingestReport(f: IngestFigures): { rows: string[][]; notes: string[]; failed: number } {
  const pass = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  const pushShare = f.push.ours.fixesPerS / f.push.baseline.fixesPerS;
  const osmandShare = f.osmand.ours.fixesPerS / f.osmand.baseline.fixesPerS;
  const pushOk = f.push.ours.fixesPerS >= INGEST_TARGETS.pushFixesPerS && pushShare >= INGEST_TARGETS.pushShare;
  const osmandOk = osmandShare >= INGEST_TARGETS.osmandShare;
  const rows = [
    [
      `pushlocations ${BATCH} fixes × ${PHONES} phones: fixes/s, c=${f.concurrency} (baseline: raw pg insert)`,
      fmt(f.push.ours.fixesPerS, 0),
      fmt(f.push.baseline.fixesPerS, 0),
      `${(pushShare * 100).toFixed(0)} %`,
      `≥ ${INGEST_TARGETS.pushFixesPerS} /s and ≥ ${INGEST_TARGETS.pushShare * 100} %`,
      pass(pushOk),
    ],
    [
      `pushlocations without HTTP: validateFixes + PushLocationsService.ingest, ms p50 of ${f.split.samples} sequential (baseline: raw insert)`,
      fmt(f.split.service, 2),
      fmt(f.split.raw, 2),
      `${(f.split.service / f.split.raw).toFixed(2)}×`,
      '—',
      'info',
    ],
    [
      'pushlocations: latency p50 / p99 ms',
      `${fmt(f.push.ours.p50, 2)} / ${fmt(f.push.ours.p99, 2)}`,
      `${fmt(f.push.baseline.p50, 2)} / ${fmt(f.push.baseline.p99, 2)}`,
      '—',
      '—',
      'info',
    ],
    [
      `/osmand 1 fix a request: fixes/s, c=${f.concurrency} (baseline: node:http + the insert)`,
      fmt(f.osmand.ours.fixesPerS, 0),
      fmt(f.osmand.baseline.fixesPerS, 0),
      `${(osmandShare * 100).toFixed(0)} %`,
      `≥ ${INGEST_TARGETS.osmandShare * 100} %`,
      pass(osmandOk),
    ],
    [
      '/osmand: latency p50 / p99 ms',
      `${fmt(f.osmand.ours.p50, 2)} / ${fmt(f.osmand.ours.p99, 2)}`,
      `${fmt(f.osmand.baseline.p50, 2)} / ${fmt(f.osmand.baseline.p99, 2)}`,
      '—',
      '—',
      'info',
    ],
  ];
  const notes = [
    `ingest: ${f.durationMs / 1000} s per side after a warm-up, ${f.push.ours.requests} pushlocations calls / ${f.push.baseline.requests} raw inserts, ` +
      `${f.osmand.ours.requests} /osmand requests / ${f.osmand.baseline.requests} baseline requests; load from a child process (bench/locations-load.ts).`,
    `/osmand group commit (OSMAND_GROUP_COMMIT_PASSES=${f.groupCommit.passes}, OSMAND_GROUP_COMMIT_SIZE=${f.groupCommit.size}): ` +
      `${f.groupCommit.statements} statements for ${f.groupCommit.items} requests with the warm-up, ` +
      `${fmt(f.groupCommit.items / Math.max(1, f.groupCommit.statements), 2)} per statement on average, at most ${f.groupCommit.maxItems}.`,
  ];
  return { rows, notes, failed: [pushOk, osmandOk].filter((ok) => !ok).length };
}
