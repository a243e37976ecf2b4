import { AuthContext, newId } from '@app/core';
import { LocateService, LocateSnapshots } from '@app/locations';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import pg from 'pg';
import { createCompany, TestApi } from '../test/support/api';
import { fmt, percentile, post } from './stats';

/**
 * `locate` of a whole company (`teams: true`, an administrator's key) over HTTP, against the baseline:
 * one raw SQL query of the same data (the members with their latest location) through `pg`, timed in
 * the same run, alternating one call of each. Companies of 1,000 and 5,000 members are seeded by SQL
 * (90 % located, in 10 teams).
 */

/** The baseline: the members and their latest fix, as one plain SELECT through pg. */
const BASELINE_SQL = `SELECT m.id, m.username, m.name, m.email, m.phone, m.teams,
  l.ts::float8 AS ts, l.lat, l.lng, l.acc, l.dir, l.spd, l.elv, l.bat
  FROM members m LEFT JOIN member_locations l ON l.company_id = m.company_id AND l.member_id = m.id
 WHERE m.company_id = $1 AND m.active_status = 'active' ORDER BY m.created_at, m.id`;

export interface LocateSize {
  members: number;
  ours: { p50: number; p95: number };
  baseline: { p50: number; p95: number };
  /** the floor: a bare node:http server running the baseline query and answering JSON.stringify of its records */
  floor: { p50: number; p95: number };
  /** LocateService.locate called in-process (no HTTP, no JSON): the service's share */
  service: { p50: number; p95: number };
  /** JSON.stringify of the answer */
  stringify: { p50: number; p95: number };
  /** ours and the floor when 1 % of the members moved (their latest location updated) before each call */
  moving: { ours: { p50: number; p95: number }; floor: { p50: number; p95: number }; moved: number };
  /** whole reads of the company's snapshot during the timed calls (1 expected at most: the first call warms it) */
  fullReads: number;
  iterations: number;
  responseBytes: number;
}

/**
 * The floor of an HTTP locate on this machine: a bare `node:http` server in this process (as the api
 * is) that runs {@link BASELINE_SQL}, maps each row to a Location record (teams named from the
 * company's `teams_config`, never-located members as the spec answers them) and answers
 * `JSON.stringify({status: 0, accounts})` — no framework, no authentication, no validation, no
 * visibility rule. Called over the same keep-alive client as ours, so what is left between ours and
 * this is the service's own cost.
 */
async function startFloor(pool: pg.Pool): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { companyId } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { companyId: string };
      void Promise.all([
        pool.query<{ teams_config: Array<{ id: number; name: string }> }>(`SELECT teams_config FROM companies WHERE id = $1`, [companyId]),
        pool.query(BASELINE_SQL, [companyId]),
      ]).then(([company, { rows }]) => {
        const names = new Map(company.rows[0].teams_config.map((t) => [t.id, t.name]));
        const accounts = rows.map((r) => {
          const located = r.ts !== null;
          return {
            uid: r.id,
            usr: r.username,
            name: r.name,
            email: r.email,
            phone: r.phone,
            teams: (r.teams as number[]).map((n) => ({ name: names.get(n) ?? '', number: n })),
            lat: r.lat,
            lng: r.lng,
            ts: located ? r.ts : 0,
            acc: r.acc,
            dir: r.dir,
            spd: r.spd,
            elv: r.elv,
            bat: r.bat,
          };
        });
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ status: 0, accounts }));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/**
 * What ingestion does to `$2` located members between two polls: their latest location moves
 * (the same columns the ingest statement's upsert writes), committed before the next call.
 */
const MOVE_SQL = `UPDATE member_locations SET ts = $3, lat = lat + 0.00001, spd = 3.5, updated_at = $3
  WHERE company_id = $1 AND member_id IN (
    SELECT member_id FROM member_locations WHERE company_id = $1 AND ts IS NOT NULL ORDER BY random() LIMIT $2)`;

