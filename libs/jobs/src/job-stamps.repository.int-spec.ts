import { newId, OutboxRepository } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, openIntegrationDb } from '@test/support/integration';
import { newJobState } from './job-write';
import { JobStampsRepository } from './job-stamps.repository';
import { JobsRepository } from './jobs.repository';

/**
 * The jobs' commit stamps against PostgreSQL (docs/connector.md, "Polling triggers"): null on insert,
 * nulled by any update (the `jobs_unstamp` trigger, raw SQL too), set by a stamping of the company
 * only, never waiting on a writer's row lock, and found by the safety pass and a poll's check.
 */
describe('JobStampsRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let jobs: JobsRepository;
  let stamps: JobStampsRepository;
  let outbox: OutboxRepository;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    jobs = new JobsRepository(ds);
    stamps = new JobStampsRepository(ds);
    outbox = new OutboxRepository(ds);
  });
  afterAll(() => ds.destroy());

  const insert = async (companyId: string) => {
    const j = newJobState({ id: newId(), companyId, isTemplate: false, createdBy: 'M', createdVia: 'api', now: Date.now() });
    await jobs.insertMany(ds, [j]);
    return j;
  };
  const stampOf = async (id: string) =>
    (await ds.query(`SELECT created_stamp::float8 AS c, saved_stamp::float8 AS s FROM jobs WHERE id = $1`, [id]))[0] as {
      c: number | null;
      s: number | null;
    };

  it('a stamping stamps the company’s committed jobs only, with its stamp; updates null saved_stamp, whatever writes them', async () => {
    const a = (await createIntCompany(ds)).companyId;
    const b = (await createIntCompany(ds)).companyId;
    const ja = await insert(a);
    const jb = await insert(b);
    expect(await stampOf(ja.id)).toEqual({ c: null, s: null });
    expect(await stamps.hasUnstamped(a)).toBe(true);
    expect(await stamps.unstampedCompanies()).toEqual(expect.arrayContaining([a, b]));
    const r = await outbox.stamp(a, [stamps]);
    expect(r).toMatchObject({ stamped: 0, rows: 1 });
    const first = await stampOf(ja.id);
    expect(first.c).toBe(first.s);
    expect(first.c).toBeGreaterThanOrEqual(r.stampedAt);
    // never below the job's own clocks
    const [clocks] = await ds.query(`SELECT created_at::float8 AS c, ts_saved::float8 AS s FROM jobs WHERE id = $1`, [ja.id]);
    expect(first.c).toBeGreaterThanOrEqual(Math.max(clocks.c, clocks.s));
    expect(await stampOf(jb.id)).toEqual({ c: null, s: null });
    expect(await stamps.hasUnstamped(a)).toBe(false);
    expect(await stamps.unstampedCompanies()).not.toContain(a);
    // a raw update (no repository) is caught by the trigger; the created stamp stays
    await ds.query(`UPDATE jobs SET priority = 3 WHERE id = $1`, [ja.id]);
    expect(await stampOf(ja.id)).toEqual({ c: first.c, s: null });
    await new Promise((res) => setTimeout(res, 3));
    const r2 = await outbox.stamp(a, [stamps]);
    expect(r2.stampedAt).toBeGreaterThan(first.s!);
    const second = await stampOf(ja.id);
    expect(second.c).toBe(first.c);
    expect(second.s).toBeGreaterThanOrEqual(r2.stampedAt);
    // nothing left: a stamping stamps nothing, and the stamp never goes back (not below the job's either)
    const r3 = await outbox.stamp(a, [stamps]);
    expect(r3.rows).toBe(0);
    expect(r3.stampedAt).toBeGreaterThanOrEqual(second.s!);
  });

  it('never waits for a writer holding a job: skips it, and a later stamping (after the writer commits) stamps it', async () => {
    const a = (await createIntCompany(ds)).companyId;
    const held = await insert(a);
    const free = await insert(a);
    const writer = ds.createQueryRunner();
    await writer.connect();
    await writer.startTransaction();
    try {
      await writer.query(`UPDATE jobs SET priority = 5 WHERE id = $1`, [held.id]);
      const r = await Promise.race([
        outbox.stamp(a, [stamps]),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the stamping waited for the writer')), 5000)),
      ]);
      expect(r.rows).toBe(1);
      expect((await stampOf(free.id)).s).toBeGreaterThanOrEqual(r.stampedAt);
      expect(await stampOf(held.id)).toEqual({ c: null, s: null });
      await writer.commitTransaction();
    } finally {
      await writer.release();
    }
    const r2 = await outbox.stamp(a, [stamps]);
    expect(r2.rows).toBe(1);
    const late = await stampOf(held.id);
    expect(late.c).toBe(late.s);
    expect(late.s).toBeGreaterThanOrEqual(r2.stampedAt);
  });
});
