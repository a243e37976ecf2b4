import { AppConfig, QueueName, TaskProducer } from '@app/core';
import { PushLocationsService } from '@app/locations';
import { Queue, QueueEvents } from 'bullmq';
import { DataSource } from 'typeorm';
import { action, createCompany, createMember, TestApi, TestCompany } from '../support/api';
import { waitFor } from '../support/proc-child';
import { WebhookReceiver } from '../support/webhook-receiver';
import { useWorkerStack } from '../support/worker-stack';

/**
 * `pushlocations` against the real api, PostgreSQL (the partitioned history) and the BUILT worker
 * delivering clock events to a real receiver. Needs `npm run build` (scripts/test.sh).
 */
const PREFIX = `fieldwork-ingest-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;
process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
// the api's Locations task window: wide enough that the window test's six calls fit in one under load
process.env.LOCATIONS_TASK_WINDOW_MS = '1000';

const MIN = 60_000;
const DAY = 86_400_000;

describe('pushlocations', () => {
  const stack = useWorkerStack(PREFIX, { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '1,1,1', WEBHOOK_RECONCILE_MS: '500' });
  let api: TestApi;
  let db: DataSource;
  let receiver: WebhookReceiver;
  beforeAll(() => ({ api, db, receiver } = stack));

  const push = (key: string, data: Record<string, unknown>) => action<any>(api, 'pushlocations', data, { key });
  const history = async (c: TestCompany, memberId: string) =>
    (
      await db.query(
        `SELECT ts::float8 AS ts, lat, lng, acc, dir, spd, elv, bat FROM location_fixes WHERE company_id = $1 AND member_id = $2 ORDER BY ts`,
        [c.companyUid, memberId],
      )
    ).map((r: any) => ({ ...r }));
  const latest = async (c: TestCompany, memberId: string) =>
    (
      await db.query(
        `SELECT ts::float8 AS ts, lat, lng, acc, anchor_ts::float8 AS anchor_ts, tracking_status, tracking_ts::float8 AS tracking_ts,
                connection_type, android_id, loc_gps_on, loc_net_on, ping_requested_at::float8 AS ping_requested_at, signal_ts::float8 AS signal_ts, source
           FROM member_locations WHERE company_id = $1 AND member_id = $2`,
        [c.companyUid, memberId],
      )
    )[0];

  describe('fixes', () => {
    let c: TestCompany;
    let w: { uid: string; key: string };
    beforeAll(async () => {
      c = await createCompany(api);
      w = await createMember(api, c);
    });

    it('stores fixes sent out of order, rounds integers, answers counts; the latest is the newest', async () => {
      const t = Date.now() - 30 * MIN;
      const res = await push(w.key, {
        locations: [
          { ts: t + 2 * MIN, lat: 46.05, lng: 14.5, acc: 4.6, dir: 90.4, spd: 1.5, elv: 295.5, bat: 80.2 },
          { ts: t, lat: 46.04, lng: 14.49 },
          { ts: t + 5 * MIN, lat: 46.06, lng: 14.51, acc: 3 },
        ],
      });
      expect(res.http).toBe(200);
      expect(res.body).toEqual({ status: 0, accepted: 3, duplicates: 0, rejected: [], ping: false });
      const rows = await history(c, w.uid);
      expect(rows.map((r: any) => r.ts)).toEqual([t, t + 2 * MIN, t + 5 * MIN]);
      expect(rows[1]).toEqual({ ts: t + 2 * MIN, lat: 46.05, lng: 14.5, acc: 5, dir: 90, spd: 1.5, elv: 296, bat: 80 });
      expect(rows[0]).toMatchObject({ acc: null, dir: null, spd: null, elv: null, bat: null });
      const l = await latest(c, w.uid);
      expect(l).toMatchObject({ ts: t + 5 * MIN, lat: 46.06, lng: 14.51, acc: 3, anchor_ts: t + 2 * MIN, source: 'app' });
    });

    it('sends the accepted range in a Locations batch task, which the worker runs (and nothing when nothing is accepted)', async () => {
      const events = new QueueEvents(QueueName.Locations, {
        connection: { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
        prefix: PREFIX,
      });
      await events.waitUntilReady();
      const done: Array<{ jobId: string; returnvalue: unknown }> = [];
      events.on('completed', (e) => done.push(e));
      type Ran = { consumers: number; members: Array<{ memberId: string; fromTs: number; toTs: number }> };
      try {
        const t = Date.now() - 40 * MIN;
        const m = await createMember(api, c);
        const mine = () =>
          done.flatMap((e) => ((e.returnvalue as Ran | null)?.members ?? []).filter((x) => x.memberId === m.uid).map(() => e));
        await push(m.key, {
          locations: [
            { ts: t + 1000, lat: 1, lng: 1 },
            { ts: t, lat: 1, lng: 1 },
          ],
        });
        await waitFor('the batch task completed', () => mine().length > 0 || undefined, { timeoutMs: 15_000 });
        // the processor answers the task's members with their ranges (and how many consumers ran)
        expect(mine()).toHaveLength(1);
        const ran = mine()[0].returnvalue as Ran;
        expect(ran.consumers).toBeGreaterThan(0);
        expect(ran.members).toContainEqual({ memberId: m.uid, fromTs: t, toTs: t + 1000 });
        // a call of duplicates only enqueues nothing
        done.length = 0;
        await push(m.key, { locations: [{ ts: t, lat: 1, lng: 1 }] });
        await new Promise((r) => setTimeout(r, 1500));
        expect(mine()).toEqual([]);
      } finally {
        await events.close();
      }
    });

    it('gathers the calls of one window into one batch task, each member once with its calls’ range, and that task evaluates them all', async () => {
      const queue = new Queue(QueueName.Locations, {
        connection: { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
        prefix: PREFIX,
      });
      const m = await createMember(api, c);
      const other = await createMember(api, c);
      const t = Date.now() - 30 * MIN;
      const window = api.app.get(AppConfig).LOCATIONS_TASK_WINDOW_MS;
      await queue.pause();
      try {
        // five calls of one member and one of another, within one window (the api's window starts
        // with the first call; each call here takes a few ms)
        const sent = Date.now();
        await Promise.all([
          ...[0, 1, 2, 3, 4].map((i) => push(m.key, { locations: [{ ts: t + i * 1000, lat: 1, lng: 1 }] })),
          push(other.key, { locations: [{ ts: t, lat: 1, lng: 1 }] }),
        ]);
        expect(Date.now() - sent).toBeLessThan(window); // else the calls could span two windows
        const holding = async (memberId: string) =>
          (await queue.getJobs(['wait', 'prioritized', 'delayed'])).filter(
            (j) => j.name === 'batch' && (j.data.members as Array<{ memberId: string }>).some((x) => x.memberId === memberId),
          );
        await waitFor('the batch task queued', async () => ((await holding(other.uid)).length ? true : undefined), { timeoutMs: 5_000 });
        const tasks = await holding(m.uid);
        expect(tasks).toHaveLength(1);
        expect(tasks[0].data.members.filter((x: { memberId: string }) => x.memberId === m.uid)).toEqual([
          { companyId: c.companyUid, memberId: m.uid, fromTs: t, toTs: t + 4000 }, // the calls' ranges merged
        ]);
        expect(tasks[0].id).toBe((await holding(other.uid))[0].id); // the other member rides in the same task
      } finally {
        await queue.resume();
        await queue.close();
      }
      // the one task evaluated every call's fixes (geofencing's state reaches the last one)
      await waitFor(
        'the member evaluated to its newest fix',
        async () => {
          const [row] = await db.query(`SELECT evaluated_ts::float8 AS ts FROM geofence_states WHERE company_id = $1 AND member_id = $2`, [
            c.companyUid,
            m.uid,
          ]);
          return row?.ts === t + 4000 || undefined;
        },
        { timeoutMs: 15_000 },
      );
    });

    it('keeps the anchor of states.moving: the newest previous latest fix ≥ 2 min older, across calls', async () => {
      const m = await createMember(api, c);
      const t = Date.now() - 30 * MIN;
      const anchorAfter = async (locations: Array<{ ts: number; lat: number; lng: number }>) => {
        await push(m.key, { locations });
        return (await latest(c, m.uid)).anchor_ts as number | null;
      };
      expect(await anchorAfter([{ ts: t, lat: 1, lng: 1 }])).toBeNull();
      expect(await anchorAfter([{ ts: t + MIN, lat: 1, lng: 1 }])).toBeNull(); // t is only 1 min older
      expect(await anchorAfter([{ ts: t + 3 * MIN, lat: 1, lng: 1 }])).toBe(t + MIN);
      expect(await anchorAfter([{ ts: t + 2 * MIN, lat: 1, lng: 1 }])).toBe(t + MIN); // late: nothing moves
      expect(await anchorAfter([{ ts: t + 4 * MIN, lat: 1, lng: 1 }])).toBe(t + MIN);
      expect(
        await anchorAfter([
          { ts: t + 5.5 * MIN, lat: 2, lng: 2 },
          { ts: t + 7 * MIN, lat: 3, lng: 3 },
        ]),
      ).toBe(t + 4 * MIN);
    });

    it('counts duplicates across and within calls, and stores the first of a repeated ts', async () => {
      const t = Date.now() - 20 * MIN;
      expect((await push(w.key, { locations: [{ ts: t, lat: 1, lng: 1 }] })).body).toMatchObject({ accepted: 1, duplicates: 0 });
      const res = await push(w.key, {
        locations: [
          { ts: t, lat: 2, lng: 2 },
          { ts: t + 1, lat: 3, lng: 3 },
          { ts: t + 1, lat: 4, lng: 4 },
        ],
      });
      expect(res.body).toMatchObject({ status: 0, accepted: 1, duplicates: 2 });
      const rows = (await history(c, w.uid)).filter((r: any) => r.ts === t || r.ts === t + 1);
      expect(rows.map((r: any) => r.lat)).toEqual([1, 3]);
    });

    it('a late fix enters history but never moves the latest backwards', async () => {
      const before = await latest(c, w.uid);
      const late = before.ts - 60 * MIN;
      const res = await push(w.key, { locations: [{ ts: late, lat: 10, lng: 10 }] });
      expect(res.body).toMatchObject({ accepted: 1, duplicates: 0 });
      expect((await history(c, w.uid)).some((r: any) => r.ts === late)).toBe(true);
      expect(await latest(c, w.uid)).toMatchObject({ ts: before.ts, lat: before.lat });
    });

    it('skips invalid and future fixes with their reasons, storing the good ones', async () => {
      const now = Date.now();
      const res = await push(w.key, {
        locations: [
          { ts: now - 1000, lat: 91, lng: 1 },
          { ts: now + 10 * MIN, lat: 1, lng: 1 },
          { ts: now - 2000, lat: 45, lng: 15, bat: 100 },
          { ts: now - 3000, lat: 45, lng: 15, dir: 400 },
          { ts: now - 400 * DAY, lat: 45, lng: 15 },
          'x',
        ],
      });
      expect(res.body).toEqual({
        status: 0,
        accepted: 1,
        duplicates: 0,
        ping: false,
        rejected: [
          { index: 0, error: 'lat: must be between -90 and 90' },
          { index: 1, error: 'ts: must not be more than 5 minutes ahead of the server clock' },
          { index: 3, error: 'dir: must be between 0 and 360 (degrees)' },
          { index: 4, error: 'ts: is older than the location history retention (it would be pruned at once)' },
          { index: 5, error: 'fix: must be an object {ts, lat, lng, acc, dir, spd, elv, bat}' },
        ],
      });
      expect((await history(c, w.uid)).filter((r: any) => r.ts >= now - 3000 || r.ts > now)).toHaveLength(1);
    });

    it('refuses a wrong envelope for the whole call (-1), writing nothing', async () => {
      const n = (await history(c, w.uid)).length;
      const fix = { ts: Date.now() - 5000, lat: 1, lng: 1 };
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [
          { locations: Array.from({ length: 1001 }, (_, i) => ({ ...fix, ts: fix.ts - i })) },
          /data\.locations: at most 1000 fixes per call/,
        ],
        [{ locations: { 0: fix } }, /data\.locations: /],
        [{}, /data\.locations: /],
        [{ locations: [fix], tracking: 'on' }, /data\.tracking: /],
        [{ locations: [fix], tracking: true, tracking_ts: 1.5 }, /data\.tracking_ts: must be an integer/],
        [
          { locations: [fix], tracking: true, tracking_ts: Date.now() + 10 * MIN },
          /data\.tracking_ts: must not be more than 5 minutes ahead/,
        ],
        [{ locations: [fix], device: { loc_gps_on: 'yes' } }, /data\.device\.loc_gps_on: /],
        [{ locations: [fix], device: 'android' }, /data\.device: /],
        [{ locations: [fix], extra: 1 }, /data\.extra/],
      ];
      for (const [data, error] of cases) {
        const res = await push(w.key, data);
        expect({ data: Object.keys(data), http: res.http, status: res.body.status }).toEqual({
          data: Object.keys(data),
          http: 400,
          status: -1,
        });
        expect(res.body.error).toMatch(error);
      }
      expect(await history(c, w.uid)).toHaveLength(n);
    });

    it('stores device details; only the ones sent change', async () => {
      await push(w.key, { locations: [], device: { connection_type: 1, android_id: 'abc123', loc_gps_on: true, loc_net_on: false } });
      await push(w.key, { locations: [], device: { loc_net_on: true } });
      expect(await latest(c, w.uid)).toMatchObject({ connection_type: 1, android_id: 'abc123', loc_gps_on: true, loc_net_on: true });
    });

    it('never writes for another company: the key acts for its own member only', async () => {
      const other = await createCompany(api);
      const t = Date.now() - 1000;
      await push(other.key, { locations: [{ ts: t, lat: 5, lng: 5 }] });
      const rows = await db.query(`SELECT company_id, member_id FROM location_fixes WHERE ts = $1 AND lat = 5`, [t]);
      expect(rows).toEqual([{ company_id: other.companyUid, member_id: other.ownerUid }]);
    });
  });

  describe('tracking and clock events', () => {
    let c: TestCompany;
    let w: { uid: string; key: string; username: string };
    beforeAll(async () => {
      c = await createCompany(api);
      w = await createMember(api, c, { name: 'Clock Worker' });
      const res = await action<any>(api, 'setwebhooks', { clock_in_out: { url: `${receiver.url}/clock-${c.companyUid}` } }, { key: c.key });
      expect(res.body.status).toBe(0);
    });
    const clockRows = async () =>
      db.query(`SELECT ts::float8 AS ts, tracking, lat, lng FROM clock_events WHERE company_id = $1 AND member_id = $2 ORDER BY ts`, [
        c.companyUid,
        w.uid,
      ]);
    const delivered = () => receiver.received.filter((r) => r.path === `/clock-${c.companyUid}`);

    it('fires clockin once per change, with the newest fix of the call, from a tracking-only call too', async () => {
      const t0 = Date.now() - 10 * MIN;
      // tracking-only call: no fixes, no location known → no `location`
      let res = await push(w.key, { locations: [], tracking: true, tracking_ts: t0 });
      expect(res.body).toEqual({ status: 0, accepted: 0, duplicates: 0, rejected: [], ping: false });
      // repeated state: nothing
      await push(w.key, { locations: [], tracking: true, tracking_ts: t0 + 1000 });
      // clock out with fixes: the newest fix of the call is the location
      res = await push(w.key, {
        locations: [
          { ts: t0 + 2 * MIN, lat: 46.1, lng: 14.1 },
          { ts: t0 + 3 * MIN, lat: 46.2, lng: 14.2 },
        ],
        tracking: false,
        tracking_ts: t0 + 3 * MIN,
      });
      expect(res.body.accepted).toBe(2);
      // an older tracking_ts than the stored one fires nothing, even with a different state
      await push(w.key, { locations: [], tracking: true, tracking_ts: t0 + MIN });
      // receive time as ts when absent; location = the latest known (within 10 min)
      const before = Date.now();
      await push(w.key, { locations: [], tracking: true });

      const rows = await clockRows();
      expect(rows).toHaveLength(3);
      expect(rows[0]).toEqual({ ts: t0, tracking: true, lat: null, lng: null });
      expect(rows[1]).toEqual({ ts: t0 + 3 * MIN, tracking: false, lat: 46.2, lng: 14.2 });
      expect(rows[2].tracking).toBe(true);
      expect(rows[2].ts).toBeGreaterThanOrEqual(before);
      expect(rows[2]).toMatchObject({ lat: 46.2, lng: 14.2 });
      const l = await latest(c, w.uid);
      expect(l).toMatchObject({ tracking_status: true, tracking_ts: rows[2].ts });

      await waitFor('three clock deliveries', () => delivered().length >= 3 || undefined, { timeoutMs: 20_000 });
      const forms = delivered()
        .map((r) => r.form)
        .sort((a, b) => JSON.parse(a.data).ts - JSON.parse(b.data).ts);
      expect(forms.map((f) => [f.action, f.reason, f.id])).toEqual([
        ['clockin', 'clockin', `${w.uid}-${t0}-clockin`],
        ['clockout', 'clockout', `${w.uid}-${t0 + 3 * MIN}-clockout`],
        ['clockin', 'clockin', `${w.uid}-${rows[2].ts}-clockin`],
      ]);
      const who = { uid: w.uid, name: 'Clock Worker', username: w.username };
      expect(JSON.parse(forms[0].data)).toEqual({ who, tracking: true, ts: t0 });
      expect(JSON.parse(forms[1].data)).toEqual({ who, tracking: false, ts: t0 + 3 * MIN, location: { lat: 46.2, lng: 14.2 } });
      expect(forms[0].account).toBe(c.username);
      await new Promise((r) => setTimeout(r, 1000));
      expect(delivered()).toHaveLength(3);
    }, 40_000);
  });

  describe('ping', () => {
    it('delivers a pending ping once and records signal_ts', async () => {
      const c = await createCompany(api);
      const w = await createMember(api, c);
      expect((await push(w.key, { locations: [] })).body.ping).toBe(false);
      await db.query(`UPDATE member_locations SET ping_requested_at = $3 WHERE company_id = $1 AND member_id = $2`, [
        c.companyUid,
        w.uid,
        Date.now(),
      ]);
      const before = Date.now();
      expect((await push(w.key, { locations: [{ ts: Date.now() - 1000, lat: 1, lng: 2 }] })).body).toMatchObject({
        ping: true,
        accepted: 1,
      });
      const l = await latest(c, w.uid);
      expect(l.ping_requested_at).toBeNull();
      expect(l.signal_ts).toBeGreaterThanOrEqual(before);
      expect((await push(w.key, { locations: [] })).body.ping).toBe(false);
    });
  });

  describe("retention (the worker's partitions task)", () => {
    it('drops fix partitions whose whole month is past LOCATION_RETENTION_DAYS, keeps the others, makes the coming months, prunes old history', async () => {
      const c = await createCompany(api);
      const w = await createMember(api, c);
      const old = Date.UTC(2010, 0, 15);
      await db.query(`SELECT location_fixes_ensure_partition($1)`, [old]);
      await db.query(`INSERT INTO location_fixes (company_id, member_id, ts, lat, lng, received_at) VALUES ($1, $2, $3, 1, 1, $3)`, [
        c.companyUid,
        w.uid,
        old,
      ]);
      const veryOld = Date.now() - 3651 * DAY;
      await db.query(
        `INSERT INTO clock_events (company_id, member_id, ts, tracking, received_at) VALUES ($1, $2, $3, true, $3), ($1, $2, $4, false, $4)`,
        [c.companyUid, w.uid, veryOld, Date.now() - 3000 * DAY],
      );
      await db.query(`INSERT INTO checkins (company_id, id, member_id, in_ts, out_ts, duration) VALUES ($1, $2, $3, $4, $4, 0)`, [
        c.companyUid,
        `CHK${Date.now()}`.slice(0, 26),
        w.uid,
        veryOld,
      ]);
      const d = new Date();
      const ahead = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 2, 1));
      const aheadName = `location_fixes_p${ahead.getUTCFullYear()}${String(ahead.getUTCMonth() + 1).padStart(2, '0')}`;
      await db.query(`DROP TABLE IF EXISTS ${aheadName}`);
      const partitions = async () =>
        (
          await db.query(
            `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'location_fixes'::regclass`,
          )
        ).map((r: any) => r.relname as string);
      expect(await partitions()).toContain('location_fixes_p201001');

      await api.app.get(TaskProducer).add(QueueName.Locations, 'partitions', {});
      await waitFor('the old partition dropped', async () => !(await partitions()).includes('location_fixes_p201001') || undefined, {
        timeoutMs: 20_000,
      });
      const now = await partitions();
      expect(now).toContain(aheadName);
      const thisMonth = `location_fixes_p${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
      expect(now).toContain(thisMonth);
      const clock = await db.query(`SELECT ts::float8 AS ts FROM clock_events WHERE company_id = $1`, [c.companyUid]);
      expect(clock.map((r: any) => r.ts)).toEqual([expect.any(Number)]);
      expect(clock[0].ts).toBeGreaterThan(veryOld);
      expect(await db.query(`SELECT 1 FROM checkins WHERE company_id = $1`, [c.companyUid])).toEqual([]);
    }, 30_000);
  });

  describe('partitions', () => {
    it('stores a fix in a month whose partition is missing (never made, or dropped behind the api)', async () => {
      const c = await createCompany(api);
      const w = await createMember(api, c);
      // ~100 days ago: within the retention, older than the months the migration creates
      const ts = Date.now() - 100 * DAY;
      const d = new Date(ts);
      const name = `location_fixes_p${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
      await db.query(`DROP TABLE IF EXISTS ${name}`);
      expect((await push(w.key, { locations: [{ ts, lat: 1, lng: 1 }] })).body).toMatchObject({ accepted: 1 });
      // dropped again behind the api's back (its cache says the month exists): retried once after making it
      await db.query(`DROP TABLE ${name}`);
      expect((await push(w.key, { locations: [{ ts: ts + 1, lat: 1, lng: 1 }] })).body).toMatchObject({ accepted: 1, rejected: [] });
      expect((await history(c, w.uid)).map((r: any) => r.ts)).toEqual([ts + 1]);
    });
  });
  describe('group commit', () => {
    it('calls arriving while every statement is busy ride in one statement; answers and rows as when sent alone', async () => {
      const ingest = api.app.get(PushLocationsService);
      const passes = api.app.get(AppConfig).PUSH_GROUP_COMMIT_PASSES;
      const c = await createCompany(api);
      const t = Date.now() - 20 * MIN;
      const lockWaiters = async () =>
        (
          await db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)
        )[0].n;
      // one blocker per statement slot, its member_locations row made by a first fix
      const blockers: Array<{ uid: string; key: string }> = [];
      for (let k = 0; k < passes; k++) {
        const b = await createMember(api, c);
        expect((await push(b.key, { locations: [{ ts: t, lat: 45, lng: 14 }] })).body.status).toBe(0);
        blockers.push(b);
      }
      const ws: Array<{ uid: string; key: string }> = [];
      for (let k = 0; k < 6; k++) ws.push(await createMember(api, c));
      // the scenario: six members' first calls, then member 0's second (newer) one
      const calls = [
        ...ws.map((w, k) => ({ w, body: { locations: [{ ts: t + k, lat: 46 + k / 100, lng: 14.5 }], device: { android_id: `gc-${k}` } } })),
        {
          w: ws[0],
          body: {
            locations: [
              { ts: t + 60_000, lat: 46.5, lng: 14.6 },
              { ts: t, lat: 46, lng: 14.5 },
            ],
          },
        },
      ];

      const lock = db.createQueryRunner();
      await lock.connect();
      await lock.startTransaction();
      const before = ingest.groupCommitStats;
      let blocked: Array<Promise<{ body: any }>> = [];
      const pending: Array<Promise<{ body: any }>> = [];
      try {
        await lock.query(`SELECT 1 FROM member_locations WHERE company_id = $1 AND member_id = ANY($2) FOR UPDATE`, [
          c.companyUid,
          blockers.map((b) => b.uid),
        ]);
        blocked = blockers.map((b) => push(b.key, { locations: [{ ts: t + 1, lat: 45, lng: 14 }] }));
        await waitFor('the blockers to wait for the lock', async () => (await lockWaiters()) === passes);
        for (const [k, call] of calls.entries()) {
          pending.push(push(call.w.key, call.body));
          await waitFor(`call ${k} at the group commit`, () => ingest.groupCommitStats.waiting === k + 1);
        }
      } finally {
        await lock.commitTransaction();
        await lock.release();
      }
      expect((await Promise.all(blocked)).map((r) => r.body.accepted)).toEqual(blockers.map(() => 1));
      const answers = (await Promise.all(pending)).map((r) => r.body);
      const after = ingest.groupCommitStats;
      // the blockers' statements, one for the six members, then member 0's second call (its key was busy)
      expect({ statements: after.statements - before.statements, items: after.items - before.items }).toEqual({
        statements: passes + 2,
        items: passes + 7,
      });
      expect(after.maxItems).toBeGreaterThanOrEqual(6);
      expect(answers).toEqual([
        ...ws.map(() => ({ status: 0, accepted: 1, duplicates: 0, rejected: [], ping: false })),
        { status: 0, accepted: 1, duplicates: 1, rejected: [], ping: false },
      ]);
      for (const [k, w] of ws.entries()) {
        const own = await history(c, w.uid);
        expect(own.map((r: any) => r.ts)).toEqual(k === 0 ? [t, t + 60_000] : [t + k]);
        const row = await latest(c, w.uid);
        expect(row).toMatchObject(k === 0 ? { ts: t + 60_000, lat: 46.5 } : { ts: t + k, lat: 46 + k / 100, android_id: `gc-${k}` });
      }
    }, 30_000);
  });
});
