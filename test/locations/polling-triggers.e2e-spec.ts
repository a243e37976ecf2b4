import { newId, OutboxService } from '@app/core';
import { Place, PlacesService } from '@app/places';
import { Geodesic } from 'geographiclib-geodesic';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { action, connector, createCompany, createMember, TestApi, TestCompany } from '../support/api';
import { waitFor } from '../support/proc-child';
import { useWorkerStack } from '../support/worker-stack';

/**
 * The connector's polling triggers over real HTTP (CONTRACTS.md "Wave 3: connector for automation
 * platforms"; docs/connector.md, "Polling triggers"): `GET /v1/checkins`, `/v1/clock-events`,
 * `/v1/alert-firings` with items from the real writers — geofencing and alert evaluation in the
 * BUILT worker, job checks through editjobs, clock events through pushlocations — tenancy, roles,
 * bad input; and the commit-ordered stamps: polling with concurrent writers (one committing late)
 * never misses an item, and a long read-only transaction holds back neither these routes nor
 * `/v1/jobs`. Needs `npm run build` (scripts/test.sh).
 */
const PREFIX = `fieldwork-poll-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;

interface PushFix {
  ts: number;
  lat: number;
  lng: number;
  acc?: number;
}
interface Member {
  uid: string;
  username: string;
  key: string;
  name: string;
}
type Item = { id: string; kind?: string; createdAt: number; ts: number; member: { id: string } | null } & Record<string, any>;

const CENTER = { lat: 46.0511, lng: 14.5051 };
/** Where clock events happen: far from every place (no check-in). */
const FAR = { lat: 46.0811, lng: 14.5551 };

/** Fixes every 5 s for [fromS, toS] seconds after `t0`, `m` metres east of `center`. */
function stay(center: { lat: number; lng: number }, t0: number, fromS: number, toS: number, m: number): PushFix[] {
  const out: PushFix[] = [];
  for (let s = fromS; s <= toS; s += 5) {
    const p = Geodesic.WGS84.Direct(center.lat, center.lng, 90, m);
    out.push({ ts: t0 + s * 1000, lat: p.lat2!, lng: p.lon2!, acc: 5 });
  }
  return out;
}

describe('connector polling triggers', () => {
  const stack = useWorkerStack(PREFIX, { WEBHOOK_RECONCILE_MS: '500', QUEUE_LOCK_MS: '5000', ALERTS_TICK_MS: String(24 * 3_600_000) });
  let api: TestApi;
  let db: DataSource;
  beforeAll(() => ({ api, db } = stack));

  let seq = 0;
  async function member(c: TestCompany, role = 'worker'): Promise<Member> {
    const name = `Luka Novak ${++seq}`;
    return { ...(await createMember(api, c, { role, name })), name };
  }

  async function addPlace(c: TestCompany, name = 'North depot'): Promise<Place> {
    const place = db.getRepository(Place).create({
      id: newId(),
      companyId: c.companyUid,
      name,
      location: { type: 'Point', coordinates: [CENTER.lng, CENTER.lat] },
      radius: 100,
      address: 'Tržaška 12',
      city: 'Ljubljana',
      data: [],
      teams: [],
      creatorId: c.ownerUid,
      createdAt: Date.now(),
      deletedAt: null,
    });
    await db.getRepository(Place).insert(place);
    return place;
  }

  /** Pushes fixes (with `tracking` when given) and waits until geofencing evaluated them (check rules fire in its pass). */
  async function push(w: Member, c: TestCompany, fixes: PushFix[], tracking?: boolean): Promise<void> {
    for (let i = 0; i < fixes.length; i += 50) {
      const body: Record<string, unknown> = { locations: fixes.slice(i, i + 50) };
      if (tracking !== undefined) body.tracking = tracking;
      const res = await action(api, 'pushlocations', body, { key: w.key });
      expect(res.body).toMatchObject({ status: 0, rejected: [] });
    }
    const last = Math.max(...fixes.map((f) => f.ts));
    for (const table of ['geofence_states'])
      await waitFor(
        `${table} evaluation`,
        async () => {
          const [row] = await db.query(`SELECT evaluated_ts::float8 AS ts FROM ${table} WHERE company_id = $1 AND member_id = $2`, [
            c.companyUid,
            w.uid,
          ]);
          return row && row.ts >= last;
        },
        { timeoutMs: 20_000, intervalMs: 100 },
      );
  }

  /** A clock event through pushlocations: tracking switched `on` at `ts` (ms). */
  async function clock(w: Member, on: boolean, ts: number): Promise<void> {
    const res = await action(api, 'pushlocations', { locations: [{ ts, ...FAR, acc: 5 }], tracking: on, tracking_ts: ts }, { key: w.key });
    expect(res.body).toMatchObject({ status: 0 });
  }

  const get = async (path: string, key: string) => {
    const res = await connector<{ data: { items: Item[] } }>(api, 'GET', path, key);
    expect({ path, http: res.http }).toEqual({ path, http: 200 });
    return res.body.data.items;
  };

  describe('items from the real writers', () => {
    let c: TestCompany;
    let w: Member;
    let w2: Member;
    let operator: Member;
    let place: Place;
    let jobId: string;
    let rule: string;
    let other: TestCompany;
    const t0 = Date.now() - 30 * 60_000;

    beforeAll(async () => {
      c = await createCompany(api, { timezone: 'Europe/Ljubljana' });
      w = await member(c);
      w2 = await member(c);
      operator = await member(c, 'operator');
      place = await addPlace(c);
      const created = await action<{ id: string }>(
        api,
        'createalert',
        { action: 'checks_in', title: 'At the depot', description: '', placeUid: place.id, members: [w.uid] },
        { key: c.key },
      );
      expect(created.body.status).toBe(0);
      rule = created.body.id;
      // a drive into the place and out again: placecheckin at 100 s, placecheckout at 400 s, and the rule fires
      await push(w, c, [...stay(CENTER, t0, 0, 60, 2000), ...stay(CENTER, t0, 100, 395, 20), ...stay(CENTER, t0, 400, 500, 2000)]);
      // a job of w checked in, then out (editjobs), and w2 clocks in, then out
      const [job] = (
        await action<{ jobs: Array<{ id: string }> }>(
          api,
          'createjobs',
          { jobs: [{ destinationName: 'Boiler', worker: w.username }] },
          { key: c.key },
        )
      ).body.jobs;
      jobId = job.id;
      await action(api, 'editjobs', { jobs: { [jobId]: { tsCheckIn: t0 + 600_000 } } }, { key: c.key });
      await action(api, 'editjobs', { jobs: { [jobId]: { tsCheckOut: t0 + 900_000 } } }, { key: c.key });
      await clock(w2, true, t0 + 1_000_000);
      await clock(w2, false, t0 + 1_100_000);
      // another company with items of its own
      other = await createCompany(api);
      const ow = await member(other);
      await clock(ow, true, t0 + 1_000_000);
      const [oj] = (
        await action<{ jobs: Array<{ id: string }> }>(
          api,
          'createjobs',
          { jobs: [{ destinationName: 'Theirs', worker: ow.username }] },
          { key: other.key },
        )
      ).body.jobs;
      await action(api, 'editjobs', { jobs: { [oj.id]: { tsCheckIn: Date.now() } } }, { key: other.key });
      await waitFor(
        'the alert firing',
        async () => (await db.query(`SELECT 1 FROM alert_firings WHERE company_id = $1`, [c.companyUid])).length > 0,
        {
          timeoutMs: 20_000,
          intervalMs: 100,
        },
      );
    }, 120_000);

    it('GET /v1/checkins: place and job checks, newest first by createdAt, each with its own id, the member and the place or job', async () => {
      const items = await get('/v1/checkins', c.key);
      expect(items.map((i) => i.kind)).toEqual(['jobcheckout', 'jobcheckin', 'placecheckout', 'placecheckin']);
      const created = items.map((i) => i.createdAt);
      expect(created).toEqual([...created].sort((a, b) => b - a));
      expect(new Set(items.map((i) => i.id)).size).toBe(4);
      for (const i of items) expect(i.id).toMatch(/^msg_/);
      const member = { id: w.uid, username: w.username, name: w.name };
      const [jobOut, jobIn, placeOut, placeIn] = items;
      expect(placeIn).toEqual({
        id: expect.any(String),
        kind: 'placecheckin',
        member,
        place: {
          id: place.id,
          name: 'North depot',
          address: 'Tržaška 12',
          city: 'Ljubljana',
          state: '',
          postalCode: '',
          countryCode: '',
          phone: '',
          email: '',
          location: CENTER,
          radius: 100,
          teams: [],
          createdAt: expect.any(Number),
          updatedAt: expect.any(Number),
        },
        ts: t0 + 100_000,
        createdAt: expect.any(Number),
      });
      expect(placeOut).toMatchObject({ kind: 'placecheckout', member, place: { id: place.id }, ts: t0 + 400_000 });
      // the place as /v1/places answers it (unchanged since)
      expect(placeIn.place).toEqual((await connector(api, 'GET', `/v1/places/${place.id}`, c.key)).body.data.items[0]);
      expect(jobIn).toMatchObject({
        kind: 'jobcheckin',
        member,
        ts: t0 + 600_000,
        job: { id: jobId, title: 'Boiler', progress: expect.any(String) },
      });
      expect(jobOut).toMatchObject({ kind: 'jobcheckout', member, ts: t0 + 900_000, job: { id: jobId } });
      // the job as /v1/jobs answered it then (its own fields), and never the job's id as the item's
      const now = (await connector(api, 'GET', `/v1/jobs/${jobId}`, c.key)).body.data.items[0];
      expect(jobOut.job).toEqual(now);
      expect(jobIn.id).not.toBe(jobId);
      // the item ids are the outbox events' (the webhook-id, the stream's id)
      const ids = (await db.query(`SELECT id FROM outbox_events WHERE company_id = $1 AND action LIKE '%check%'`, [c.companyUid])).map(
        (r: { id: string }) => r.id,
      );
      expect(ids.sort()).toEqual(items.map((i) => i.id).sort());
    });

    it('kind narrows (one or a list), createdSince is inclusive, limit pages the newest', async () => {
      const all = await get('/v1/checkins', c.key);
      expect((await get('/v1/checkins?kind=placecheckin', c.key)).map((i) => i.id)).toEqual([all[3].id]);
      expect((await get('/v1/checkins?kind=jobcheckin,placecheckout', c.key)).map((i) => i.id)).toEqual([all[1].id, all[2].id]);
      expect((await get(`/v1/checkins?createdSince=${all[1].createdAt}`, c.key)).map((i) => i.id)).toEqual(
        all.filter((i) => i.createdAt >= all[1].createdAt).map((i) => i.id),
      );
      expect(await get(`/v1/checkins?createdSince=${all[0].createdAt + 1}`, c.key)).toEqual([]);
      expect((await get('/v1/checkins?limit=2', c.key)).map((i) => i.id)).toEqual([all[0].id, all[1].id]);
      expect((await get('/v1/checkins?limit=500', c.key)).length).toBe(4); // clamped, not refused
      expect(await get('/v1/checkins?limit=0', c.key)).toEqual([]);
    });

    it('GET /v1/clock-events: clockin / clockout with the member, ts and location', async () => {
      const items = await get('/v1/clock-events', c.key);
      const member = { id: w2.uid, username: w2.username, name: w2.name };
      expect(items).toEqual([
        {
          id: expect.stringMatching(/^msg_/),
          kind: 'clockout',
          member,
          ts: t0 + 1_100_000,
          location: FAR,
          createdAt: expect.any(Number),
        },
        {
          id: expect.stringMatching(/^msg_/),
          kind: 'clockin',
          member,
          ts: t0 + 1_000_000,
          location: FAR,
          createdAt: expect.any(Number),
        },
      ]);
      expect(items[0].createdAt).toBeGreaterThanOrEqual(items[1].createdAt);
      // createdSince is inclusive: the clockout, and the clockin too when both were stamped in the same ms
      const since = items[0].createdAt;
      expect((await get(`/v1/clock-events?createdSince=${since}`, c.key)).map((i) => i.kind)).toEqual(
        items.filter((i) => i.createdAt >= since).map((i) => i.kind),
      );
      expect(await get(`/v1/clock-events?createdSince=${since + 1}`, c.key)).toEqual([]);
    });

    it('GET /v1/alert-firings: the firing with its rule, member, place, message and ts', async () => {
      const items = await get('/v1/alert-firings', c.key);
      const [firing] = await db.query(`SELECT ts::float8 AS ts, message FROM alert_firings WHERE company_id = $1`, [c.companyUid]);
      expect(items).toEqual([
        {
          id: expect.stringMatching(/^msg_/),
          action: 'checks_in',
          rule: { id: rule, title: 'At the depot' },
          member: { id: w.uid, username: w.username, name: w.name },
          place: expect.objectContaining({ id: place.id, name: 'North depot', location: CENTER }),
          message: firing.message,
          ts: firing.ts,
          createdAt: expect.any(Number),
        },
      ]);
      expect(await get(`/v1/alert-firings?createdSince=${items[0].createdAt + 1}`, c.key)).toEqual([]);
    });

    it('another company’s items never appear; each company sees its own', async () => {
      const mine = new Set([...(await get('/v1/checkins', c.key)), ...(await get('/v1/clock-events', c.key))].map((i) => i.id));
      const theirs = [...(await get('/v1/checkins', other.key)), ...(await get('/v1/clock-events', other.key))];
      expect(theirs.map((i) => i.kind).sort()).toEqual(['clockin', 'jobcheckin']);
      for (const i of theirs) expect(mine.has(i.id)).toBe(false);
      expect(await get('/v1/alert-firings', other.key)).toEqual([]);
    });

    it('roles: operators see every member’s items; a worker only those about itself', async () => {
      const admin = {
        checkins: (await get('/v1/checkins', c.key)).map((i) => i.id),
        clock: (await get('/v1/clock-events', c.key)).map((i) => i.id),
        firings: (await get('/v1/alert-firings', c.key)).map((i) => i.id),
      };
      expect((await get('/v1/checkins', operator.key)).map((i) => i.id)).toEqual(admin.checkins);
      expect((await get('/v1/clock-events', operator.key)).map((i) => i.id)).toEqual(admin.clock);
      expect((await get('/v1/alert-firings', operator.key)).map((i) => i.id)).toEqual(admin.firings);
      // w: its place and job checks and its firing, no clock events (w2's)
      expect((await get('/v1/checkins', w.key)).map((i) => i.id)).toEqual(admin.checkins);
      expect(await get('/v1/clock-events', w.key)).toEqual([]);
      expect((await get('/v1/alert-firings', w.key)).map((i) => i.id)).toEqual(admin.firings);
      // w2: its clock events only
      expect(await get('/v1/checkins', w2.key)).toEqual([]);
      expect((await get('/v1/clock-events', w2.key)).map((i) => i.id)).toEqual(admin.clock);
      expect(await get('/v1/alert-firings', w2.key)).toEqual([]);
    });

    it('bad input → 400 naming the parameter and the rule; no key → 401; in the connector shape', async () => {
      const cases: Array<[string, string]> = [
        [
          '/v1/checkins?kind=checkin',
          'query.kind: must be one or more of placecheckin, placecheckout, jobcheckin, jobcheckout, comma-separated',
        ],
        [
          '/v1/checkins?kind=placecheckin,',
          'query.kind: must be one or more of placecheckin, placecheckout, jobcheckin, jobcheckout, comma-separated',
        ],
        ['/v1/checkins?createdSince=abc', 'query.createdSince: must be an integer ≥ 0 (ms)'],
        ['/v1/checkins?createdSince=-5', 'query.createdSince: must be an integer ≥ 0 (ms)'],
        ['/v1/clock-events?createdSince=1795000000', 'query.createdSince: must be ms since the epoch; 1795000000 looks like seconds'],
        ['/v1/alert-firings?createdSince=1.5', 'query.createdSince: must be an integer ≥ 0 (ms)'],
        ['/v1/alert-firings?limit=-1', 'query.limit: must be an integer ≥ 0'],
      ];
      for (const [path, message] of cases) {
        const res = await connector(api, 'GET', path, c.key);
        expect({ path, http: res.http, body: res.body }).toEqual({ path, http: 400, body: { error: { message } } });
      }
      const unknown = await connector(api, 'GET', '/v1/clock-events?kind=clockin', c.key);
      expect(unknown.http).toBe(400);
      expect(unknown.body.error.message).toMatch(/^query\.kind: /);
      for (const path of ['/v1/checkins', '/v1/clock-events', '/v1/alert-firings']) {
        const res = await connector(api, 'GET', path);
        expect({ path, http: res.http, shape: Object.keys(res.body) }).toEqual({ path, http: 401, shape: ['error'] });
      }
    });
  });

  describe('commit-ordered stamps', () => {
    /** Polls `path` from `cursor` (the newest createdAt / updatedAt seen, as an automation tool does) and collects ids. */
    function poller(path: string, key: string, field: 'createdAt' | 'updatedAt' = 'createdAt', param = 'createdSince') {
      const seen = new Set<string>();
      let cursor = 0;
      let polls = 0;
      const poll = async () => {
        const items = await get(`${path}${path.includes('?') ? '&' : '?'}${param}=${cursor}`, key);
        polls++;
        // a full page could hide older items (the documented paging limit): the test keeps under it
        expect(items.length).toBeLessThan(100);
        for (const i of items) {
          seen.add(field === 'updatedAt' ? `${i.id}@${i.updatedAt}` : i.id);
          cursor = Math.max(cursor, i[field] as number);
        }
      };
      return { seen, poll, cursor: () => cursor, polls: () => polls };
    }

    it('polling while many writers commit — one of them late, after newer items were polled — never misses an item', async () => {
      const c = await createCompany(api);
      const workers = await Promise.all([member(c), member(c), member(c)]);
      const place = await addPlace(c, 'Depot');
      const [view] = await api.app.get(PlacesService).placeViews(c.companyUid, [place.id]);
      const jobs = (
        await action<{ jobs: Array<{ id: string }> }>(
          api,
          'createjobs',
          { jobs: Array.from({ length: 24 }, (_, i) => ({ destinationName: `J${i}`, worker: workers[i % 3].username })) },
          { key: c.key },
        )
      ).body.jobs.map((j) => j.id);
      const checkins = poller('/v1/checkins', c.key);
      const clocks = poller('/v1/clock-events', c.key);
      let writing = true;
      const polling = (async () => {
        while (writing) {
          await Promise.all([checkins.poll(), clocks.poll()]);
          await new Promise((r) => setTimeout(r, 5));
        }
      })();

      // the late writer: its transaction starts (and stamps its rows' created_at) now, commits after others
      const late = db.createQueryRunner();
      await late.connect();
      await late.startTransaction();
      const outbox = api.app.get(OutboxService);
      const lateIds = await outbox.appendMany(late.manager, [
        {
          companyId: c.companyUid,
          eventKey: 'place_checked',
          action: 'placecheckin',
          formId: `${workers[0].uid}-${place.id}-1`,
          data: { place: view, who: { uid: workers[0].uid, name: workers[0].name, username: workers[0].username }, ts: Date.now() },
          audience: { members: [workers[0].uid] },
        },
      ]);
      const base = Date.now() - 3_600_000;
      let cursorAtLateCommit = 0;
      await Promise.all([
        // job checks through editjobs, concurrently
        ...[0, 1, 2].map(async (k) => {
          for (let i = k; i < jobs.length; i += 3) {
            await action(api, 'editjobs', { jobs: { [jobs[i]]: { tsCheckIn: base + i * 1000 } } }, { key: c.key });
            if (i % 2) await action(api, 'editjobs', { jobs: { [jobs[i]]: { tsCheckOut: base + i * 1000 + 500 } } }, { key: c.key });
          }
        }),
        // clock events through pushlocations, concurrently
        ...workers.map(async (w, k) => {
          for (let i = 0; i < 8; i++) await clock(w, i % 2 === 0, base + k * 100_000 + i * 1000);
        }),
        // commits late: newer items have been polled by then
        (async () => {
          await waitFor('newer items polled', async () => checkins.seen.size >= 10, { timeoutMs: 20_000, intervalMs: 20 });
          cursorAtLateCommit = checkins.cursor();
          await late.commitTransaction();
          await late.release();
        })(),
      ]);
      const [lateRow] = await db.query(`SELECT created_at::float8 AS created FROM outbox_events WHERE id = $1`, [lateIds[0]]);
      writing = false;
      await polling;
      await Promise.all([checkins.poll(), clocks.poll()]);

      const stored = async (like: string) =>
        (await db.query(`SELECT id FROM outbox_events WHERE company_id = $1 AND action LIKE $2`, [c.companyUid, like])).map(
          (r: { id: string }) => r.id,
        );
      const allCheckins = await stored('%check%');
      const allClocks = await stored('clock%');
      expect(allCheckins).toHaveLength(24 + 12 + 1);
      expect(allClocks).toHaveLength(24);
      expect([...checkins.seen].sort()).toEqual(allCheckins.sort());
      expect([...clocks.seen].sort()).toEqual(allClocks.sort());
      expect(checkins.seen.has(lateIds[0])).toBe(true);
      // the point: by the writing transaction's clock the late item is older than what had been polled
      // before it committed (a poll by that clock, from that cursor, would have missed it)
      expect(lateRow.created).toBeLessThan(cursorAtLateCommit);
    }, 120_000);

    it('/v1/jobs updatedSince polling with concurrent writers, one committing late, never misses a change', async () => {
      const c = await createCompany(api);
      const ids = (
        await action<{ jobs: Array<{ id: string }> }>(
          api,
          'createjobs',
          { jobs: Array.from({ length: 12 }, (_, i) => ({ destinationName: `J${i}` })) },
          { key: c.key },
        )
      ).body.jobs.map((j) => j.id);
      const jobs = poller('/v1/jobs?limit=100', c.key, 'updatedAt', 'updatedSince');
      await jobs.poll();
      let writing = true;
      const polling = (async () => {
        while (writing) {
          await jobs.poll();
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      const late = db.createQueryRunner();
      await late.connect();
      await late.startTransaction();
      // a raw write: the trigger leaves the job to be stamped whatever statement wrote it
      await late.query(
        `UPDATE jobs SET priority = 9, ts_saved = (floor(extract(epoch from now()) * 1000))::bigint, version = version + 1 WHERE id = $1`,
        [ids[0]],
      );
      const [{ lateSaved }] = await late.query(`SELECT ts_saved::float8 AS "lateSaved" FROM jobs WHERE id = $1`, [ids[0]]);
      await Promise.all([
        ...[0, 1, 2].map(async (k) => {
          for (let i = 1 + k; i < ids.length; i += 3)
            for (const priority of [1, 2]) await action(api, 'editjobs', { jobs: { [ids[i]]: { priority } } }, { key: c.key });
        }),
        (async () => {
          await waitFor('newer changes polled', async () => jobs.cursor() > lateSaved, { timeoutMs: 20_000, intervalMs: 20 });
          await late.commitTransaction();
          await late.release();
        })(),
      ]);
      writing = false;
      await polling;
      await jobs.poll();
      // every job's last change was seen (an earlier one may have been replaced before any poll): the
      // late one too, though its updatedAt is older than what had been polled when it committed
      const final = (await get('/v1/jobs?limit=100', c.key)) as Array<Item & { updatedAt: number; priority: number }>;
      expect(final).toHaveLength(12);
      for (const j of final) expect({ id: j.id, seen: jobs.seen.has(`${j.id}@${j.updatedAt}`) }).toEqual({ id: j.id, seen: true });
      const after = final.find((j) => j.id === ids[0])!;
      expect(after.priority).toBe(9);
      expect(after.updatedAt).toBe(lateSaved);
      expect(final.filter((j) => j.priority === 2)).toHaveLength(11);
    }, 120_000);

    it('a long read-only transaction (a report render) holds back neither /v1/checkins, /v1/clock-events nor /v1/jobs', async () => {
      const c = await createCompany(api);
      const w = await member(c);
      const reader = new Client({ connectionString: process.env.DATABASE_URL });
      await reader.connect();
      try {
        await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
        await reader.query('SELECT 1');
        await new Promise((r) => setTimeout(r, 20));
        const before = Date.now() - 1;
        const [job] = (
          await action<{ jobs: Array<{ id: string }> }>(
            api,
            'createjobs',
            { jobs: [{ destinationName: 'Now', worker: w.username }] },
            { key: c.key },
          )
        ).body.jobs;
        const created = await get(`/v1/jobs?createdSince=${before}`, c.key);
        expect(created.map((j) => j.id)).toEqual([job.id]);
        const edited = (
          await action<{ jobs: Array<{ tsSaved: number }> }>(
            api,
            'editjobs',
            { jobs: { [job.id]: { tsCheckIn: Date.now() } } },
            { key: c.key },
          )
        ).body.jobs[0];
        expect((await get(`/v1/jobs?updatedSince=${edited.tsSaved}`, c.key)).map((j) => j.id)).toEqual([job.id]);
        const checks = await get(`/v1/checkins?createdSince=${before}`, c.key);
        expect(checks.map((i) => [i.kind, i.job.id])).toEqual([['jobcheckin', job.id]]);
        await clock(w, true, Date.now());
        expect((await get(`/v1/clock-events?createdSince=${checks[0].createdAt}`, c.key)).map((i) => i.kind)).toEqual(['clockin']);
        // the reader's transaction is still open
        const [{ open }] = (
          await reader.query(`SELECT count(*)::int AS open FROM pg_stat_activity WHERE pid = pg_backend_pid() AND xact_start IS NOT NULL`)
        ).rows;
        expect(open).toBe(1);
      } finally {
        await reader.query('ROLLBACK').catch(() => undefined);
        await reader.end();
      }
    });

    it('the stamper stamps after commit without any poll (NOTIFY), so items wait for no reader', async () => {
      const c = await createCompany(api);
      const w = await member(c);
      await clock(w, true, Date.now());
      await waitFor(
        'stamped by the stamper',
        async () =>
          (
            await db.query(`SELECT 1 FROM outbox_events WHERE company_id = $1 AND action = 'clockin' AND stamped_at IS NOT NULL`, [
              c.companyUid,
            ])
          ).length === 1,
        { timeoutMs: 5_000, intervalMs: 20 },
      );
      const [job] = (await action<{ jobs: Array<{ id: string }> }>(api, 'createjobs', { jobs: [{ destinationName: 'J' }] }, { key: c.key }))
        .body.jobs;
      await waitFor(
        'job stamped by the stamper',
        async () =>
          (await db.query(`SELECT 1 FROM jobs WHERE id = $1 AND saved_stamp IS NOT NULL AND created_stamp IS NOT NULL`, [job.id]))
            .length === 1,
        { timeoutMs: 5_000, intervalMs: 20 },
      );
    });
  });
});
