import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createIntCompany, openIntegrationDb } from '@test/support/integration';
import { newId } from '../ids';
import { RUN_CHANNEL } from './run-listener.service';
import { WorkerRunsRepository } from './worker-runs.repository';

describe('WorkerRunsRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: WorkerRunsRepository;
  let a: string;
  let b: string;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new WorkerRunsRepository(ds);
    a = (await createIntCompany(ds)).companyId;
    b = (await createIntCompany(ds)).companyId;
  });
  afterAll(() => ds.destroy());

  async function queued(
    companyId: string,
    opts: { timeoutMs?: number; writeByAnswer?: boolean; maxRunMs?: number | null; readPosition?: boolean } = {},
  ): Promise<string> {
    const id = newId();
    await repo.insertQueued({
      companyId,
      id,
      memberId: null,
      kind: 'test.echo',
      params: { value: 1 },
      timeoutMs: opts.timeoutMs ?? 30_000,
      writeByAnswer: opts.writeByAnswer ?? true,
      maxRunMs: opts.maxRunMs ?? null,
      readPosition: opts.readPosition,
    });
    return id;
  }

  it('inserts a queued run and finds it in its company only', async () => {
    const id = await queued(a);
    expect(await repo.find(a, id)).toMatchObject({
      id,
      kind: 'test.echo',
      state: 'queued',
      memberId: null,
      result: null,
      error: null,
      finishedAt: null,
    });
    expect(await repo.find(b, id)).toBeUndefined();
  });

  it('takes a queued run once (another company cannot), with write_by = answer_by or start + max_run_ms', async () => {
    const dispatch = await queued(a, { timeoutMs: 30_000, writeByAnswer: true });
    expect(await repo.take(b, dispatch)).toBeUndefined();
    const taken = await repo.take(a, dispatch);
    expect(taken).toMatchObject({ kind: 'test.echo', params: { value: 1 }, memberId: null });
    expect(taken!.writeBy).toBeGreaterThan(Date.now() + 25_000);
    expect(await repo.take(a, dispatch)).toBeUndefined(); // running now

    const report = await queued(a, { timeoutMs: 1_000, writeByAnswer: false, maxRunMs: 600_000 });
    expect((await repo.take(a, report))!.writeBy).toBeGreaterThan(Date.now() + 500_000);
  });

  it("records the primary's WAL position in the insert when asked (reports), and answers it on take", async () => {
    const [{ before }] = await ds.query(`SELECT pg_current_wal_insert_lsn()::text AS before`);
    const report = await queued(a, { writeByAnswer: false, maxRunMs: 600_000, readPosition: true });
    const [{ after }] = await ds.query(`SELECT pg_current_wal_insert_lsn()::text AS after`);
    const taken = await repo.take(a, report);
    expect(taken!.readLsn).toMatch(/^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/);
    // taken after everything committed before the call, before the insert's own commit
    const [order] = await ds.query(`SELECT $1::pg_lsn >= $2::pg_lsn AS past_before, $1::pg_lsn <= $3::pg_lsn AS before_after`, [
      taken!.readLsn,
      before,
      after,
    ]);
    expect(order).toEqual({ past_before: true, before_after: true });
    expect((await repo.take(a, await queued(a)))!.readLsn).toBeNull();
  });

  it('locks a run with the database clock, finishes only a running run and notifies at commit', async () => {
    const id = await queued(a);
    const listener = new Client({ connectionString: process.env.DATABASE_URL });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(n.payload ?? ''));
    await listener.query(`LISTEN ${RUN_CHANNEL}`);
    try {
      expect(await repo.finish(ds, a, id, 'done', { v: 1 }, null)).toBe(false); // still queued
      await repo.take(a, id);
      await repo.transaction(async (m) => {
        const locked = await repo.lock(m, a, id);
        expect(locked).toMatchObject({ state: 'running' });
        expect(Math.abs(locked!.now - Date.now())).toBeLessThan(5_000);
        expect(await repo.clockNow(m)).toBeGreaterThanOrEqual(locked!.now);
        expect(await repo.lock(m, b, id)).toBeUndefined();
        expect(await repo.finish(m, b, id, 'done', { v: 0 }, null)).toBe(false); // another company's id
        expect(await repo.finish(m, a, id, 'done', { v: 1 }, null)).toBe(true);
      });
      expect(await repo.find(a, id)).toMatchObject({ state: 'done', result: { v: 1 }, error: null });
      for (let i = 0; i < 50 && !heard.includes(id); i++) await new Promise((r) => setTimeout(r, 20));
      expect(heard).toContain(id);
      expect(await repo.finishOutside(a, id, 'failed', { message: 'late' })).toBe(false); // finished already
    } finally {
      await listener.end();
    }
  });

  it('fails a run only while queued, expires it only while open, within its company', async () => {
    const id = await queued(a);
    expect(await repo.failQueued(b, id, { message: 'x' })).toBe(false);
    expect(await repo.failQueued(a, id, { message: 'queue unavailable', kind: 'unavailable' })).toBe(true);
    expect(await repo.find(a, id)).toMatchObject({ state: 'failed', error: { message: 'queue unavailable', kind: 'unavailable' } });
    expect(await repo.failQueued(a, id, { message: 'again' })).toBe(false);

    const open = await queued(a);
    await repo.expireOpen(b, open, { message: 'not yours' });
    expect((await repo.find(a, open))!.state).toBe('queued');
    await repo.expireOpen(a, open, { message: 'the api stopped waiting at answer_by' });
    expect(await repo.find(a, open)).toMatchObject({ state: 'expired', error: { message: 'the api stopped waiting at answer_by' } });
    await repo.expireOpen(a, open, { message: 'again' });
    expect((await repo.find(a, open))!.error).toEqual({ message: 'the api stopped waiting at answer_by' });
  });

  it('sweeps runs past their write deadline, and only those', async () => {
    const late = await queued(a, { timeoutMs: -60_000, writeByAnswer: true }); // answer_by and write_by a minute ago
    const fresh = await queued(b, { timeoutMs: 60_000, writeByAnswer: true });
    expect(await repo.sweep({ message: 'no worker finished it before write_by' })).toBeGreaterThanOrEqual(1);
    expect(await repo.find(a, late)).toMatchObject({ state: 'expired', error: { message: 'no worker finished it before write_by' } });
    expect((await repo.find(b, fresh))!.state).toBe('queued');
  });
});
