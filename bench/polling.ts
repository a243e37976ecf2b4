/**
 * The connector's polling triggers (`BENCH_ONLY=polling`, docs/connector.md "Polling triggers"):
 * `GET /v1/checkins?createdSince=…` answering 100 items out of 1,000,000 check-ins of one company,
 * against the same SQL (`stampedEventsPageSql`) run by a bare `node:http` server over `pg` that maps
 * the rows with the same `checkinItemForEvent` and answers the same JSON — no framework, no
 * authentication, no validation, no stamping check. Calls alternate, one of each, sequentially.
 */
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { CHECKIN_KINDS, checkinItemForEvent, CheckinItem } from '@app/locations';
import { PlacesService } from '@app/places';
import { loadConfig, newEventId, newId, OutboxRepository, StampedEventOf, StampedEventRow, stampedEventsPageSql } from '@app/core';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@app/database';
import { JobStampsRepository } from '@app/jobs';
import { action, createCompany, createMember, TestApi } from '../test/support/api';
import { waitFor } from '../test/support/proc-child';
import { makeJob, dayFromToday } from './fixtures';
import { fmt, get, median, percentile, printPart } from './stats';
import { PartContext } from './part';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

const CONFIG = {
  events: envInt('BENCH_POLLING_EVENTS', 1_000_000),
  warmups: envInt('BENCH_WARMUPS', 20),
  iterations: envInt('BENCH_ITERATIONS', 300),
  limit: 100,
};
/** Targets: ours p95 ≤ 1.5 × the baseline's, and ≤ 20 ms. */
const TARGET = { ratio: 1.5, p95Ms: 20 };