/** Seeds a company of `n` members (SQL), 90 % of them with a latest fix near Ljubljana. */
async function seed(api: TestApi, pool: pg.Pool, n: number): Promise<{ key: string; companyId: string; ownerUid: string }> {
  const company = await createCompany(api, { name: `Bench locate ${n}` });
  const teams = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, name: `Team ${i + 1}` }));
  await pool.query(`UPDATE companies SET teams_config = $2 WHERE id = $1`, [company.companyUid, JSON.stringify(teams)]);
  const now = Date.now();
  const ids = Array.from({ length: n - 1 }, () => newId());
  await pool.query(
    `WITH u AS (INSERT INTO member_usernames (username, company_id, member_id)
                SELECT lower('bench.' || id || '@example.test'), $1, id FROM unnest($2::varchar[]) AS u(id))
     INSERT INTO members (id, company_id, username, name, email, phone, teams, created_at, updated_at)
     SELECT id, $1, 'bench.' || id || '@example.test', 'Member ' || i, 'm' || i || '@example.test', '+386 40 ' || i,
            jsonb_build_array(1 + i % 10), $3 + i, $3 + i
       FROM unnest($2::varchar[]) WITH ORDINALITY AS u(id, i)`,
    [company.companyUid, ids, now],
  );
  await pool.query(
    `INSERT INTO member_locations (company_id, member_id, ts, lat, lng, acc, dir, spd, elv, bat, tracking_status, updated_at)
     SELECT $1, id, $3 - i * 1000, 46.05 + (i % 100) * 0.001, 14.50 + (i / 100) * 0.001, 10, i % 360, (i % 20)::float8 / 2, 300, 80, true, $3
       FROM unnest($2::varchar[]) WITH ORDINALITY AS u(id, i) WHERE i % 10 <> 0`,
    [company.companyUid, ids, now],
  );
  return { key: company.key, companyId: company.companyUid, ownerUid: company.ownerUid };
}

export async function benchLocate(opts: {
  api: TestApi;
  pool: pg.Pool;
  sizes: number[];
  warmups: number;
  iterations: number;
  log: (line: string) => void;
}): Promise<LocateSize[]> {
  const out: LocateSize[] = [];
  const seeded = [];
  for (const n of opts.sizes) seeded.push({ n, ...(await seed(opts.api, opts.pool, n)) });
  await opts.pool.query('ANALYZE');
  const service = opts.api.app.get(LocateService);
  const snapshots = opts.api.app.get(LocateSnapshots);
  const floorServer = await startFloor(opts.pool);
  for (const { n, key, companyId, ownerUid } of seeded) {
    const ctx: AuthContext = {
      companyId,
      memberId: ownerUid,
      username: '',
      role: 'administrator',
      isOwner: true,
      keyPrefix: '',
      timezone: 'UTC',
      settings: { workers_edit_job: false, workers_create_places: false, workers_view_places: true },
    };
    const q = { accounts: [], teams: 'all' as const, withAddress: false, withDetails: false, ping: false };
    const body = JSON.stringify({ data: { teams: true } });
    let responseBytes = 0;
    const call = async () => {
      const res = await post(`${opts.api.url}/api/locate`, body, { 'api-key': key });
      if (res.status !== 200 || !res.text.startsWith('{"status":0'))
        throw new Error(`locate answered ${res.status}: ${res.text.slice(0, 300)}`);
      responseBytes = res.text.length;
      return res.text;
    };
    const first = JSON.parse(await call()) as { accounts: unknown[] };
    if (first.accounts.length !== n) throw new Error(`locate answered ${first.accounts.length} records, expected ${n}`);
    const floorBody = JSON.stringify({ companyId });
    const callFloor = async () => {
      const res = await post(floorServer.url, floorBody);
      if (res.status !== 200 || !res.text.startsWith('{"status":0'))
        throw new Error(`the floor answered ${res.status}: ${res.text.slice(0, 300)}`);
      return res.text;
    };
    if ((JSON.parse(await callFloor()) as { accounts: unknown[] }).accounts.length !== n)
      throw new Error('the floor answered a wrong count');
    const ours: number[] = [];
    const floor: number[] = [];
    const baseline: number[] = [];
    const inProcess: number[] = [];
    const stringify: number[] = [];
    for (let i = 0; i < opts.warmups + opts.iterations; i++) {
      let t0 = performance.now();
      await call();
      const o = performance.now() - t0;
      t0 = performance.now();
      const { rowCount } = await opts.pool.query(BASELINE_SQL, [companyId]);
      const b = performance.now() - t0;
      t0 = performance.now();
      await callFloor();
      const fl = performance.now() - t0;
      if (rowCount !== n) throw new Error(`baseline answered ${rowCount} rows, expected ${n}`);
      t0 = performance.now();
      const records = await service.locate(ctx, q);
      const sv = performance.now() - t0;
      t0 = performance.now();
      JSON.stringify({ status: 0, accounts: records });
      const st = performance.now() - t0;
      if (i >= opts.warmups) {
        ours.push(o);
        baseline.push(b);
        floor.push(fl);
        inProcess.push(sv);
        stringify.push(st);
      }
    }
    // while members move: 1 % of them get a new latest location before each call (ours and the floor alike)
    const moved = Math.max(1, Math.floor(n / 100));
    const movingOurs: number[] = [];
    const movingFloor: number[] = [];
    const fullReadsBefore = snapshots.stats.fullReads;
    for (let i = 0; i < opts.warmups + opts.iterations; i++) {
      await opts.pool.query(MOVE_SQL, [companyId, moved, Date.now()]);
      let t0 = performance.now();
      await call();
      const o = performance.now() - t0;
      await opts.pool.query(MOVE_SQL, [companyId, moved, Date.now()]);
      t0 = performance.now();
      await callFloor();
      const fl = performance.now() - t0;
      if (i >= opts.warmups) {
        movingOurs.push(o);
        movingFloor.push(fl);
      }
    }
    const stat = (v: number[]) => ({ p50: percentile(v, 50), p95: percentile(v, 95) });
    out.push({
      moving: { ours: stat(movingOurs), floor: stat(movingFloor), moved },
      fullReads: snapshots.stats.fullReads - fullReadsBefore,
      members: n,
      ours: stat(ours),
      baseline: stat(baseline),
      floor: stat(floor),
      service: stat(inProcess),
      stringify: stat(stringify),
      iterations: opts.iterations,
      responseBytes,
    });
    opts.log(`locate ${n}: p95 ${fmt(stat(ours).p95)} ms (baseline ${fmt(stat(baseline).p95)} ms)`);
  }
  await floorServer.close();
  return out;
}

