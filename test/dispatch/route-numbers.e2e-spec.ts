import { DataSource } from 'typeorm';
import { action, createCompany, createMember, TestApi, TestCompany } from '../support/api';
import { useWorkerStack } from '../support/worker-stack';

/**
 * Route numbers end to end (CONTRACTS.md "Wave 3: reports and the demo", docs/jobs-writes.md "Route
 * numbers"): a job that createjobs, editjobs or autoassign lands on a worker-day without a `number`
 * of its own gets the worker-day's next one — concurrent calls never share one — and the events carry
 * it. The in-process api, the BUILT worker for autoassign, real PostgreSQL. Needs `npm run build`.
 */
const PREFIX = `fieldwork-route-numbers-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;

const DAY = 20300506;
const NEXT_DAY = 20300507;
const ZAGREB = { lat: 45.815, lng: 15.982 };
const SPLIT = { lat: 43.508, lng: 16.44 };

interface Job {
  id: string;
  number: number;
  worker: string;
  day: number;
}
type Member = { uid: string; username: string; key: string };

describe('route numbers', () => {
  const stack = useWorkerStack(PREFIX, { CPU_POOL_THREADS: '1' });
  let api: TestApi;
  let db: DataSource;
  beforeAll(() => ({ api, db } = stack));

  let c: TestCompany;
  let a: Member;
  let b: Member;
  beforeEach(async () => {
    c = await createCompany(api, { timezone: 'Europe/Zagreb' });
    a = await createMember(api, c, { role: 'worker' });
    b = await createMember(api, c, { role: 'worker' });
  });

  async function create(jobs: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}): Promise<Job[]> {
    const res = await action<{ jobs: Job[] }>(api, 'createjobs', { jobs, ...extra }, { key: c.key });
    expect(res.body).toMatchObject({ status: 0 });
    return res.body.jobs;
  }
  async function edit(jobs: Record<string, Record<string, unknown>>): Promise<Job[]> {
    const res = await action<{ jobs: Job[] }>(api, 'editjobs', { jobs }, { key: c.key });
    expect(res.body).toMatchObject({ status: 0 });
    return res.body.jobs;
  }
  /** The stored numbers of a worker's day, in route order. */
  async function route(m: Member, day = DAY): Promise<number[]> {
    const res = await action<{ jobs: Job[] }>(api, 'getjobs', { day, worker: m.username }, { key: c.key });
    expect(res.body.status).toBe(0);
    return res.body.jobs.map((j) => j.number);
  }
  /** The `number` in the payload of the newest event of a job. */
  async function eventNumber(jobId: string): Promise<{ action: string; number: number }> {
    const [ev] = await db.query(`SELECT action, payload FROM outbox_events WHERE company_id = $1 AND form_id = $2 ORDER BY id DESC LIMIT 1`, [
      c.companyUid,
      jobId,
    ]);
    return { action: ev.action, number: JSON.parse(ev.payload)[0].number };
  }
  const numbers = (jobs: Job[]) => jobs.map((j) => j.number);
  const at = (p: { lat: number; lng: number }, dLat = 0) => ({ destinationLat: p.lat + dLat, destinationLng: p.lng });

  describe('createjobs', () => {
    it('numbers each worker-day on from its highest number, in input order; the event and getjobs carry the number', async () => {
      const first = await create([
        { destinationName: 'a1', worker: a.username, day: DAY },
        { destinationName: 'b1', worker: b.username, day: DAY },
        { destinationName: 'a2', worker: a.username, day: DAY },
        { destinationName: 'a-next-day', worker: a.username, day: NEXT_DAY },
      ]);
      expect(numbers(first)).toEqual([1, 1, 2, 1]);
      const more = await create([{ destinationName: 'a3', worker: a.username, day: DAY }]);
      expect(more[0].number).toBe(3);
      expect(await eventNumber(more[0].id)).toEqual({ action: 'jobcreated', number: 3 });
      expect(await route(a)).toEqual([1, 2, 3]);
    });

    it('a number the client sends wins, and the next job continues after it', async () => {
      await create([{ destinationName: 'a1', worker: a.username, day: DAY }]);
      const jobs = await create([
        { destinationName: 'sent', worker: a.username, day: DAY, number: 10 },
        { destinationName: 'after', worker: a.username, day: DAY },
      ]);
      expect(numbers(jobs)).toEqual([10, 11]);
      expect(await route(a)).toEqual([1, 10, 11]);
    });

    it('a job without a worker or without a day keeps the number sent, else 0', async () => {
      const jobs = await create([
        { destinationName: 'pool', day: DAY },
        { destinationName: 'pool, numbered', day: DAY, number: 7 },
        { destinationName: 'undated', worker: a.username },
        { destinationName: 'undated, numbered', worker: a.username, number: 4 },
      ]);
      expect(numbers(jobs)).toEqual([0, 7, 0, 4]);
    });

    it('concurrent calls onto one worker-day never share a number', async () => {
      const calls = 4;
      const perCall = 5;
      const answers = await Promise.all(
        Array.from({ length: calls }, (_, k) =>
          create(Array.from({ length: perCall }, (_, i) => ({ destinationName: `c${k}-${i}`, worker: a.username, day: DAY }))),
        ),
      );
      const all = answers.flatMap(numbers).sort((x, y) => x - y);
      expect(all).toEqual(Array.from({ length: calls * perCall }, (_, i) => i + 1));
      // each call's jobs are consecutive: one call held the worker-day at a time
      for (const jobs of answers) expect(numbers(jobs)).toEqual(numbers(jobs).map((_, i) => jobs[0].number + i));
      expect(await route(a)).toEqual(all);
    });
  });

  describe('editjobs', () => {
    it('assigning, reassigning or moving a job to another day gives it the next number; its old one is dropped', async () => {
      await create([1, 2, 3].map((i) => ({ destinationName: `a${i}`, worker: a.username, day: DAY })));
      const [onB, pool, later] = await create([
        { destinationName: 'b8', worker: b.username, day: DAY, number: 8 },
        { destinationName: 'pool', day: DAY, number: 15 },
        { destinationName: 'a next day', worker: a.username, day: NEXT_DAY, number: 6 },
      ]);
      const [moved] = await edit({ [onB.id]: { worker: a.username } });
      expect(moved.number).toBe(4);
      expect(await eventNumber(onB.id)).toEqual({ action: 'jobupdated', number: 4 });
      const [assigned] = await edit({ [pool.id]: { worker: a.username } });
      expect(assigned.number).toBe(5);
      const [dayMoved] = await edit({ [later.id]: { day: DAY } });
      expect(dayMoved.number).toBe(6);
      expect(await route(a)).toEqual([1, 2, 3, 4, 5, 6]);
    });

    it('several jobs landing in one call are numbered in the order sent; a number sent with the move wins', async () => {
      await create([{ destinationName: 'a1', worker: a.username, day: DAY }]);
      const [x, y, z] = await create([
        { destinationName: 'x', worker: b.username, day: DAY, number: 1 },
        { destinationName: 'y', worker: b.username, day: DAY, number: 2 },
        { destinationName: 'z', worker: b.username, day: DAY, number: 3 },
      ]);
      const jobs = await edit({ [z.id]: { worker: a.username }, [x.id]: { worker: a.username, number: 20 }, [y.id]: { worker: a.username } });
      expect(jobs.map((j) => [j.id, j.number])).toEqual([
        [z.id, 21],
        [x.id, 20],
        [y.id, 22],
      ]);
    });

    it('an edit that leaves the job on its worker-day keeps its number; unassigning keeps it too', async () => {
      const [j1, j2] = await create([
        { destinationName: 'a1', worker: a.username, day: DAY },
        { destinationName: 'a2', worker: a.username, day: DAY },
      ]);
      const [renamed] = await edit({ [j1.id]: { destinationName: 'renamed', worker: a.username, day: DAY } });
      expect(renamed.number).toBe(1);
      const [unassigned] = await edit({ [j2.id]: { worker: '' } });
      expect(unassigned).toMatchObject({ worker: '', number: 2 });
    });
  });

  describe('autoassign', () => {
    it('the assigned jobs continue each worker-day’s numbering, without gaps from their old numbers', async () => {
      await create([
        { destinationName: 'a1', worker: a.username, day: DAY, ...at(ZAGREB) },
        { destinationName: 'a2', worker: a.username, day: DAY, ...at(ZAGREB, 0.01) },
        { destinationName: 'b1', worker: b.username, day: DAY, ...at(SPLIT) },
      ]);
      // old numbers from an earlier plan: 8, 9, 15, 4
      const open = await create([
        { destinationName: 'z1', day: DAY, number: 8, ...at(ZAGREB, 0.02) },
        { destinationName: 'z2', day: DAY, number: 9, ...at(ZAGREB, 0.03) },
        { destinationName: 'z3', day: DAY, number: 15, ...at(ZAGREB, 0.04) },
        { destinationName: 's1', day: DAY, number: 4, ...at(SPLIT, 0.01) },
      ]);
      const res = await action<{ assignedJobs: string[]; jobs: Job[] }>(
        api,
        'autoassign',
        { jobs: open.map((j) => j.id), workers: [a.username, b.username] },
        { key: c.key },
      );
      expect(res.body.status).toBe(0);
      expect(res.body.assignedJobs).toEqual(open.map((j) => j.id));
      const byId = new Map(res.body.jobs.map((j) => [j.id, j]));
      expect(open.slice(0, 3).map((j) => byId.get(j.id)!.worker)).toEqual([a.username, a.username, a.username]);
      expect(byId.get(open[3].id)).toMatchObject({ worker: b.username, number: 2 });
      expect(
        open
          .slice(0, 3)
          .map((j) => byId.get(j.id)!.number)
          .sort(),
      ).toEqual([3, 4, 5]);
      expect(await route(a)).toEqual([1, 2, 3, 4, 5]);
      expect(await route(b)).toEqual([1, 2]);
      for (const j of open) expect(await eventNumber(j.id)).toEqual({ action: 'jobupdated', number: byId.get(j.id)!.number });
    });

    it('createjobs with autoassign continues the worker-day too; a job naming its assignee and number keeps it', async () => {
      await create([{ destinationName: 'a1', worker: a.username, day: DAY, ...at(ZAGREB) }]);
      await action(api, 'deleteaccount', { uid: b.uid }, { key: c.key });
      const res = await action<{ jobs: Job[] }>(
        api,
        'createjobs',
        {
          autoassign: true,
          jobs: [
            { destinationName: 'n1', day: DAY, number: 30, ...at(ZAGREB, 0.01) },
            { destinationName: 'n2', day: DAY, ...at(ZAGREB, 0.02) },
            { destinationName: 'explicit', day: DAY, worker: a.username, number: 12, ...at(ZAGREB, 0.03) },
          ],
        },
        { key: c.key },
      );
      expect(res.body.status).toBe(0);
      const [n1, n2, explicit] = res.body.jobs;
      expect([n1.worker, n2.worker, explicit.worker]).toEqual([a.username, a.username, a.username]);
      // n1's number was sent: it stays 30; n2 continues after the call's highest (30)
      expect([n1.number, n2.number, explicit.number]).toEqual([30, 31, 12]);
    });
  });
});
