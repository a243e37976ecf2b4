/**
 * Geofencing latency under load (`BENCH_ONLY=geofence`): the time from a probe phone's
 * `pushlocations` call carrying a fix inside a place to the `placecheckin` event's row in the outbox,
 * while 200 other phones push batches of 50 fixes at ~20,000 fixes/s in total (a child process,
 * `geofence-load.ts`), all through the in-process api and ONE built worker (its Locations processor
 * runs every fix consumer). The company's `checkin_dwell_seconds` is 0, so the entry is decided by the
 * first fix inside and the figure is the pipeline's (HTTP, fixes task, evaluation), not the dwell.
 * No baseline: the target is absolute (p99 ≤ 2 s).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { newId } from '@app/core';
import pg from 'pg';
import { action, createCompany, createMember, TestApi } from '../test/support/api';
import { Child, waitFor } from '../test/support/proc-child';
import { startWorker } from '../test/support/worker';
import type { GeofenceLoadConfig, GeofenceLoadResult } from './geofence-load';
import { fmt, percentile } from './stats';
import { cpuSeconds } from './webhooks-worker';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

export const GEOFENCE_CONFIG = {
  phones: envInt('BENCH_GEOFENCE_PHONES', 200),
  batch: 50,
  fixesPerSecond: envInt('BENCH_GEOFENCE_FIXES_PER_SECOND', 20_000),
  warmupSeconds: envInt('BENCH_GEOFENCE_WARMUP_SECONDS', 5),
  samples: envInt('BENCH_GEOFENCE_SAMPLES', 100),
  places: 100,
  targetP99Ms: 2000,
};

export interface GeofenceFigures {
  samples: number;
  timedOut: number;
  http: { p50: number; p99: number };
  p50: number;
  p99: number;
  max: number;
  load: GeofenceLoadResult;
  backlog: number;
  /** s: from the load's start to its stop (warm-up and probes) */
  seconds: number;
  /** CPU seconds per 1,000 fixes ingested while the load ran (see {@link cpuSnapshot}) */
  cpuPer1000: CpuSplit;
}

/** CPU seconds of the pieces of a run: the worker, this database's PostgreSQL backends, this process (api + probe), the load child. */
export interface CpuSplit {
  worker: number;
  postgres: number;
  bench: number;
  load: number;
}