/** Target: p95 ≤ 25 ms at 5,000 members (issue #10). */
export const LOCATE_P95_TARGET_MS = 25;

/** The table rows: p50 and p95 per size; pass/fail on p95 at 5,000. */
export function locateRows(sizes: LocateSize[]): { rows: string[][]; failed: number } {
  const rows: string[][] = [];
  let failed = 0;
  for (const s of sizes) {
    const n = s.members.toLocaleString('en-US');
    const gated = s.members >= 5000;
    const ok = s.ours.p95 <= LOCATE_P95_TARGET_MS;
    if (gated && !ok) failed++;
    rows.push([
      `locate ${n} members (teams: true): p95 ms`,
      fmt(s.ours.p95),
      fmt(s.baseline.p95),
      `${(s.ours.p95 / s.baseline.p95).toFixed(2)}×`,
      gated ? `≤ ${LOCATE_P95_TARGET_MS} ms` : '—',
      gated ? (ok ? 'PASS' : 'FAIL') : 'info',
    ]);
    rows.push([
      `locate ${n} members (teams: true): p50 ms`,
      fmt(s.ours.p50),
      fmt(s.baseline.p50),
      `${(s.ours.p50 / s.baseline.p50).toFixed(2)}×`,
      '—',
      'info',
    ]);
    for (const q of ['p95', 'p50'] as const)
      rows.push([
        `  · floor: bare node:http + the baseline query + JSON.stringify: ${q} ms`,
        fmt(s.ours[q]),
        fmt(s.floor[q]),
        `${(s.ours[q] / s.floor[q]).toFixed(2)}×`,
        '—',
        'info',
      ]);
    rows.push([
      '  · of which LocateService.locate in-process (snapshot refresh + records): p50 ms',
      fmt(s.service.p50),
      fmt(s.baseline.p50),
      `${(s.service.p50 / s.baseline.p50).toFixed(2)}×`,
      '—',
      'info',
    ]);
    rows.push(['  · of which JSON.stringify of the answer: p50 ms', fmt(s.stringify.p50), '—', '—', '—', 'info']);
    const movingOk = s.moving.ours.p95 <= LOCATE_P95_TARGET_MS;
    if (gated && !movingOk) failed++;
    rows.push([
      `locate ${n} members, ${s.moving.moved} moved before each call: p95 ms (baseline: the floor)`,
      fmt(s.moving.ours.p95),
      fmt(s.moving.floor.p95),
      `${(s.moving.ours.p95 / s.moving.floor.p95).toFixed(2)}×`,
      gated ? `≤ ${LOCATE_P95_TARGET_MS} ms` : '—',
      gated ? (movingOk ? 'PASS' : 'FAIL') : 'info',
    ]);
    rows.push([
      `locate ${n} members, ${s.moving.moved} moved before each call: p50 ms (baseline: the floor)`,
      fmt(s.moving.ours.p50),
      fmt(s.moving.floor.p50),
      `${(s.moving.ours.p50 / s.moving.floor.p50).toFixed(2)}×`,
      '—',
      'info',
    ]);
  }
  return { rows, failed };
}
