import { AppConfig, dayInZone, distanceM, WorkerResultsService } from '@app/core';
import { DataSource } from 'typeorm';
import { action, createCompany, createMember, TestApi, TestCompany } from '../support/api';
import { waitFor } from '../support/proc-child';
import { Received, WebhookReceiver } from '../support/webhook-receiver';
import { useWorkerStack } from '../support/worker-stack';

/**
 * optimizeroute end to end (CONTRACTS.md "Dispatch", "Worker results"): the real api in-process,
 * the BUILT worker (its CPU pool runs the route search), real PostgreSQL/PostGIS, and a real webhook
 * receiver for the `jobupdated` events. Needs `npm run build` (scripts/test.sh does it).
 */
const PREFIX = `fieldwork-route-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;
process.env.WEBHOOK_ALLOW_PRIVATE = 'true';

const ZONE = 'Europe/Ljubljana';
/** Ljubljana's centre: the test routes lie around it. */
const CITY = { lat: 46.0511, lng: 14.5051 };

interface JobView {
  id: string;
  number: number;
  destinationLat: number | null;
  destinationLng: number | null;
  tsDoneSuccess: number;
  [k: string]: unknown;
}
type Answer = { jobs: JobView[] };
interface Point {
  lat: number;
  lng: number;
}

describe('optimizeroute', () => {
  const stack = useWorkerStack(PREFIX, {
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RECONCILE_MS: '500',
    QUEUE_LOCK_MS: '5000',
    // one pool thread → two run slots (the deadline test fills them)
    CPU_POOL_THREADS: '1',
    WORKER_TEST_KINDS: 'true',
  });
  let api: TestApi;
  let db: DataSource;
  let receiver: WebhookReceiver;
  beforeAll(() => ({ api, db, receiver } = stack));

  const today = () => dayInZone(Date.now(), ZONE);
  /** A day far from today (no `route_changed` notification, no latest-location start). */
  const LATER = 20991231;
  const data = (r: Received) => JSON.parse(r.form.data) as JobView[];
  const quiet = () => new Promise((r) => setTimeout(r, 1500));

  let seq = 0;
  /** A fresh company (Ljubljana's zone), a worker, and a `job_updated` webhook on a path of its own. */
  async function setup(): Promise<{ c: TestCompany; w: { uid: string; username: string; key: string }; updated: string }> {
    const c = await createCompany(api, { timezone: ZONE });
    const w = await createMember(api, c, { role: 'worker' });
    const updated = `/updated-${++seq}`;
    const res = await action(api, 'setwebhooks', { job_updated: { url: receiver.url + updated } }, { key: c.key });
    expect(res.body.status).toBe(0);
    return { c, w, updated };
  }

  /** Creates jobs for `worker` on `day` with `number` 1..n in the order given; `null` = a job without coordinates. */
  async function createJobs(c: TestCompany, worker: string, day: number, points: Array<Point | null>, extra: object[] = []) {
    const jobs = points.map((p, i) => ({
      destinationName: `Stop ${i + 1}`,
      day,
      worker,
      number: i + 1,
      ...(p ? { destinationLat: p.lat, destinationLng: p.lng } : {}),
      ...extra[i],
    }));
    const res = await action<Answer>(api, 'createjobs', { jobs }, { key: c.key });
    expect(res.body.status).toBe(0);
    return res.body.jobs;
  }

  const optimize = (key: string, payload: Record<string, unknown>) => action<Answer>(api, 'optimizeroute', payload, { key });

  /** A reproducible scatter of `n` points within ~5 km of the city centre. */
  function scatter(n: number, seed: number): Point[] {
    let s = seed;
    const rnd = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) * 2 - 1;
    return Array.from({ length: n }, () => ({ lat: CITY.lat + rnd() * 0.045, lng: CITY.lng + rnd() * 0.065 }));
  }

  /** Length (m) of the path start → points in order (geodesic). */
  function pathM(start: Point | null, points: Point[]): number {
    let m = 0;
    let prev = start;
    for (const p of points) {
      if (prev) m += distanceM(prev, p);
      prev = p;
    }
    return m;
  }

  /** Nearest neighbour from `start`: the bound the solver's answer never exceeds. */
  function nearestNeighbourM(start: Point, points: Point[]): number {
    const left = [...points];
    const order: Point[] = [];
    let at = start;
    while (left.length) {
      let best = 0;
      for (let i = 1; i < left.length; i++)
        if (distanceM(at, left[i]) < distanceM(at, left[best])) best = i;
      at = left.splice(best, 1)[0];
      order.push(at);
    }
    return pathM(start, order);
  }

  const pointOf = (j: JobView): Point => ({ lat: j.destinationLat!, lng: j.destinationLng! });

  it('30 jobs around a city: a permutation, numbers 1..n written, one jobupdated per changed number, route_changed today', async () => {
    const { c, w, updated } = await setup();
    const depot = { lat: CITY.lat - 0.03, lng: CITY.lng - 0.05 };
    expect((await action(api, 'editaccount', { uid: w.uid, route_start_lat: depot.lat, route_start_lng: depot.lng }, { key: c.key })).body.status).toBe(0);
    const points = scatter(30, 7);
    const created = await createJobs(c, w.username, today(), points);
    const before = new Map(created.map((j) => [j.id, j.number]));

    const res = await optimize(c.key, { day: today(), account: w.username });
    expect(res.http).toBe(200);
    expect(res.body.status).toBe(0);
    const ids = res.body.jobs.map((j) => j.id);
    expect([...ids].sort()).toEqual(created.map((j) => j.id).sort());
    expect(res.body.jobs.map((j) => j.number)).toEqual(ids.map((_, i) => i + 1));
    // from the fixed start, never longer than nearest neighbour (and shorter than the order they came in)
    const routed = pathM(depot, res.body.jobs.map(pointOf));
    expect(routed).toBeLessThanOrEqual(nearestNeighbourM(depot, points) + 1e-6);
    expect(routed).toBeLessThan(pathM(depot, points));

    // what getjobs reads back: the same order, the same numbers
    const read = await action<Answer>(api, 'getjobs', { day: today(), worker: w.username }, { key: c.key });
    expect(read.body.jobs.map((j) => [j.id, j.number])).toEqual(res.body.jobs.map((j) => [j.id, j.number]));

    // exactly one jobupdated per job whose number changed, carrying the new number
    const changed = res.body.jobs.filter((j) => before.get(j.id) !== j.number);
    expect(changed.length).toBeGreaterThan(0);
    await receiver.waitFor(updated, changed.length);
    await quiet();
    const got = receiver.at(updated);
    expect(got.map((r) => r.form.action)).toEqual(changed.map(() => 'jobupdated'));
    expect(got.map((r) => r.form.id).sort()).toEqual(changed.map((j) => j.id).sort());
    for (const r of got) expect(data(r)[0].number).toBe(res.body.jobs.find((j) => j.id === r.form.id)!.number);

    // the day is today: the worker is told its route changed
    const notes = await action<{ notifications: Array<{ kind: string; memberUid: string }> }>(api, 'getnotifications', {}, { key: w.key });
    expect(notes.body.notifications.filter((n) => n.kind === 'route_changed')).toEqual([expect.objectContaining({ memberUid: w.uid })]);

    // optimizing again changes nothing: no event, no notification
    const again = await optimize(c.key, { day: today(), account: w.uid });
    expect(again.body.status).toBe(0);
    expect(again.body.jobs.map((j) => j.id)).toEqual(ids);
    await quiet();
    expect(receiver.at(updated)).toHaveLength(changed.length);
    const notesAfter = await action<{ notifications: Array<{ kind: string }> }>(api, 'getnotifications', {}, { key: w.key });
    expect(notesAfter.body.notifications.filter((n) => n.kind === 'route_changed')).toHaveLength(1);
  }, 60_000);

  it('completed jobs first by completion time; jobs without coordinates last in their order; a place’s position counts', async () => {
    const { c, w } = await setup();
    const place = await action<{ uid: string }>(api, 'createplace', { name: 'Depot', location: { lat: 46.05, lng: 14.53 } }, { key: c.key });
    expect(place.body.status).toBe(0);
    // a line west → east; the worker's route starts west of it
    expect((await action(api, 'editaccount', { uid: w.uid, route_start_lat: 46.05, route_start_lng: 14.4 }, { key: c.key })).body.status).toBe(0);
    const jobs = await createJobs(
      c,
      w.username,
      LATER,
      [{ lat: 46.05, lng: 14.56 }, null, { lat: 46.05, lng: 14.5 }, { lat: 46.05, lng: 14.52 }, null, null, { lat: 46.05, lng: 14.54 }, null],
      [{}, {}, {}, {}, { placeUid: place.body.uid }, {}, {}, {}],
    );
    const [east, noCoords1, west, , viaPlace, noCoords2, doneLater, doneFirst] = jobs.map((j) => j.id);
    const done = await action(
      api,
      'editjobs',
      { jobs: { [doneLater]: { tsDoneSuccess: Date.now() - 1000 }, [doneFirst]: { tsDoneSuccess: Date.now() - 60_000 } } },
      { key: c.key },
    );
    expect(done.body).toMatchObject({ status: 0 });

    const res = await optimize(c.key, { day: LATER, account: w.username });
    expect(res.body.status).toBe(0);
    expect(res.body.jobs.map((j) => j.id)).toEqual([doneFirst, doneLater, west, jobs[3].id, viaPlace, east, noCoords1, noCoords2]);
    expect(res.body.jobs.map((j) => j.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // not today: nobody is notified
    const notes = await action<{ notifications: Array<{ kind: string }> }>(api, 'getnotifications', {}, { key: w.key });
    expect(notes.body.notifications.filter((n) => n.kind === 'route_changed')).toHaveLength(0);
  }, 60_000);

  it('fixed start and end from route_start_* / route_end_*; a team’s route when the member has none', async () => {
    const { c, w } = await setup();
    const line = [14.5, 14.52, 14.54, 14.56, 14.58].map((lng) => ({ lat: 46.05, lng }));
    const jobs = await createJobs(c, w.username, LATER, [line[2], line[4], line[0], line[3], line[1]]);
    const byLng = (asc: boolean) => [...jobs].sort((a, b) => (asc ? 1 : -1) * (a.destinationLng! - b.destinationLng!)).map((j) => j.id);

    // start east of the line: east → west
    await action(api, 'editaccount', { uid: w.uid, route_start_lat: 46.05, route_start_lng: 14.7 }, { key: c.key });
    expect((await optimize(c.key, { day: LATER, account: w.username })).body.jobs.map((j) => j.id)).toEqual(byLng(false));
    // start west of the line, end east of it: west → east
    await action(api, 'editaccount', { uid: w.uid, route_start_lat: 46.05, route_start_lng: 14.3, route_end_lat: 46.05, route_end_lng: 14.7 }, { key: c.key });
    expect((await optimize(c.key, { day: LATER, account: w.username })).body.jobs.map((j) => j.id)).toEqual(byLng(true));

    // no start of its own: the first of its teams that has a route (team 2, west)
    await action(
      api,
      'editcompany',
      { teams_config: [{ id: 1, name: 'No route' }, { id: 2, name: 'West', route: { lat: 46.05, lng: 14.3 } }, { id: 3, name: 'East', route: { lat: 46.05, lng: 14.9 } }] },
      { key: c.key },
    );
    const edited = await action(
      api,
      'editaccount',
      { uid: w.uid, teams: [1, 2, 3], route_start_lat: null, route_start_lng: null, route_end_lat: null, route_end_lng: null },
      { key: c.key },
    );
    expect(edited.body.status).toBe(0);
    expect((await optimize(c.key, { day: LATER, account: w.username })).body.jobs.map((j) => j.id)).toEqual(byLng(true));
  }, 60_000);

  it('the latest location is the start when the day is today', async () => {
    const { c, w } = await setup();
    const line = [14.5, 14.52, 14.54, 14.56].map((lng) => ({ lat: 46.05, lng }));
    const jobs = await createJobs(c, w.username, today(), [line[1], line[3], line[0], line[2]]);
    const pushed = await action(api, 'pushlocations', { locations: [{ ts: Date.now() - 1000, lat: 46.05, lng: 14.65, acc: 5 }] }, { key: w.key });
    expect(pushed.body.status).toBe(0);
    const res = await optimize(w.key, { day: today(), account: w.username });
    expect(res.body.status).toBe(0);
    expect(res.body.jobs.map((j) => j.id)).toEqual([...jobs].sort((a, b) => b.destinationLng! - a.destinationLng!).map((j) => j.id));
  }, 60_000);

  it('startEndAtCompany: -1 without a company location; with one, a closed tour from it (editcompany/getcompany location)', async () => {
    const { c, w } = await setup();
    const line = [14.5, 14.52, 14.54, 14.56].map((lng) => ({ lat: 46.05, lng }));
    const jobs = await createJobs(c, w.username, LATER, [line[2], line[0], line[3], line[1]]);

    const missing = await optimize(c.key, { day: LATER, account: w.username, startEndAtCompany: true });
    expect(missing.http).toBe(400);
    expect(missing.body.status).toBe(-1);
    expect(missing.body.error).toContain('data.startEndAtCompany');

    expect((await action(api, 'editcompany', { location: { lat: 91, lng: 14 } }, { key: c.key })).body).toMatchObject({ status: -1 });
    expect((await action(api, 'editcompany', { location: { lat: 46, lng: 181 } }, { key: c.key })).body).toMatchObject({ status: -1 });
    expect((await action(api, 'editcompany', { location: { lat: 46 } }, { key: c.key })).body).toMatchObject({ status: -1 });
    const set = await action<{ company: { location: Point | null } }>(api, 'editcompany', { location: { lat: 46.05, lng: 14.45 } }, { key: c.key });
    expect(set.body.company.location).toEqual({ lat: 46.05, lng: 14.45 });
    const read = await action<{ company: { location: Point | null } }>(api, 'getcompany', {}, { key: w.key });
    expect(read.body.company.location).toEqual({ lat: 46.05, lng: 14.45 });

    const res = await optimize(c.key, { day: LATER, account: w.username, startEndAtCompany: true });
    expect(res.body.status).toBe(0);
    // all stops east of the company on one line: out and back, visited in one direction
    const lngs = res.body.jobs.map((j) => j.destinationLng!);
    const asc = [...lngs].sort((a, b) => a - b);
    expect([asc, [...asc].reverse()]).toContainEqual(lngs);
    expect(res.body.jobs.map((j) => j.id).sort()).toEqual(jobs.map((j) => j.id).sort());

    const cleared = await action<{ company: { location: Point | null } }>(api, 'editcompany', { location: null }, { key: c.key });
    expect(cleared.body.company.location).toBeNull();
    expect((await optimize(c.key, { day: LATER, account: w.username, startEndAtCompany: true })).body.status).toBe(-1);
  }, 60_000);

  it('permissions: staff any member’s route, a worker only its own (-5); another company’s member is unknown (1001)', async () => {
    const { c, w } = await setup();
    const w2 = await createMember(api, c, { role: 'worker' });
    const op = await createMember(api, c, { role: 'operator' });
    await createJobs(c, w.username, LATER, scatter(3, 1));

    expect((await optimize(w.key, { day: LATER, account: w.username })).body.status).toBe(0);
    expect((await optimize(w.key, { day: LATER, account: w.uid })).body.status).toBe(0);
    const denied = await optimize(w2.key, { day: LATER, account: w.username });
    expect(denied.http).toBe(403);
    expect(denied.body.status).toBe(-5);
    expect((await optimize(op.key, { day: LATER, account: w.username })).body.status).toBe(0);
    // a member with no jobs that day: an empty route
    expect((await optimize(op.key, { day: LATER, account: w2.username })).body).toEqual({ status: 0, jobs: [] });

    const other = await createCompany(api, { timezone: ZONE });
    for (const account of [w.username, w.uid, w.username.toUpperCase()]) {
      const res = await optimize(other.key, { day: LATER, account });
      expect(res.http).toBe(404);
      expect(res.body.status).toBe(1001);
      expect(res.body.error).toContain('data.account');
    }
  }, 60_000);

  it('bad input: -1 naming the field; unknown account 1001', async () => {
    const { c, w } = await setup();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ day: 20250231, account: w.username }, 'data.day'],
      [{ day: '20250101', account: w.username }, 'data.day'],
      [{ day: 2025011, account: w.username }, 'data.day'],
      [{ account: w.username }, 'data.day'],
      [{ day: LATER }, 'data.account'],
      [{ day: LATER, account: '' }, 'data.account'],
      [{ day: LATER, account: w.username, startEndAtCompany: 'yes' }, 'data.startEndAtCompany'],
      [{ day: LATER, account: w.username, budgetMs: 5 }, 'budgetMs'],
    ];
    for (const [payload, field] of cases) {
      const res = await optimize(c.key, payload);
      expect([res.http, res.body.status]).toEqual([400, -1]);
      expect(res.body.error).toContain(field);
    }
    const unknown = await optimize(c.key, { day: LATER, account: 'nobody@example.test' });
    expect([unknown.http, unknown.body.status]).toEqual([404, 1001]);
  }, 60_000);

  it('deadline: a run past DISPATCH_TIMEOUT_MS answers -99/503 "nothing was changed", and no job changes', async () => {
    const { c, w, updated } = await setup();
    const created = await createJobs(c, w.username, today(), scatter(12, 3));
    const config = api.app.get(AppConfig);
    const runs = api.app.get(WorkerResultsService);
    const saved = config.DISPATCH_TIMEOUT_MS;
    // both run slots of the worker busy for 4 s: optimizeroute waits in the queue past its 1-s deadline
    const owner = { companyId: c.companyUid, memberId: c.ownerUid };
    const sleeps = await Promise.all(
      [1, 2].map((i) => runs.submit('test.sleep', { ms: 4000, marker: `busy-${i}` }, owner, { profile: 'dispatch', timeoutMs: 20_000 })),
    );
    await waitFor('both sleeps running', async () => {
      const rows: Array<{ state: string }> = await db.query(`SELECT state FROM worker_runs WHERE company_id = $1 AND kind = 'test.sleep'`, [c.companyUid]);
      return rows.filter((r) => r.state === 'running').length === 2;
    });
    config.DISPATCH_TIMEOUT_MS = 1000;
    let res;
    try {
      res = await optimize(c.key, { day: today(), account: w.username });
    } finally {
      config.DISPATCH_TIMEOUT_MS = saved;
    }
    expect(res.http).toBe(503);
    expect(res.body).toEqual({ status: -99, error: 'dispatch did not finish within 1 s; nothing was changed' });

    // the worker reaches the run after the sleeps and writes nothing
    for (const s of sleeps) await runs.await(s);
    await waitFor('the optimizeroute run to be finished', async () => {
      const rows: Array<{ state: string }> = await db.query(`SELECT state FROM worker_runs WHERE company_id = $1 AND kind = 'optimizeroute'`, [c.companyUid]);
      return rows.length === 1 && rows[0].state === 'expired';
    });
    await quiet();
    const read = await action<Answer>(api, 'getjobs', { day: today(), worker: w.username }, { key: c.key });
    expect(read.body.jobs.map((j) => [j.id, j.number])).toEqual(created.map((j) => [j.id, j.number]));
    expect(receiver.at(updated)).toHaveLength(0);
  }, 60_000);
});