/** CPU seconds so far of the worker, the load child, this process, and this database's backends by pid. */
async function cpuSnapshot(pool: pg.Pool, workerPid: number, loadPid: number): Promise<{ split: CpuSplit; backends: Map<number, number> }> {
  const { rows } = await pool.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`);
  const backends = new Map(rows.map((r) => [r.pid, cpuSeconds(r.pid)]));
  const u = process.cpuUsage();
  return { split: { worker: cpuSeconds(workerPid), postgres: 0, bench: (u.user + u.system) / 1e6, load: cpuSeconds(loadPid) }, backends };
}

/** CPU seconds between two snapshots (a backend opened in between counts from 0; one closed in between is lost). */
function cpuDelta(a: Awaited<ReturnType<typeof cpuSnapshot>>, b: Awaited<ReturnType<typeof cpuSnapshot>>): CpuSplit {
  let postgres = 0;
  for (const [pid, after] of b.backends) postgres += after - (a.backends.get(pid) ?? 0);
  return { worker: b.split.worker - a.split.worker, postgres, bench: b.split.bench - a.split.bench, load: b.split.load - a.split.load };
}

const CENTER = { lat: 46.0511, lng: 14.5051 };
/** How long a probe waits for its event before it counts as timed out (its latency is then this bound). */
const PROBE_TIMEOUT_MS = 30_000;
const opened: { worker?: Child; load?: ChildProcess } = {};

/** Stops the load generator and the worker. Safe to call twice. */
export async function closeGeofence(): Promise<void> {
  opened.load?.kill();
  opened.load = undefined;
  await opened.worker?.stop('SIGTERM', 10_000).catch(() => undefined);
  opened.worker = undefined;
}

/**
 * The alerts scenario (issue #12's benchmark, `BENCH_ONLY=alerts`): `zones` squares of about 300 m on
 * the phones' grid (one in ten a danger zone) and `rules` active alert rules targeting every worker, a
 * mix of all twelve firing actions; the probe then measures its own `enters_zone` rule's
 * `alerttriggered` reaching the outbox instead of the place check-in.
 */
export interface AlertsScenario {
  zones: number;
  rules: number;
}

/** The twelve firing actions, cycled through by the scenario's rules. */
const RULE_ACTIONS = [
  'enters_zone',
  'leaves_zone',
  'enters_danger_zone',
  'battery_low',
  'checks_in',
  'checks_out',
  'checks_any',
  'idle',
  'no_connection_to_device',
  'no_check_in',
  'no_check_out',
  'no_check_any',
] as const;

/** A closed square ring of half-side `half` degrees around a point, as WKT for `ST_GeogFromText`. */
function squareWkt(lat: number, lng: number, half: number): string {
  const ring = [
    [lng - half, lat - half],
    [lng + half, lat - half],
    [lng + half, lat + half],
    [lng - half, lat + half],
    [lng - half, lat - half],
  ];
  return `SRID=4326;POLYGON((${ring.map(([x, y]) => `${x} ${y}`).join(', ')}))`;
}

/** Inserts the scenario's zones and rules (SQL: set-up only), and the probe's zone and rule. */
async function seedAlerts(
  pool: pg.Pool,
  companyId: string,
  probe: { memberId: string; lat: number; lng: number },
  scenario: AlertsScenario,
) {
  const now = Date.now();
  const zoneIds: string[] = [];
  const dangerIds: string[] = [];
  for (let i = 0; i < scenario.zones; i++) {
    const id = newId();
    const danger = i % 10 === 0;
    zoneIds.push(id);
    if (danger) dangerIds.push(id);
    const lat = CENTER.lat + (Math.random() - 0.5) * 0.1;
    const lng = CENTER.lng + (Math.random() - 0.5) * 0.1;
    await pool.query(
      `INSERT INTO zones (id, company_id, name, polygon, danger, created_at) VALUES ($1, $2, $3, ST_GeogFromText($4), $5, $6)`,
      [id, companyId, `Zone ${i}`, squareWkt(lat, lng, 0.0015), danger, now],
    );
  }
  const insertRule = (
    action: string,
    fields: { zoneId?: string | null; members?: string[]; interval?: number | null; window?: object | null },
  ) =>
    pool.query(
      `INSERT INTO alert_rules (id, company_id, title, action, members, zone_id, interval, "window", created_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8::jsonb, $9) RETURNING id`,
      [
        newId(),
        companyId,
        `Rule ${action}`,
        action,
        JSON.stringify(fields.members ?? []),
        fields.zoneId ?? null,
        fields.interval ?? null,
        fields.window ? JSON.stringify(fields.window) : null,
        now,
      ],
    );
  for (let i = 0; i < scenario.rules; i++) {
    const action = RULE_ACTIONS[i % RULE_ACTIONS.length];
    const zoneId =
      action === 'enters_zone' || action === 'leaves_zone'
        ? zoneIds[i % zoneIds.length]
        : action === 'enters_danger_zone' && i % 2 === 0 && dangerIds.length
          ? dangerIds[i % dangerIds.length]
          : null;
    const interval = action === 'idle' || action === 'no_connection_to_device' ? 3_600_000 : null;
    const window = action.startsWith('no_check') ? { days: [1, 2, 3, 4, 5, 6, 7], start: 0, end: 2359 } : null;
    await insertRule(action, { zoneId, interval, window });
  }
  const probeZone = newId();
  await pool.query(`INSERT INTO zones (id, company_id, name, polygon, created_at) VALUES ($1, $2, 'Probe zone', ST_GeogFromText($3), $4)`, [
    probeZone,
    companyId,
    squareWkt(probe.lat, probe.lng, 0.002),
    now,
  ]);
  const rule = await insertRule('enters_zone', { zoneId: probeZone, members: [probe.memberId] });
  return { probeRuleId: rule.rows[0].id as string };
}

export async function benchGeofence(opts: {
  api: TestApi;
  pool: pg.Pool;
  log: (line: string) => void;
  alerts?: AlertsScenario;
}): Promise<GeofenceFigures> {
  const { api, pool, log, alerts } = opts;
  const cfg = GEOFENCE_CONFIG;
  const company = await createCompany(api, { name: 'Bench geofence' });
  const edit = await action(api, 'editcompany', { checkin_dwell_seconds: 0 }, { key: company.key });
  if (edit.body.status !== 0) throw new Error(`editcompany: ${JSON.stringify(edit.body)}`);
  // places on a grid around the city (the phones wander among them), and the probe's place
  const placeRows: unknown[][] = [];
  for (let i = 0; i < cfg.places; i++) {
    placeRows.push([
      newId(),
      company.companyUid,
      `Site ${i}`,
      CENTER.lat + 0.01 * (i % 10) - 0.05,
      CENTER.lng + 0.01 * Math.floor(i / 10) - 0.05,
    ]);
  }
  const probePlace = { id: newId(), lat: CENTER.lat + 0.2, lng: CENTER.lng + 0.2 };
  placeRows.push([probePlace.id, company.companyUid, 'Probe site', probePlace.lat, probePlace.lng]);
  for (const r of placeRows) {
    await pool.query(
      `INSERT INTO places (id, company_id, name, radius, location, created_at)
       VALUES ($1, $2, $3, 100, ST_SetSRID(ST_MakePoint($5, $4), 4326)::geography, floor(extract(epoch from now()) * 1000))`,
      r,
    );
  }
  log(`geofence: creating ${cfg.phones} phones`);
  const keys: string[] = [];
  for (let i = 0; i < cfg.phones; i++) keys.push((await createMember(api, company, { role: 'worker' })).key);
  const probe = await createMember(api, company, { role: 'worker' });
  const probeRule = alerts
    ? (log(`geofence: ${alerts.zones} zones and ${alerts.rules} alert rules`),
      await seedAlerts(pool, company.companyUid, { memberId: probe.uid, ...probePlace }, alerts))
    : undefined;
  await pool.query('ANALYZE');

  const workerArgs = (process.env.BENCH_GEOFENCE_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  opened.worker = await startWorker(
    'bench geofence worker',
    // the worker's pool: the app's default (the bench's 10), unless a BENCH_GEOFENCE_WORKER_POOL_SIZE experiment says otherwise
    {
      NODE_ENV: 'production',
      ...(process.env.BENCH_GEOFENCE_WORKER_POOL_SIZE ? { DATABASE_POOL_SIZE: process.env.BENCH_GEOFENCE_WORKER_POOL_SIZE } : {}),
    },
    (sql, params) => pool.query(sql, params),
    workerArgs,
  );

  const loadCfg: GeofenceLoadConfig = {
    url: `${api.url}/api/pushlocations`,
    keys,
    starts: keys.map(() => ({ lat: CENTER.lat + (Math.random() - 0.5) * 0.1, lng: CENTER.lng + (Math.random() - 0.5) * 0.1 })),
    batch: cfg.batch,
    fixesPerSecond: cfg.fixesPerSecond,
    maxInFlight: 64,
  };
  const load = fork(require.resolve('./geofence-load'), [], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  opened.load = load;
  const loadResult = new Promise<GeofenceLoadResult>((resolve, reject) => {
    load.once('message', (msg: GeofenceLoadResult | { error: string }) => ('error' in msg ? reject(new Error(msg.error)) : resolve(msg)));
    load.once('error', reject);
  });
  const cpuBefore = await cpuSnapshot(pool, opened.worker.pid, load.pid!);
  const t0 = performance.now();
  load.send(loadCfg);
  log(`geofence: background load ${cfg.fixesPerSecond} fixes/s, warming up ${cfg.warmupSeconds} s`);
  await new Promise((r) => setTimeout(r, cfg.warmupSeconds * 1000));

  const latencies: number[] = [];
  /** ms: the probe's pushlocations call alone (sent → answered) */
  const httpMs: number[] = [];
  const push = async (lat: number, lng: number) => {
    const ts = Date.now();
    const res = await action(api, 'pushlocations', { locations: [{ ts, lat, lng, acc: 5 }] }, { key: probe.key });
    if (res.body.status !== 0) throw new Error(`probe pushlocations: ${JSON.stringify(res.body)}`);
    return ts;
  };
  /**
   * The probe polls every 5 ms, so its query must stay cheap as the outbox grows (half a million rows
   * in the alerts run): `created_at` bounds it to the index range written since the fix was sent (less
   * a second of margin; the event's transaction starts after the fix arrived). Without the bound each
   * poll read every event of the company, and the polls took a third of PostgreSQL's time.
   */
  const since = (sentMs: number) => sentMs - 1000;
  /** Waits for the event's outbox row; false when it did not show within `PROBE_TIMEOUT_MS`. */
  const outboxed = (formId: string, sentMs: number) =>
    waitFor(
      `outbox ${formId}`,
      async () =>
        (
          await pool.query(`SELECT 1 FROM outbox_events WHERE company_id = $1 AND created_at >= $3 AND form_id = $2`, [
            company.companyUid,
            formId,
            since(sentMs),
          ])
        ).rowCount! > 0,
      { timeoutMs: PROBE_TIMEOUT_MS, intervalMs: 5 },
    ).then(
      () => true,
      () => false,
    );
  /** Waits for the probe rule's firing at `ts` and its `alerttriggered` outbox row. */
  const alerted = (ts: number) =>
    waitFor(
      `alert at ${ts}`,
      async () =>
        (
          await pool.query(
            `SELECT 1 FROM alert_firings f
               JOIN outbox_events o ON o.company_id = f.company_id AND o.created_at >= $5 AND o.form_id = f.id
              WHERE f.company_id = $1 AND f.rule_id = $2 AND f.member_id = $3 AND f.ts = $4`,
            [company.companyUid, probeRule!.probeRuleId, probe.uid, ts, since(ts)],
          )
        ).rowCount! > 0,
      { timeoutMs: PROBE_TIMEOUT_MS, intervalMs: 5 },
    ).then(
      () => true,
      () => false,
    );
  log(`geofence: ${cfg.samples} probe ${probeRule ? 'zone entries (alerts)' : 'check-ins'}`);
  let timedOut = 0;
  for (let i = 0; i < cfg.samples && timedOut < 3; i++) {
    const sent = performance.now();
    const ts = await push(probePlace.lat, probePlace.lng);
    httpMs.push(performance.now() - sent);
    const seen = probeRule ? await alerted(ts) : await outboxed(`${probe.uid}-${probePlace.id}-${ts}`, ts);
    latencies.push(performance.now() - sent);
    if (!seen) {
      timedOut += 1;
      log(`geofence: probe ${i} not in the outbox after ${PROBE_TIMEOUT_MS} ms`);
      continue; // the exit would wait behind the same backlog
    }
    // leave (dwell 0: the first fix beyond is the exit) before the next entry
    await new Promise((r) => setTimeout(r, 5));
    const out = await push(probePlace.lat + 0.01, probePlace.lng);
    if (!(await outboxed(`${probe.uid}-${probePlace.id}-${out}`, out))) timedOut += 1;
    await new Promise((r) => setTimeout(r, 5));
  }
  // the load child's CPU before it exits (it answers its result, then exits)
  const cpuAfterSnap = await cpuSnapshot(pool, opened.worker!.pid, load.pid!);
  const seconds = (performance.now() - t0) / 1000;
  load.send('stop');
  const loadFigures = await loadResult;
  const cpu = cpuDelta(cpuBefore, cpuAfterSnap);
  const per = 1000 / Math.max(1, loadFigures.fixes);
  opened.load = undefined;
  const [{ backlog }] = (
    await pool.query<{ backlog: number }>(
      `SELECT count(*)::int AS backlog FROM geofence_states g
        WHERE g.company_id = $1 AND g.evaluated_ts < (SELECT max(ts) FROM location_fixes f WHERE f.company_id = g.company_id AND f.member_id = g.member_id)`,
      [company.companyUid],
    )
  ).rows;
  await closeGeofence();
  return {
    samples: latencies.length,
    timedOut: latencies.filter((ms) => ms >= PROBE_TIMEOUT_MS).length,
    http: { p50: percentile(httpMs, 50), p99: percentile(httpMs, 99) },
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: Math.max(...latencies),
    load: loadFigures,
    backlog,
    seconds,
    cpuPer1000: { worker: cpu.worker * per, postgres: cpu.postgres * per, bench: cpu.bench * per, load: cpu.load * per },
  };
}

/** The table rows and notes of the geofence figures. */
export function geofenceReport(g: GeofenceFigures): { rows: string[][]; notes: string[]; failed: number } {
  const ok = g.p99 <= GEOFENCE_CONFIG.targetP99Ms;
  const bg = `${fmt(g.load.fixesPerSecond, 0)} fixes/s background`;
  return {
    rows: [
      [
        `geofence: fix in → placecheckin in the outbox, p99 ms (${bg})`,
        fmt(g.p99),
        'none',
        '—',
        `≤ ${GEOFENCE_CONFIG.targetP99Ms}`,
        ok ? 'PASS' : 'FAIL',
      ],
      [`geofence: fix in → placecheckin in the outbox, p50 ms`, fmt(g.p50), 'none', '—', '—', 'info'],
      [
        `geofence: of which the probe's pushlocations call, p50 / p99 ms`,
        `${fmt(g.http.p50)} / ${fmt(g.http.p99)}`,
        'none',
        '—',
        '—',
        'info',
      ],
    ],
    notes: [
      `geofence: ${g.samples} probe check-ins (max ${fmt(g.max)} ms; ${g.timedOut} not seen within ${PROBE_TIMEOUT_MS} ms, counted at that bound) while ${GEOFENCE_CONFIG.phones} phones pushed batches of ${GEOFENCE_CONFIG.batch} ` +
        `(target ${GEOFENCE_CONFIG.fixesPerSecond} fixes/s; achieved ${fmt(g.load.fixesPerSecond, 0)}: ${g.load.requests} calls, ${g.load.errors} errors, ` +
        `${g.load.skipped} sends skipped at 64 in flight${g.load.firstError ? `, first error ${g.load.firstError}` : ''}); ` +
        `${g.backlog} phones not yet evaluated to their newest fix when the load stopped. No baseline (absolute target).`,
      `geofence: ${cpuNote(g)}`,
    ],
    failed: ok ? 0 : 1,
  };
}

/** The run's length and its CPU seconds per 1,000 fixes ingested, by process. */
export function cpuNote(g: GeofenceFigures): string {
  const c = g.cpuPer1000;
  return (
    `the load ran ${fmt(g.seconds, 0)} s; CPU s per 1,000 fixes ingested: worker ${fmt(c.worker, 3)}, PostgreSQL backends ${fmt(c.postgres, 3)}, ` +
    `api + probe ${fmt(c.bench, 3)}, load generator ${fmt(c.load, 3)}`
  );
}
