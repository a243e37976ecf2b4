import { dayInZone, distanceM, newId, OutboxService } from '@app/core';
import { JobsService } from '@app/jobs';
import { FixConsumerRegistry, GeofenceEvaluator, GeofenceRepository } from '@app/locations';
import { Place, PlacesService } from '@app/places';
import { Geodesic } from 'geographiclib-geodesic';
import { DataSource } from 'typeorm';
import { action, createCompany, createMember, TestApi, TestCompany } from '../support/api';
import { waitFor } from '../support/proc-child';
import { readGpxFixes } from '../support/gpx';
import { Received, WebhookReceiver } from '../support/webhook-receiver';
import { useWorkerStack } from '../support/worker-stack';

/**
 * Geofencing end to end: fixes pushed through `pushlocations`, evaluated by the BUILT worker's
 * `geofence` fix consumer, events delivered to a real webhook receiver (CONTRACTS.md, "Places,
 * check-ins, clock"). Needs `npm run build` (scripts/test.sh).
 */
const PREFIX = `fieldwork-geo-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;
process.env.WEBHOOK_ALLOW_PRIVATE = 'true';

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

const PLACE_CENTER = { lat: 46.0511, lng: 14.5051 };

/** A fix `m` metres from `center` along azimuth `azi` (degrees) at `ts`. */
function at(center: { lat: number; lng: number }, m: number, ts: number, acc: number | null = 5, azi = 90): PushFix {
  const p = Geodesic.WGS84.Direct(center.lat, center.lng, azi, m);
  return acc === null ? { ts, lat: p.lat2!, lng: p.lon2! } : { ts, lat: p.lat2!, lng: p.lon2!, acc };
}

/** Fixes every 5 s for [fromS, toS] seconds after `t0`, at `m` metres from `center` (`acc` null: none sent). */
function stay(center: { lat: number; lng: number }, t0: number, fromS: number, toS: number, m: number, acc: number | null = 5): PushFix[] {
  const out: PushFix[] = [];
  for (let s = fromS; s <= toS; s += 5) out.push(at(center, m, t0 + s * 1000, acc));
  return out;
}

describe('geofencing', () => {
  const stack = useWorkerStack(PREFIX, { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RECONCILE_MS: '500', QUEUE_LOCK_MS: '5000' });
  let api: TestApi;
  let db: DataSource;
  let receiver: WebhookReceiver;
  beforeAll(() => ({ api, db, receiver } = stack));

  let hookSeq = 0;
  /** A fresh company, a worker, and webhooks for place and job checks on paths of their own. */
  async function setup(
    timezone?: string,
  ): Promise<{ c: TestCompany; w: Member; paths: { place: string; checked: string; updated: string } }> {
    const c = await createCompany(api, { timezone });
    const name = `Ana ${++hookSeq}`;
    const m = await createMember(api, c, { role: 'worker', name });
    const paths = { place: `/place-${hookSeq}`, checked: `/checked-${hookSeq}`, updated: `/updated-${hookSeq}` };
    const res = await action(
      api,
      'setwebhooks',
      {
        place_checked: { url: receiver.url + paths.place },
        job_checked: { url: receiver.url + paths.checked },
        job_updated: { url: receiver.url + paths.updated },
      },
      { key: c.key },
    );
    expect(res.body.status).toBe(0);
    return { c, w: { ...m, name }, paths };
  }

  async function addPlace(c: TestCompany, fields: Partial<Place> & { lat: number; lng: number }): Promise<Place> {
    const place = db.getRepository(Place).create({
      id: newId(),
      companyId: c.companyUid,
      name: fields.name ?? 'Depot',
      location: { type: 'Point', coordinates: [fields.lng, fields.lat] },
      radius: fields.radius ?? 100,
      address: 'Trg 1',
      city: 'Ljubljana',
      data: [{ key: 'gate', val: 'B' }],
      teams: [],
      creatorId: c.ownerUid,
      createdAt: Date.now(),
      deletedAt: fields.deletedAt ?? null,
    });
    await db.getRepository(Place).insert(place);
    return place;
  }

  /** Pushes fixes through pushlocations in calls of `batch`, then waits until the worker has evaluated them all. */
  async function push(w: Member, c: TestCompany, fixes: PushFix[], batch = 50): Promise<void> {
    for (let i = 0; i < fixes.length; i += batch) {
      const res = await action<{ accepted: number; rejected: unknown[] }>(
        api,
        'pushlocations',
        { locations: fixes.slice(i, i + batch) },
        { key: w.key },
      );
      expect(res.body).toMatchObject({ status: 0, rejected: [] });
    }
    const last = Math.max(...fixes.map((f) => f.ts));
    await waitFor(
      'geofence evaluation',
      async () => {
        const [row] = await db.query(`SELECT evaluated_ts::float8 AS ts FROM geofence_states WHERE company_id = $1 AND member_id = $2`, [
          c.companyUid,
          w.uid,
        ]);
        return row && row.ts >= last;
      },
      { timeoutMs: 20_000, intervalMs: 100 },
    );
  }

  const data = (r: Received) => JSON.parse(r.form.data);
  const checkins = (c: TestCompany) =>
    db.query(
      `SELECT place_id AS "placeId", job_id AS "jobId", in_ts::float8 AS "inTs", out_ts::float8 AS "outTs", duration::float8 AS duration
         FROM checkins WHERE company_id = $1 ORDER BY in_ts`,
      [c.companyUid],
    );
  /** Lets any stray delivery arrive before asserting that none did. */
  const quiet = () => new Promise((r) => setTimeout(r, 1500));

  it('a drive into and out of a place: one placecheckin and one placecheckout; edge jitter and inaccurate fixes fire nothing', async () => {
    const { c, w, paths } = await setup();
    const place = await addPlace(c, { name: 'Depot', lat: PLACE_CENTER.lat, lng: PLACE_CENTER.lng, radius: 100 });
    const t0 = Date.now() - 20 * 60_000;
    const fixes = [
      ...stay(PLACE_CENTER, t0, 0, 60, 1500), // approaching
      ...stay(PLACE_CENTER, t0, 65, 180, 112), // at the edge (ring 100..125 m): no entry
      ...stay(PLACE_CENTER, t0, 185, 190, 20, 300), // inaccurate fixes inside: not counted
      ...stay(PLACE_CENTER, t0, 195, 400, 30), // inside from 195 s
      ...stay(PLACE_CENTER, t0, 405, 500, 118), // jitter at the edge: still inside
      ...stay(PLACE_CENTER, t0, 505, 540, 3000, 800), // inaccurate fixes far away: ignored
      ...stay(PLACE_CENTER, t0, 545, 600, 40),
      ...stay(PLACE_CENTER, t0, 605, 640, 130, null), // beyond the ring, no accuracy (counts): out at 605 s
      ...stay(PLACE_CENTER, t0, 645, 800, 2000),
    ];
    await push(w, c, fixes, 37);
    const got = await receiver.waitFor(paths.place, 2);
    await quiet();
    expect(receiver.at(paths.place)).toHaveLength(2);
    const byAction = Object.fromEntries(got.map((r) => [r.form.action, r]));
    const inTs = t0 + 195_000;
    const outTs = t0 + 605_000;
    expect(byAction.placecheckin.form.id).toBe(`${w.uid}-${place.id}-${inTs}`);
    expect(byAction.placecheckout.form.id).toBe(`${w.uid}-${place.id}-${outTs}`);
    expect(byAction.placecheckin.form.account).toBe(c.username);
    const payload = data(byAction.placecheckin);
    expect(payload).toEqual({
      place: expect.objectContaining({
        uid: place.id,
        name: 'Depot',
        address: 'Trg 1',
        city: 'Ljubljana',
        radius: 100,
        data: [{ gate: 'B' }],
        teams: [],
        location: { lat: PLACE_CENTER.lat, lng: PLACE_CENTER.lng },
      }),
      who: { uid: w.uid, name: w.name, username: w.username },
      ts: inTs,
    });
    expect(data(byAction.placecheckout)).toMatchObject({ place: { uid: place.id }, who: { uid: w.uid }, ts: outTs });
    // the live stream's audience, written with the events: staff and the member concerned (docs/live.md)
    const audiences = await db.query(
      `SELECT DISTINCT audience_staff AS staff, audience_members AS members FROM outbox_events WHERE company_id = $1 AND action LIKE 'placecheck%'`,
      [c.companyUid],
    );
    expect(audiences).toEqual([{ staff: true, members: [w.uid] }]);
    expect(await checkins(c)).toEqual([{ placeId: place.id, jobId: null, inTs, outTs, duration: outTs - inTs }]);

    // (f) idempotency: the consumer run again for the same fixes writes nothing new
    const count = async () =>
      (
        await db.query(
          `SELECT (SELECT count(*) FROM checkins WHERE company_id = $1)::int AS checkins,
                  (SELECT count(*) FROM outbox_events WHERE company_id = $1)::int AS events,
                  (SELECT row_to_json(g)::text FROM geofence_states g WHERE company_id = $1) AS state`,
          [c.companyUid],
        )
      )[0];
    const before = await count();
    const evaluator = new GeofenceEvaluator(
      new FixConsumerRegistry(),
      new GeofenceRepository(db),
      api.app.get(JobsService),
      api.app.get(PlacesService),
      api.app.get(OutboxService),
    );
    const task = { companyId: c.companyUid, memberId: w.uid, fromTs: fixes[0].ts, toTs: fixes[fixes.length - 1].ts };
    await evaluator.onFixes(task);
    await evaluator.onFixes(task);
    expect(await count()).toEqual(before);
    // a late fix (older than the last evaluated) enters history but is not re-evaluated
    await action(api, 'pushlocations', { locations: [at(PLACE_CENTER, 10, t0 + 700_500)] }, { key: w.key });
    await evaluator.onFixes(task);
    expect(await count()).toEqual(before);
  }, 60_000);

  it('a real trace (around-visnjan-with-car.gpx) with a place at its ~2-min stop: one visit', async () => {
    const { c, w, paths } = await setup();
    const trace = readGpxFixes('around-visnjan-with-car.gpx').map(({ ts, lat, lng }) => ({ ts, lat, lng }));
    expect(trace.length).toBe(104);
    const stop = { lat: 45.27632, lng: 13.7198 };
    const radius = 30;
    const place = await addPlace(c, { name: 'Stop', lat: stop.lat, lng: stop.lng, radius });
    const shift = Date.now() - 60_000 - trace[trace.length - 1].ts;
    const fixes = trace.map((f) => ({ ...f, ts: f.ts + shift }));
    // what the rule gives on this trace: in at the first fix within the radius, out at the first fix
    // beyond radius + 20 m after it (the stop is longer than the dwell and the drive away too)
    const firstIn = fixes.find((f) => distanceM(f, stop) <= radius)!;
    const firstOut = fixes.find((f) => f.ts > firstIn.ts && distanceM(f, stop) > radius + 20)!;
    // shuffled in one call: the evaluator reads them in ts order
    const shuffled = [...fixes].sort(() => Math.random() - 0.5);
    await push(w, c, shuffled, 1000);
    const got = await receiver.waitFor(paths.place, 2);
    await quiet();
    expect(receiver.at(paths.place).map((r) => [r.form.action, data(r).ts])).toEqual(
      expect.arrayContaining([
        ['placecheckin', firstIn.ts],
        ['placecheckout', firstOut.ts],
      ]),
    );
    expect(got).toHaveLength(2);
    expect(firstOut.ts - firstIn.ts).toBeGreaterThan(100_000); // the ~2-min stop
    expect(await checkins(c)).toEqual([
      { placeId: place.id, jobId: null, inTs: firstIn.ts, outTs: firstOut.ts, duration: firstOut.ts - firstIn.ts },
    ]);
  }, 60_000);

  it('a job of today with coordinates: tsCheckIn/tsCheckOut set with jobcheckin/jobcheckout; a second visit updates tsCheckOut (jobupdated)', async () => {
    const { c, w, paths } = await setup('Europe/Ljubljana');
    const site = { lat: 46.06, lng: 14.51 };
    const t0 = Date.now() - 15 * 60_000;
    const day = dayInZone(t0, 'Europe/Ljubljana');
    const created = await action<{ jobs: Array<{ id: string }> }>(
      api,
      'createjobs',
      { jobs: [{ destinationName: 'Boiler', destinationLat: site.lat, destinationLng: site.lng, day, worker: w.username }] },
      { key: c.key },
    );
    expect(created.body.status).toBe(0);
    const jobId = created.body.jobs[0].id;
    // radius: no place → the company default (100 m)
    await push(w, c, [...stay(site, t0, 0, 30, 900), ...stay(site, t0, 35, 200, 20), ...stay(site, t0, 205, 300, 600)]);
    const checked = await receiver.waitFor(paths.checked, 2);
    const byAction = Object.fromEntries(checked.map((r) => [r.form.action, data(r)[0]]));
    expect(byAction.jobcheckin).toMatchObject({ id: jobId, tsCheckIn: t0 + 35_000, tsCheckOut: 0 });
    expect(byAction.jobcheckout).toMatchObject({ id: jobId, tsCheckIn: t0 + 35_000, tsCheckOut: t0 + 205_000 });
    expect(checked.every((r) => r.form.id === jobId)).toBe(true);

    await push(w, c, [...stay(site, t0, 305, 450, 50), ...stay(site, t0, 455, 560, 800)]);
    const [updated] = await receiver.waitFor(paths.updated, 1);
    expect(updated.form.action).toBe('jobupdated');
    expect(data(updated)[0]).toMatchObject({ id: jobId, tsCheckIn: t0 + 35_000, tsCheckOut: t0 + 455_000 });
    await quiet();
    expect(receiver.at(paths.checked)).toHaveLength(2);
    expect(receiver.at(paths.updated)).toHaveLength(1);
    const jobs = await action<{ jobs: Array<Record<string, unknown>> }>(api, 'getjobs', { id: jobId }, { key: c.key });
    expect(jobs.body.jobs[0]).toMatchObject({ tsCheckIn: t0 + 35_000, tsCheckOut: t0 + 455_000 });
    expect(await checkins(c)).toEqual([
      { placeId: null, jobId, inTs: t0 + 35_000, outTs: t0 + 205_000, duration: 170_000 },
      { placeId: null, jobId, inTs: t0 + 305_000, outTs: t0 + 455_000, duration: 150_000 },
    ]);
    expect(receiver.at(paths.place)).toHaveLength(0);
  }, 60_000);

  it('a soft-deleted place is ignored (a live place on the same drive is checked)', async () => {
    const { c, w, paths } = await setup();
    const live = await addPlace(c, { name: 'Live', lat: PLACE_CENTER.lat, lng: PLACE_CENTER.lng, radius: 80 });
    const goneCenter = { lat: 46.07, lng: 14.52 };
    const gone = await addPlace(c, { name: 'Gone', lat: goneCenter.lat, lng: goneCenter.lng, radius: 80, deletedAt: Date.now() - 1000 });
    const t0 = Date.now() - 20 * 60_000;
    await push(w, c, [
      ...stay(goneCenter, t0, 0, 200, 10),
      ...stay(goneCenter, t0, 205, 300, 1000),
      ...stay(PLACE_CENTER, t0, 305, 500, 10),
      ...stay(PLACE_CENTER, t0, 505, 600, 1000),
    ]);
    await receiver.waitFor(paths.place, 2);
    await quiet();
    const got = receiver.at(paths.place);
    expect(got.map((r) => data(r).place.uid)).toEqual([live.id, live.id]);
    expect(got.some((r) => r.form.id.includes(gone.id))).toBe(false);
    expect((await checkins(c)).map((r: { placeId: string }) => r.placeId)).toEqual([live.id]);
  }, 60_000);

  it('honours checkin_dwell_seconds (editcompany)', async () => {
    const { c, w, paths } = await setup();
    expect((await action(api, 'editcompany', { checkin_dwell_seconds: 300 }, { key: c.key })).body.status).toBe(0);
    const place = await addPlace(c, { lat: PLACE_CENTER.lat, lng: PLACE_CENTER.lng, radius: 100 });
    const t0 = Date.now() - 40 * 60_000;
    // 4 minutes inside: shorter than the 5-min dwell → nothing
    await push(w, c, [...stay(PLACE_CENTER, t0, 0, 240, 10), ...stay(PLACE_CENTER, t0, 245, 600, 1000)]);
    expect(await checkins(c)).toEqual([]);
    // 6 minutes inside → in at its first fix; 6 minutes away → out at the first fix beyond
    await push(w, c, [...stay(PLACE_CENTER, t0, 605, 965, 10), ...stay(PLACE_CENTER, t0, 970, 1330, 1000)]);
    const got = await receiver.waitFor(paths.place, 2);
    expect(got.map((r) => [r.form.action, data(r).ts]).sort()).toEqual([
      ['placecheckin', t0 + 605_000],
      ['placecheckout', t0 + 970_000],
    ]);
    expect(await checkins(c)).toEqual([{ placeId: place.id, jobId: null, inTs: t0 + 605_000, outTs: t0 + 970_000, duration: 365_000 }]);
    await quiet();
    expect(receiver.at(paths.place)).toHaveLength(2);
  }, 60_000);
});
