import { AppConfig, WorkerResultsService } from '@app/core';
import { XMLValidator } from 'fast-xml-parser';
import { DataSource } from 'typeorm';
import { action, createCompany, createMember, TestApi, TestCompany } from '../support/api';
import { waitFor } from '../support/proc-child';
import { useWorkerStack } from '../support/worker-stack';

/**
 * distributejobs, autoassign and createjobs with autoassign end to end (CONTRACTS.md "Dispatch"):
 * the in-process api, the BUILT worker (one CPU thread) computing the runs, real PostgreSQL. Needs
 * `npm run build` (scripts/test.sh does it).
 */
const PREFIX = `fieldwork-dispatch-assign-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;

/** A fixed future day (YYYYMMDD) and a reproducible scatter. */
const DAY = 20300506;
const ZAGREB = { lat: 45.815, lng: 15.982 };
const SPLIT = { lat: 43.508, lng: 16.44 };
const OSIJEK = { lat: 45.555, lng: 18.694 };
const CITIES = { ZAGREB, SPLIT, OSIJEK };
type City = keyof typeof CITIES;

let seed = 7;
/** Park–Miller minimal standard generator: the same points every run. */
function rand(): number {
  seed = (seed * 48271) % 2147483647;
  return seed / 2147483647;
}
/** A point within ~5 km of `c`. */
const near = (c: { lat: number; lng: number }) => ({ lat: c.lat + (rand() - 0.5) * 0.08, lng: c.lng + (rand() - 0.5) * 0.1 });

const OFF_WEEK = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, { start: 0, end: 0 }]),
);

interface Job {
  id: string;
  worker: string;
  day: number;
  tsAssigned: number;
}

describe('dispatch: distributejobs, autoassign, createjobs with autoassign', () => {
  const stack = useWorkerStack(PREFIX, { WORKER_TEST_KINDS: 'true', CPU_POOL_THREADS: '1' });
  let api: TestApi;
  let db: DataSource;
  beforeAll(() => ({ api, db } = stack));

  async function createJobs(c: TestCompany, jobs: Array<Record<string, unknown>>): Promise<Job[]> {
    const res = await action<{ jobs: Job[] }>(api, 'createjobs', { jobs }, { key: c.key });
    expect(res.body.status).toBe(0);
    return res.body.jobs;
  }

  async function worker(c: TestCompany, fields: Record<string, unknown> = {}, teams?: number[]) {
    const m = await createMember(api, c, { role: 'worker', teams });
    if (Object.keys(fields).length) {
      const res = await action(api, 'editaccount', { uid: m.uid, ...fields }, { key: c.key });
      expect(res.body.status).toBe(0);
    }
    return m;
  }

  const startAt = (p: { lat: number; lng: number }) => ({ route_start_lat: p.lat, route_start_lng: p.lng });

  async function workerIdsOf(ids: string[]): Promise<Map<string, string | null>> {
    const rows: Array<{ id: string; worker_id: string | null }> = await db.query(`SELECT id, worker_id FROM jobs WHERE id = ANY($1)`, [
      ids,
    ]);
    return new Map(rows.map((r) => [r.id, r.worker_id]));
  }

  describe('distributejobs', () => {
    let c: TestCompany;
    const city = new Map<string, City>();
    let ids: string[] = [];

    beforeAll(async () => {
      c = await createCompany(api, { timezone: 'Europe/Zagreb' });
      await action(
        api,
        'editcompany',
        {
          teams_config: [
            { id: 1, name: 'North' },
            { id: 2, name: 'South' },
          ],
        },
        { key: c.key },
      );
      const specs: Array<{ c: City; teamId: number }> = [];
      for (let i = 0; i < 20; i++) specs.push({ c: 'ZAGREB', teamId: 1 }, { c: 'SPLIT', teamId: 2 }, { c: 'OSIJEK', teamId: 1 });
      const jobs = await createJobs(
        c,
        specs.map((s, i) => {
          const p = near(CITIES[s.c]);
          return { destinationName: `d${i}`, destinationLat: p.lat, destinationLng: p.lng, teamId: s.teamId, day: DAY };
        }),
      );
      jobs.forEach((j, i) => city.set(j.id, specs[i].c));
      ids = jobs.map((j) => j.id);
    });

    const keyed = (list: string[]) => Object.fromEntries(list.map((id) => [id, {}]));
    type Answer = { clusters: Array<{ center_lat: number; center_lng: number; jobs: string[]; method: string }>; maplink: string };

    it('distance: exactly k clusters partitioning the jobs, one city each; the map link serves an SVG without a key', async () => {
      const res = await action<Answer>(api, 'distributejobs', { jobs: keyed(ids), regions: 3 }, { key: c.key });
      expect(res.body.status).toBe(0);
      const { clusters, maplink } = res.body;
      expect(clusters).toHaveLength(3);
      expect(clusters.flatMap((k) => k.jobs).sort()).toEqual([...ids].sort());
      for (const k of clusters) {
        expect(k.method).toBe('distance');
        expect(new Set(k.jobs.map((id) => city.get(id))).size).toBe(1);
        const center = CITIES[city.get(k.jobs[0])!];
        expect(Math.abs(k.center_lat - center.lat)).toBeLessThan(0.05);
        expect(Math.abs(k.center_lng - center.lng)).toBeLessThan(0.05);
      }
      expect(maplink).toMatch(/\/share\/clusters\/[0-9a-f]{32}\.svg$/);
      const path = new URL(maplink).pathname;
      const svg = await fetch(`${api.url}${path}`);
      expect(svg.status).toBe(200);
      expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      const text = await svg.text();
      expect(XMLValidator.validate(text)).toBe(true);
      expect(text).toContain('<svg');

      // unknown token → 404; expired → 404
      expect((await fetch(`${api.url}/share/clusters/${'0'.repeat(32)}.svg`)).status).toBe(404);
      await db.query(`UPDATE cluster_maps SET expires_at = 0 WHERE token = $1`, [path.split('/').pop()!.slice(0, 32)]);
      expect((await fetch(`${api.url}${path}`)).status).toBe(404);
    });

    it('size: no cluster above ⌈1.1·n/k⌉; zones: one cluster per team (no zones exist yet)', async () => {
      const size = await action<Answer>(api, 'distributejobs', { jobs: keyed(ids), regions: 4, method: 'size' }, { key: c.key });
      expect(size.body.status).toBe(0);
      expect(size.body.clusters).toHaveLength(4);
      for (const k of size.body.clusters) expect(k.jobs.length).toBeLessThanOrEqual(Math.ceil((1.1 * ids.length) / 4));
      expect(size.body.clusters.flatMap((k) => k.jobs).sort()).toEqual([...ids].sort());

      const zones = await action<Answer>(api, 'distributejobs', { jobs: keyed(ids), method: 'zones' }, { key: c.key });
      expect(zones.body.status).toBe(0);
      expect(zones.body.clusters).toHaveLength(2);
      const south = zones.body.clusters.find((k) => city.get(k.jobs[0]) === 'SPLIT')!;
      expect(south.jobs.every((id) => city.get(id) === 'SPLIT')).toBe(true);
      expect(south.jobs).toHaveLength(20);
    });

    it('bad input: regions out of range, unknown and other companies’ ids, jobs without coordinates', async () => {
      const zero = await action(api, 'distributejobs', { jobs: keyed(ids.slice(0, 5)), regions: 0 }, { key: c.key });
      expect(zero.http).toBe(400);
      expect(zero.body.error).toMatch(/data\.regions/);
      const tooMany = await action(api, 'distributejobs', { jobs: keyed(ids.slice(0, 5)), regions: 6 }, { key: c.key });
      expect(tooMany.body).toMatchObject({ status: -1 });

      const other = await createCompany(api);
      const [foreign] = await createJobs(other, [{ destinationName: 'x', destinationLat: 45, destinationLng: 15 }]);
      const unknown = await action(api, 'distributejobs', { jobs: keyed([ids[0], foreign.id, 'NOSUCHJOB']), regions: 1 }, { key: c.key });
      expect(unknown.body.status).toBe(-1);
      expect(unknown.body.error).toContain(foreign.id);
      expect(unknown.body.error).toContain('NOSUCHJOB');

      const [bare] = await createJobs(c, [{ destinationName: 'no coordinates' }]);
      const noPoint = await action(api, 'distributejobs', { jobs: keyed([ids[0], bare.id]), regions: 1 }, { key: c.key });
      expect(noPoint.body.status).toBe(-1);
      expect(noPoint.body.error).toContain(bare.id);
    });

    it('a worker is denied', async () => {
      const w = await worker(c);
      const res = await action(api, 'distributejobs', { jobs: keyed(ids.slice(0, 3)), regions: 1 }, { key: w.key });
      expect(res.http).toBe(403);
      expect(res.body.status).toBe(-5);
    });
  });

  describe('autoassign', () => {
    let c: TestCompany;
    const w: Record<string, { uid: string; username: string; key: string }> = {};
    let jobs: Job[] = [];
    const city = new Map<string, City>();

    beforeAll(async () => {
      c = await createCompany(api, { timezone: 'Europe/Zagreb' });
      w.zg = await worker(c, startAt(ZAGREB));
      w.st = await worker(c, startAt(SPLIT));
      w.os = await worker(c, { ...startAt(OSIJEK), working_hours: OFF_WEEK, ignore_working_hours_until_ts: Date.UTC(2031, 0, 1) });
      w.off = await worker(c, { ...startAt(ZAGREB), working_hours_overrides: { [String(DAY)]: { start: 0, end: 0 } } });
      w.allOff = await worker(c, { ...startAt(SPLIT), working_hours: OFF_WEEK });
      w.gone = await worker(c, startAt(OSIJEK));
      expect((await action(api, 'deleteaccount', { uid: w.gone.uid }, { key: c.key })).body.status).toBe(0);
      // Split's worker already has one pickup on the day
      const p = near(SPLIT);
      await createJobs(c, [
        { destinationName: 'existing', destinationLat: p.lat, destinationLng: p.lng, day: DAY, itemsToPickup: 1, worker: w.st.username },
      ]);

      const specs: City[] = ['ZAGREB', 'ZAGREB', 'ZAGREB', 'ZAGREB', 'SPLIT', 'SPLIT', 'SPLIT', 'OSIJEK', 'OSIJEK', 'OSIJEK'];
      jobs = await createJobs(
        c,
        specs.map((s, i) => {
          const q = near(CITIES[s]);
          return { destinationName: `j${i}`, destinationLat: q.lat, destinationLng: q.lng, day: DAY, itemsToPickup: 1 };
        }),
      );
      jobs.forEach((j, i) => city.set(j.id, specs[i]));
    });

    type Answer = { assignedJobs: string[]; unassignedJobs: string[]; jobs: Job[]; reasons: Record<string, string> };

    it('assigns near, within capacities, never to an unavailable or deactivated worker; completed/archived/no coordinates come back with reasons', async () => {
      const [done, archived, bare] = await createJobs(c, [
        { destinationName: 'done', destinationLat: ZAGREB.lat, destinationLng: ZAGREB.lng, day: DAY, tsDoneSuccess: 1000 },
        { destinationName: 'archived', destinationLat: ZAGREB.lat, destinationLng: ZAGREB.lng, day: DAY },
        { destinationName: 'no coordinates', day: DAY },
      ]);
      expect((await action(api, 'archivejobs', { jobs: { [archived.id]: {} } }, { key: c.key })).body.status).toBe(0);
      const list = [...jobs.map((j) => j.id), done.id, archived.id, bare.id];
      const workers = [w.zg.username, w.st.uid, w.os.username, w.off.username, w.allOff.uid, w.gone.username];
      const res = await action<Answer>(api, 'autoassign', { jobs: list, workers, pickupCapacity: 3 }, { key: c.key });
      expect(res.body.status).toBe(0);
      const { assignedJobs, unassignedJobs, reasons } = res.body;
      // every job in exactly one list, input order kept
      expect([...assignedJobs, ...unassignedJobs].sort()).toEqual([...list].sort());
      expect(assignedJobs).toEqual(list.filter((id) => assignedJobs.includes(id)));
      expect(unassignedJobs).toEqual(list.filter((id) => unassignedJobs.includes(id)));
      expect(reasons[done.id]).toMatch(/completed/);
      expect(reasons[archived.id]).toMatch(/archived/);
      expect(reasons[bare.id]).toMatch(/coordinates/);
      for (const id of unassignedJobs) expect(typeof reasons[id]).toBe('string');

      const byId = new Map(res.body.jobs.map((j) => [j.id, j]));
      expect(res.body.jobs.map((j) => j.id)).toEqual(assignedJobs);
      const stored = await workerIdsOf(list);
      const perWorker = new Map<string, string[]>();
      for (const id of assignedJobs) {
        const uid = stored.get(id)!;
        expect([w.zg.uid, w.st.uid, w.os.uid]).toContain(uid);
        expect(byId.get(id)!.tsAssigned).toBeGreaterThan(0);
        perWorker.set(uid, [...(perWorker.get(uid) ?? []), id]);
      }
      // capacities: 3 pickups each, Split's existing job included
      expect(perWorker.get(w.zg.uid)?.length ?? 0).toBeLessThanOrEqual(3);
      expect(perWorker.get(w.st.uid)?.length ?? 0).toBeLessThanOrEqual(2);
      expect(perWorker.get(w.os.uid)?.length ?? 0).toBeLessThanOrEqual(3);
      // 10 placeable jobs, 8 places left: exactly 8 assigned, each to its own city's worker
      expect(assignedJobs).toHaveLength(8);
      for (const id of perWorker.get(w.zg.uid) ?? []) expect(city.get(id)).toBe('ZAGREB');
      for (const id of perWorker.get(w.st.uid) ?? []) expect(city.get(id)).toBe('SPLIT');
      for (const id of perWorker.get(w.os.uid) ?? []) expect(city.get(id)).toBe('OSIJEK');
      // one jobupdated per assigned job, in the same transaction
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM outbox_events WHERE action = 'jobupdated' AND form_id = ANY($1)`, [
        assignedJobs,
      ]);
      expect(n).toBe(assignedJobs.length);
    });

    it('size evens the day’s counts (existing jobs included); jobs already assigned are reassigned', async () => {
      const res = await action<Answer>(
        api,
        'autoassign',
        { jobs: jobs.map((j) => j.id).slice(0, 9), workers: [w.zg.username, w.st.username, w.os.username], method: 'size' },
        { key: c.key },
      );
      expect(res.body.status).toBe(0);
      expect(res.body.assignedJobs).toHaveLength(9);
      // even counts of the day's jobs per worker, Split's existing job included
      const rows: Array<{ worker_id: string; n: number }> = await db.query(
        `SELECT worker_id, count(*)::int AS n FROM jobs WHERE company_id = $1 AND day = $2 AND NOT archived AND worker_id = ANY($3) GROUP BY worker_id`,
        [c.companyUid, DAY, [w.zg.uid, w.st.uid, w.os.uid]],
      );
      const counts = rows.map((r) => r.n);
      expect(counts).toHaveLength(3);
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    });

    it('bad input: unknown and other companies’ job ids and workers → -1 naming them; a worker is denied', async () => {
      const other = await createCompany(api);
      const [foreign] = await createJobs(other, [{ destinationName: 'x', destinationLat: 45, destinationLng: 15 }]);
      const foreignWorker = await worker(other);
      const badJobs = await action(
        api,
        'autoassign',
        { jobs: [jobs[0].id, foreign.id, 'NOSUCHJOB'], workers: [w.zg.username] },
        { key: c.key },
      );
      expect(badJobs.http).toBe(400);
      expect(badJobs.body.error).toContain(foreign.id);
      expect(badJobs.body.error).toContain('NOSUCHJOB');
      const badWorkers = await action(
        api,
        'autoassign',
        { jobs: [jobs[0].id], workers: [w.zg.username, foreignWorker.username, 'nobody@example.test'] },
        { key: c.key },
      );
      expect(badWorkers.http).toBe(400);
      expect(badWorkers.body.error).toMatch(/data\.workers/);
      expect(badWorkers.body.error).toContain(foreignWorker.username);
      expect(badWorkers.body.error).toContain('nobody@example.test');
      // the other company's job was not touched
      expect((await workerIdsOf([foreign.id])).get(foreign.id)).toBeNull();

      const denied = await action(api, 'autoassign', { jobs: [jobs[0].id], workers: [w.zg.username] }, { key: w.zg.key });
      expect(denied.http).toBe(403);
    });
  });

  describe('createjobs with autoassign', () => {
    it('creates and assigns in one go: team limits, vehicle capacity, explicit assignees kept, the rest unassigned and listed', async () => {
      const c = await createCompany(api, { timezone: 'Europe/Zagreb' });
      await action(
        api,
        'editcompany',
        {
          teams_config: [
            { id: 1, name: 'North' },
            { id: 2, name: 'South' },
          ],
        },
        { key: c.key },
      );
      const a = await worker(c, { ...startAt(ZAGREB), vehicle_capacity: 2 }, [1]);
      const b = await worker(c, startAt(ZAGREB), [2]);
      const gone = await worker(c, startAt(ZAGREB), [1]);
      await action(api, 'deleteaccount', { uid: gone.uid }, { key: c.key });
      const at = () => {
        const p = near(ZAGREB);
        return { destinationLat: p.lat, destinationLng: p.lng };
      };
      const res = await action<{ jobs: Job[]; unassignedJobs: string[]; reasons: Record<string, string> }>(
        api,
        'createjobs',
        {
          autoassign: true,
          jobs: [
            { destinationName: 't1-a', teamId: 1, itemsToPickup: 1, ...at() },
            { destinationName: 't1-b', teamId: 1, itemsToPickup: 1, ...at() },
            { destinationName: 't1-c', teamId: 1, itemsToPickup: 1, ...at() },
            { destinationName: 't2', teamId: 2, itemsToPickup: 1, ...at() },
            { destinationName: 'nowhere' },
            { destinationName: 'explicit', worker: b.username, ...at() },
          ],
        },
        { key: c.key },
      );
      expect(res.body.status).toBe(0);
      const { jobs, unassignedJobs, reasons } = res.body;
      expect(jobs).toHaveLength(6);
      const team1 = jobs.slice(0, 3);
      expect(team1.filter((j) => j.worker === a.username)).toHaveLength(2);
      const left = team1.find((j) => j.worker !== a.username)!;
      expect(left.worker).toBe('');
      expect(jobs[3].worker).toBe(b.username);
      expect(jobs[4].worker).toBe('');
      expect(jobs[5].worker).toBe(b.username);
      expect(unassignedJobs.sort()).toEqual([left.id, jobs[4].id].sort());
      expect(reasons[jobs[4].id]).toMatch(/coordinates/);
      // undated jobs it assigns get today's day
      expect(jobs[3].day).toBeGreaterThan(20000101);
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM jobs WHERE company_id = $1`, [c.companyUid]);
      expect(n).toBe(6);
    });
  });

  describe('the deadline', () => {
    it('a run past DISPATCH_TIMEOUT_MS → -99/503 and nothing changed or created', async () => {
      const c = await createCompany(api, { timezone: 'Europe/Zagreb' });
      const a = await worker(c, startAt(ZAGREB));
      const [job] = await createJobs(c, [{ destinationName: 'late', destinationLat: ZAGREB.lat, destinationLng: ZAGREB.lng, day: DAY }]);
      const config = api.app.get(AppConfig);
      const runs = api.app.get(WorkerResultsService);
      const saved = config.DISPATCH_TIMEOUT_MS;
      // the worker's only CPU thread is busy for 6 s: the dispatch runs wait for it past their deadline
      const busy = await runs.submit(
        'test.cpu',
        { ms: 6000 },
        { companyId: c.companyUid, memberId: c.ownerUid },
        { profile: 'dispatch', timeoutMs: 20_000 },
      );
      config.DISPATCH_TIMEOUT_MS = 1500;
      try {
        const assign = await action(api, 'autoassign', { jobs: [job.id], workers: [a.username] }, { key: c.key });
        expect(assign.http).toBe(503);
        expect(assign.body.status).toBe(-99);
        expect(assign.body.error).toMatch(/nothing was changed/);
        const create = await action(
          api,
          'createjobs',
          { autoassign: true, jobs: [{ destinationName: 'never', destinationLat: ZAGREB.lat, destinationLng: ZAGREB.lng }] },
          { key: c.key },
        );
        expect(create.http).toBe(503);
      } finally {
        config.DISPATCH_TIMEOUT_MS = saved;
      }
      await runs.await(busy);
      // the late runs have run by now (the thread is free): still nothing written
      await waitFor(
        'the late runs to finish',
        async () => {
          const rows: Array<{ n: number }> = await db.query(
            `SELECT count(*)::int AS n FROM worker_runs WHERE company_id = $1 AND state IN ('queued', 'running')`,
            [c.companyUid],
          );
          return rows[0].n === 0;
        },
        { timeoutMs: 20_000, intervalMs: 200 },
      );
      await new Promise((r) => setTimeout(r, 1000));
      expect((await workerIdsOf([job.id])).get(job.id)).toBeNull();
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM jobs WHERE company_id = $1`, [c.companyUid]);
      expect(n).toBe(1);
    });
  });
});