/** The baseline server: the route's SQL through pg, the same item mapping, JSON — nothing else. */
async function startBaseline(pool: pg.Pool, companyId: string): Promise<{ url: string; close: () => Promise<void> }> {
  const sql = stampedEventsPageSql(CHECKIN_KINDS, false);
  const server = http.createServer((req, res) => {
    void (async () => {
      try {
        const since = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('createdSince') ?? 0);
        const { rows } = await pool.query<StampedEventRow>(sql, [companyId, since, CONFIG.limit]);
        const items = rows
          .filter((r) => r.id !== null)
          .map((r) =>
            checkinItemForEvent({ id: r.id!, action: r.action, data: JSON.parse(r.payload), createdAt: r.createdAt } as StampedEventOf<
              (typeof CHECKIN_KINDS)[number]
            >),
          );
        const out = JSON.stringify({ data: { items } });
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(out) });
        res.end(out);
      } catch (err) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(err));
      }
    })();
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/checkins`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * One company with `events` stamped check-in events (40 % place check-ins, 40 % check-outs, 10 % job
 * check-ins, 10 % check-outs), their payloads the real ones: a place check's as geofencing writes it
 * (the place's view, the member), a job check's as editjobs wrote it for a realistic job (the full
 * job view, about 2 kB). Inserted by SQL in batches of 100,000, stamps 10 ms apart, then analysed.
 * @returns the company's key, id and the stamps of its events (oldest, newest)
 */
async function seed(api: TestApi, pool: pg.Pool, log: (line: string) => void) {
  const company = await createCompany(api, { name: 'Bench polling' });
  const worker = await createMember(api, company, { name: 'Luka Novak' });
  const placeId = `BP${String(Date.now()).padStart(24, '0')}`;
  await pool.query(
    `INSERT INTO places (id, company_id, name, address, city, country_code, radius, location, data, teams, creator_id, created_at)
     VALUES ($1, $2, 'North depot', 'Tržaška cesta 12', 'Ljubljana', 'SI', 100, ST_SetSRID(ST_MakePoint(14.5051, 46.0511), 4326)::geography,
             '[{"key": "gate", "val": "B"}]'::jsonb, '[]'::jsonb, $3, $4)`,
    [placeId, company.companyUid, company.ownerUid, Date.now()],
  );
  const [place] = await api.app.get(PlacesService).placeViews(company.companyUid, [placeId]);
  const who = { uid: worker.uid, name: 'Luka Novak', username: worker.username };
  const created = await action<{ jobs: Array<{ id: string }> }>(
    api,
    'createjobs',
    { jobs: [makeJob(7, dayFromToday(0), worker.username)] },
    { key: company.key },
  );
  const jobId = created.body.jobs[0].id;
  await action(api, 'editjobs', { jobs: { [jobId]: { tsCheckIn: Date.now() - 60_000 } } }, { key: company.key });
  await waitFor(
    'stamped',
    async () =>
      (await pool.query(`SELECT 1 FROM outbox_events WHERE company_id = $1 AND seq IS NULL`, [company.companyUid])).rowCount === 0,
    { timeoutMs: 10_000, intervalMs: 50 },
  );
  const [{ payload: jobPayload }] = (
    await pool.query<{ payload: string }>(`SELECT payload FROM outbox_events WHERE company_id = $1 AND action = 'jobcheckin'`, [
      company.companyUid,
    ])
  ).rows;
  // the set-up's own events go: the company's check-ins are the seeded ones only
  await pool.query(`DELETE FROM outbox_events WHERE company_id = $1`, [company.companyUid]);
  const [{ last }] = (
    await pool.query<{ last: number }>(`SELECT last_seq::float8 AS last FROM outbox_sequences WHERE company_id = $1`, [company.companyUid])
  ).rows;
  const placePayload = JSON.stringify({ place, who, ts: Date.now() - 3_600_000 });
  const base = Date.now() - CONFIG.events * 10 - 60_000;
  const batch = 100_000;
  for (let from = 1; from <= CONFIG.events; from += batch) {
    const to = Math.min(CONFIG.events, from + batch - 1);
    await pool.query(
      `INSERT INTO outbox_events (id, company_id, event_key, action, form_id, payload, created_at, seq, stamped_at, audience_staff, audience_members)
       SELECT 'msg_' || lpad(g::text, 26, '0'), $1, CASE WHEN g % 10 >= 8 THEN 'job_checked' ELSE 'place_checked' END,
              (ARRAY['placecheckin','placecheckin','placecheckin','placecheckin','placecheckout','placecheckout','placecheckout','placecheckout','jobcheckin','jobcheckout'])[g % 10 + 1],
              CASE WHEN g % 10 >= 8 THEN $6 ELSE $2 || '-' || $7 || '-' || g END,
              CASE WHEN g % 10 >= 8 THEN $5 ELSE $4 END,
              $8::bigint + g * 10, $9::bigint + g, $8::bigint + g * 10 + 3, true, ARRAY[$2]::varchar[]
         FROM generate_series($3::int, $10::int) g`,
      [company.companyUid, worker.uid, from, placePayload, jobPayload, jobId, placeId, base, last, to],
    );
    log(`polling: ${to.toLocaleString('en')} check-ins seeded`);
  }
  const newest = base + CONFIG.events * 10 + 3;
  await pool.query(`UPDATE outbox_sequences SET last_seq = $2, stamped_at = greatest(stamped_at, $3) WHERE company_id = $1`, [
    company.companyUid,
    last + CONFIG.events,
    newest,
  ]);
  await pool.query('VACUUM ANALYZE outbox_events');
  return { key: company.key, companyId: company.companyUid, workerKey: worker.key, newest };
}

interface Figures {
  ours: number[];
  baseline: number[];
  bytes: number;
}

/** Alternating timed calls of ours and the baseline for `query`; the answers must be equal. */
async function measure(ourUrl: string, baseUrl: string, key: string, query: string, expectItems: number): Promise<Figures> {
  const ours = async () => {
    const t = performance.now();
    const res = await get(`${ourUrl}?${query}`, { 'api-key': key });
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`GET /v1/checkins answered ${res.status}: ${res.text.slice(0, 300)}`);
    return { ms, text: res.text };
  };
  const base = async () => {
    const t = performance.now();
    const res = await get(`${baseUrl}?${query}`);
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`baseline answered ${res.status}: ${res.text.slice(0, 300)}`);
    return { ms, text: res.text };
  };
  const a = await ours();
  const b = await base();
  const items = (JSON.parse(a.text) as { data: { items: CheckinItem[] } }).data.items;
  if (items.length !== expectItems) throw new Error(`expected ${expectItems} items, got ${items.length}`);
  if (a.text !== b.text) throw new Error('ours and the baseline answer differently');
  for (let i = 0; i < CONFIG.warmups; i++) {
    await ours();
    await base();
  }
  const f: Figures = { ours: [], baseline: [], bytes: Buffer.byteLength(a.text) };
  for (let i = 0; i < CONFIG.iterations; i++) {
    f.ours.push((await ours()).ms);
    f.baseline.push((await base()).ms);
  }
  return f;
}

/**
 * What stamping costs (docs/connector.md, "Cost"), measured with no api running (nothing else
 * stamps): a company's 1,000-job createjobs leaves 1,000 jobs and 1,000 `jobcreated` events to stamp;
 * each round inserts them by SQL (no NOTIFY),
 * then times one stamping with the jobs' participant, then the same with events only (the stamping
 * before the jobs had stamps), then an empty stamping of each kind (what every NOTIFY and safety pass
 * costs a company with nothing new). Medians, ms.
 */
async function stampingCost(api: TestApi, log: (line: string) => void) {
  const company = await createCompany(api, { name: 'Bench stamping' });
  await api.close(); // from here nothing else stamps
  const ds = new DataSource(dataSourceOptions(loadConfig()));
  await ds.initialize();
  try {
    const outbox = new OutboxRepository(ds);
    const participants = [new JobStampsRepository(ds)];
    const write = async (withJobs: boolean) =>
      ds.transaction(async (m) => {
        const ids = Array.from({ length: 1000 }, () => newId());
        // the jobs as a createjobs call leaves them (the columns a realistic job fills; the rest default)
        if (withJobs)
          await m.query(
            `INSERT INTO jobs (id, company_id, destination_name, destination_text, destination_lat, destination_lng, day, window_start, window_end,
                               contact_name, contact_phone, contact_email, text_dispatcher, custom_fields, ts_created, ts_saved, created_at, created_by)
             SELECT u.id, $1, 'Novak household (' || u.n || ')', u.n || ' Main Street, Springfield 10001', 46.05, 14.5, 20261201, 900, 1100,
                    'Ana Novak', '+386 1 234 5678', 'ana.novak@example.test', 'Ring twice; parking behind the building.',
                    '[{"key": "orderRef", "val": "PO-2026-000123"}, {"key": "equipment", "val": "Boiler X200"}]'::jsonb, $3, $3, $3, $4
               FROM unnest($2::text[]) WITH ORDINALITY AS u(id, n)`,
            [company.companyUid, ids, Date.now(), company.ownerUid],
          );
        await m.query(
          `INSERT INTO outbox_events (id, company_id, event_key, action, form_id, payload, created_at)
           SELECT e, $1, 'job_created', 'jobcreated', f, $4, $5 FROM unnest($2::text[], $3::text[]) AS u(e, f)`,
          [company.companyUid, ids.map(() => newEventId()), ids, JSON.stringify([{ id: 'x', title: 'x'.repeat(1500) }]), Date.now()],
        );
      });
    const time = async (fn: () => Promise<unknown>) => {
      const t = performance.now();
      await fn();
      return performance.now() - t;
    };
    const f = { withJobs: [] as number[], eventsOnly: [] as number[], emptyWith: [] as number[], emptyWithout: [] as number[] };
    await outbox.stamp(company.companyUid, participants);
    for (let i = 0; i < 10; i++) {
      await write(true);
      f.withJobs.push(await time(() => outbox.stamp(company.companyUid, participants)));
      await write(false);
      f.eventsOnly.push(await time(() => outbox.stamp(company.companyUid)));
      f.emptyWith.push(await time(() => outbox.stamp(company.companyUid, participants)));
      f.emptyWithout.push(await time(() => outbox.stamp(company.companyUid)));
    }
    log('polling: stamping cost measured');
    return {
      withJobs: median(f.withJobs),
      eventsOnly: median(f.eventsOnly),
      emptyWith: median(f.emptyWith),
      emptyWithout: median(f.emptyWithout),
    };
  } finally {
    await ds.destroy();
  }
}

/** `BENCH_ONLY=polling`: seeds, measures, prints the table. @returns the exit code (1 on a missed target with BENCH_STRICT=1) */
export async function runPollingOnly(opts: PartContext): Promise<number> {
  const { api, pool, log } = opts;
  const s = await seed(api, pool, log);
  const baseline = await startBaseline(pool, s.companyId);
  try {
    const url = `${api.url}/v1/checkins`;
    // a poll whose cursor is 1,000 items back: the newest 100 answered
    const since = s.newest - 1000 * 10;
    log(`polling: measuring ${CONFIG.iterations} pairs (after ${CONFIG.warmups} warm-ups)`);
    const hundred = await measure(url, baseline.url, s.key, `createdSince=${since}`, 100);
    const few = await measure(url, baseline.url, s.key, `createdSince=${s.newest - 45}`, 5);
    const plan = (
      await pool.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${stampedEventsPageSql(CHECKIN_KINDS, false)}`
          .replace(/\$1/g, `'${s.companyId}'`)
          .replace(/\$2/g, String(since))
          .replace(/\$3/g, '100'),
      )
    ).rows
      .map((r) => r['QUERY PLAN'])
      .filter((l) => /Index|Execution|Merge|Limit/.test(l))
      .slice(0, 8)
      .map((l) => `    ${l.trim()}`);
    await baseline.close();
    const cost = await stampingCost(api, log);
    const row = (name: string, f: Figures, target: boolean) => {
      const o = percentile(f.ours, 95);
      const b = percentile(f.baseline, 95);
      const pass = o <= TARGET.ratio * b && o <= TARGET.p95Ms;
      return {
        pass: !target || pass,
        cells: [
          name,
          `p95 ${fmt(o, 2)} ms (p50 ${fmt(percentile(f.ours, 50), 2)})`,
          `p95 ${fmt(b, 2)} ms (p50 ${fmt(percentile(f.baseline, 50), 2)})`,
          `${fmt(o / b, 2)}×`,
          target ? `≤ ${TARGET.ratio}× and ≤ ${TARGET.p95Ms} ms` : '(informational)',
          target ? (pass ? 'pass' : 'FAIL') : '–',
        ],
      };
    };
    const rows = [
      row(`GET /v1/checkins?createdSince, 100 items of ${CONFIG.events.toLocaleString('en')}`, hundred, true),
      row(`GET /v1/checkins?createdSince, 5 new items`, few, false),
      {
        pass: true,
        cells: [
          'a stamping after a 1,000-job write: 1,000 events + 1,000 jobs (vs events only), median',
          `${fmt(cost.withJobs, 2)} ms`,
          `${fmt(cost.eventsOnly, 2)} ms`,
          `${fmt(cost.withJobs / cost.eventsOnly, 2)}×`,
          '(informational)',
          '–',
        ],
      },
      {
        pass: true,
        cells: [
          'an empty stamping (a NOTIFY or safety pass with nothing new), with the jobs (vs without), median',
          `${fmt(cost.emptyWith, 2)} ms`,
          `${fmt(cost.emptyWithout, 2)} ms`,
          `${fmt(cost.emptyWith / cost.emptyWithout, 2)}×`,
          '(informational)',
          '–',
        ],
      },
    ];
    return printPart(
      'polling',
      {
        rows: rows.map((r) => r.cells),
        notes: [
          `${CONFIG.events.toLocaleString('en')} stamped check-in events of one company (40 % place check-ins, 40 % check-outs, 10 % job check-ins, 10 % check-outs, ` +
            `the real payloads: a place view, a full job view), ${CONFIG.iterations} timed pairs after ${CONFIG.warmups} warm-ups, one call of each in turn over keep-alive node:http; ` +
            `answers ${(hundred.bytes / 1e3).toFixed(1)} kB / ${(few.bytes / 1e3).toFixed(1)} kB, byte for byte the same from both.`,
          `ours = the api in-process (auth, validation, the stamping check, the query, the mapping, JSON); ` +
            `baseline = a bare node:http server running the same statement (stampedEventsPageSql) through pg and the same checkinItemForEvent mapping.`,
          `stamping: measured after the api is closed (nothing else stamps), 10 rounds on one company; "events only" is the stamping as it was before jobs had stamps (plus stamped_at).`,
          `plan of the statement (EXPLAIN ANALYZE, excerpt):`,
          ...plan,
        ],
        failed: rows.filter((r) => !r.pass).length,
      },
      { serverVersion: opts.serverVersion, loadAtStart: opts.loadAtStart },
    );
  } finally {
    await baseline.close();
  }
}
