import { newId } from '@app/core';
import { DataSource, QueryRunner } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import { Job } from './entities/job.entity';
import { newJobState } from './job-write';
import { JobsRepository } from './jobs.repository';
import { numberRoutes, RouteEntry, workerDayKey } from './route-numbers';

/**
 * The route-number statements of JobsRepository against PostgreSQL: `routeNumberTops` (the highest
 * number of a worker-day's live jobs, scoped to the company) and `lockRouteDays` (the worker-day's
 * advisory lock, held to the end of the transaction, per company), and `numberRoutes` over both.
 */
const D1 = 20300506;
const D2 = 20300507;

describe('route numbers (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: JobsRepository;
  let a: string;
  let b: string;
  let owner: string;
  let w1: string;
  let w2: string;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new JobsRepository(ds);
    const ca = await createIntCompany(ds);
    a = ca.companyId;
    owner = ca.ownerId;
    b = (await createIntCompany(ds)).companyId;
    w1 = await createIntMember(ds, a);
    w2 = await createIntMember(ds, a);
  });
  afterAll(() => ds.destroy());

  function job(companyId: string, over: Partial<Job> = {}): Job {
    return { ...newJobState({ id: newId(), companyId, isTemplate: false, createdBy: owner, createdVia: 'api', now: Date.now() }), ...over };
  }
  async function insert(...jobs: Job[]): Promise<Job[]> {
    await repo.insertMany(ds, jobs);
    return jobs;
  }

  /** Opens a transaction on its own connection (released by `end`). */
  async function begin(): Promise<QueryRunner & { end: () => Promise<void> }> {
    const qr = ds.createQueryRunner();
    await qr.connect();
    await qr.startTransaction();
    return Object.assign(qr, {
      end: async () => {
        await qr.commitTransaction();
        await qr.release();
      },
    });
  }
  /** Whether `p` settles within `ms`. */
  async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)));
    try {
      return await Promise.race([p.then(() => true), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  it('routeNumberTops: the highest number of each worker-day’s live jobs of the company, leaving out the excluded ones', async () => {
    const [, , , leaving] = await insert(
      job(a, { workerId: w1, day: D1, number: 2 }),
      job(a, { workerId: w1, day: D1, number: 5 }),
      job(a, { workerId: w1, day: D1, number: 90, archived: true }),
      job(a, { workerId: w1, day: D1, number: 9 }),
      job(a, { workerId: w1, day: D1, number: 70, isTemplate: true }),
      job(a, { workerId: w1, day: D2, number: 40 }),
      job(a, { workerId: w2, day: D1, number: -2 }),
      job(a, { day: D1, number: 50 }),
    );
    // another company's jobs on the same worker id and day never count
    await insert(job(b, { workerId: w1, day: D1, number: 1000 }), job(b, { workerId: w2, day: D2, number: 1000 }));
    const tops = await repo.routeNumberTops(
      ds,
      a,
      [
        { workerId: w1, day: D1 },
        { workerId: w2, day: D1 },
        { workerId: w2, day: D2 },
      ],
      [leaving.id],
    );
    expect(tops).toEqual(
      new Map([
        [workerDayKey(w1, D1), 5],
        [workerDayKey(w2, D1), -2],
      ]),
    );
    expect(await repo.routeNumberTops(ds, a, [{ workerId: w1, day: D1 }], [])).toEqual(new Map([[workerDayKey(w1, D1), 9]]));
    expect(await repo.routeNumberTops(ds, b, [{ workerId: w1, day: D1 }], [])).toEqual(new Map([[workerDayKey(w1, D1), 1000]]));
    expect(await repo.routeNumberTops(ds, a, [], [])).toEqual(new Map());
  });

  it('lockRouteDays: a worker-day of a company waits for the transaction holding it; other worker-days and companies do not', async () => {
    const t1 = await begin();
    await repo.lockRouteDays(t1.manager, a, [
      { workerId: w1, day: D1 },
      { workerId: w2, day: D1 },
    ]);
    const t2 = await begin();
    const t3 = await begin();
    try {
      const same = repo.lockRouteDays(t2.manager, a, [
        { workerId: w2, day: D2 },
        { workerId: w1, day: D1 },
      ]);
      expect(await settlesWithin(same, 500)).toBe(false);
      // the same worker and day in another company, and another day of the company: free
      await repo.lockRouteDays(t3.manager, b, [{ workerId: w1, day: D1 }]);
      await repo.lockRouteDays(t3.manager, a, [{ workerId: w1, day: D2 }]);
      await t1.end();
      expect(await settlesWithin(same, 5000)).toBe(true);
    } finally {
      await t2.end();
      await t3.end();
      if (!t1.isReleased) await t1.end();
    }
  });

  it('numberRoutes: two transactions landing jobs on one worker-day never share a number', async () => {
    const c = (await createIntCompany(ds)).companyId;
    const w = await createIntMember(ds, c);
    await insert(job(c, { workerId: w, day: D1, number: 3 }));
    const landing = (): RouteEntry[] => [0, 1].map(() => ({ before: null, after: job(c, { workerId: w, day: D1 }), numberSent: false }));
    const t1 = await begin();
    const t2 = await begin();
    try {
      const first = landing();
      await numberRoutes(repo, t1.manager, c, first);
      await repo.insertMany(t1.manager, first.map((e) => e.after));
      const second = landing();
      // t2 waits for t1's lock, then sees t1's jobs
      const done = numberRoutes(repo, t2.manager, c, second).then(() => repo.insertMany(t2.manager, second.map((e) => e.after)));
      expect(await settlesWithin(done, 500)).toBe(false);
      await t1.end();
      await done;
      await t2.end();
      expect(first.map((e) => e.after.number)).toEqual([4, 5]);
      expect(second.map((e) => e.after.number)).toEqual([6, 7]);
    } finally {
      if (!t1.isReleased) await t1.end();
      if (!t2.isReleased) await t2.end();
    }
  });
});
