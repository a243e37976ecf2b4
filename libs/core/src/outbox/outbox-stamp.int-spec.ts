import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createIntCompany, openIntegrationDb } from '@test/support/integration';
import { OutboxEventInput } from './outbox-events';
import { OUTBOX_CHANNEL, OutboxRepository, STREAM_CHANNEL } from './outbox.repository';
import { OutboxService } from './outbox.service';
import { OutboxStamping } from './outbox-stamping.service';
import { StampParticipants } from './stamp-participants';

const event = (companyId: string, formId: string): OutboxEventInput =>
  ({ companyId, eventKey: 'job_created', action: 'jobcreated', formId, data: [{ id: formId }] }) as unknown as OutboxEventInput;

describe('OutboxRepository.stamp (PostgreSQL): the company sequence, after commit, in commit order', () => {
  let ds: DataSource;
  let repo: OutboxRepository;
  let outbox: OutboxService;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new OutboxRepository(ds);
    outbox = new OutboxService(repo);
  });
  afterAll(() => ds.destroy());

  const seqOf = async (companyId: string) =>
    (await ds.query(`SELECT form_id AS "formId", seq::float8 AS seq FROM outbox_events WHERE company_id = $1 ORDER BY seq NULLS LAST, id`, [
      companyId,
    ])) as Array<{
      formId: string;
      seq: number | null;
    }>;

  it('numbers committed events 1, 2, 3… per company; a transaction still open is numbered after the ones committed before it', async () => {
    const a = (await createIntCompany(ds)).companyId;
    const b = (await createIntCompany(ds)).companyId;
    // E1 takes the earliest id but commits last
    const open = ds.createQueryRunner();
    await open.connect();
    await open.startTransaction();
    await outbox.appendMany(open.manager, [event(a, 'E1')]);
    await ds.transaction((m) => outbox.appendMany(m, [event(a, 'E2'), event(a, 'E3'), event(b, 'B1')]));
    expect(await repo.stamp(a)).toMatchObject({ stamped: 2, lastSeq: 2 });
    await open.commitTransaction();
    await open.release();
    expect(await repo.stamp(a)).toMatchObject({ stamped: 1, lastSeq: 3 });
    expect(await repo.stamp(a)).toMatchObject({ stamped: 0, lastSeq: 3 });
    expect(await seqOf(a)).toEqual([
      { formId: 'E2', seq: 1 },
      { formId: 'E3', seq: 2 },
      { formId: 'E1', seq: 3 },
    ]);
    expect(await repo.unstampedCompanies()).toContain(b);
    expect(await repo.stamp(b)).toMatchObject({ stamped: 1, lastSeq: 1 });
    expect(await repo.unstampedCompanies()).not.toContain(b);
  });

  it('concurrent stampings of one company (several processes) never give a number twice or leave a gap', async () => {
    const a = (await createIntCompany(ds)).companyId;
    const writers = Array.from({ length: 8 }, (_, w) =>
      (async () => {
        for (let i = 0; i < 10; i++) await ds.transaction((m) => outbox.appendMany(m, [event(a, `w${w}-${i}`)]));
      })(),
    );
    const stampers = Array.from({ length: 4 }, () =>
      (async () => {
        for (let i = 0; i < 15; i++) await repo.stamp(a);
      })(),
    );
    await Promise.all([...writers, ...stampers]);
    await repo.stamp(a);
    const rows = await seqOf(a);
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
    // each writer's events in its own commit order
    for (let w = 0; w < 8; w++) {
      const mine = rows.filter((r) => r.formId.startsWith(`w${w}-`)).map((r) => r.formId);
      expect(mine).toEqual(Array.from({ length: 10 }, (_, i) => `w${w}-${i}`));
    }
  });

  it('wait: false answers busy at once while another stamping of the company holds its lock, writing nothing; wait: true waits for it', async () => {
    const a = (await createIntCompany(ds)).companyId;
    const b = (await createIntCompany(ds)).companyId;
    await ds.transaction((m) => outbox.appendMany(m, [event(a, 'A1'), event(b, 'B1')]));
    // a stamping of company a in progress (its lock taken, not committed)
    const holder = ds.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    await holder.query(`SELECT pg_advisory_xact_lock(hashtextextended('outbox.stamp:' || $1::text, 0))`, [a]);
    try {
      const t0 = performance.now();
      expect(await repo.stamp(a, [], { wait: false })).toEqual({ stamped: 0, lastSeq: -1, stampedAt: -1, rows: 0, busy: true });
      expect(performance.now() - t0).toBeLessThan(2_000); // did not wait for the holder
      expect(await seqOf(a)).toEqual([{ formId: 'A1', seq: null }]);
      // another company's stamping is not held up
      expect(await repo.stamp(b, [], { wait: false })).toMatchObject({ stamped: 1, lastSeq: 1, busy: false });
      let waited = false;
      const waiting = repo.stamp(a).then((r) => ((waited = true), r));
      await new Promise((r) => setTimeout(r, 300));
      expect(waited).toBe(false);
      await holder.commitTransaction();
      expect(await waiting).toMatchObject({ stamped: 1, lastSeq: 1, busy: false });
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
  });

  it('a nudge that meets another process stamping skips; that process, hearing the same commit during its stamping, stamps once more', async () => {
    const a = (await createIntCompany(ds)).companyId;
    // process 1's stamping stops inside its transaction (lock held, events numbered) until released
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let gated = true;
    const participants1 = new StampParticipants();
    participants1.register({
      name: 'gate',
      stamp: async (_db, _company, floor) => {
        if (gated) {
          gated = false;
          entered();
          await gate;
        }
        return { rows: 0, stampedAt: floor };
      },
      unstampedCompanies: async () => [],
    });
    const p1 = new OutboxStamping(new OutboxRepository(ds), participants1);
    const p2 = new OutboxStamping(new OutboxRepository(ds), new StampParticipants());
    await ds.transaction((m) => outbox.appendMany(m, [event(a, 'E1')]));
    const first = p1.nudge(a);
    await inside; // E1 numbered, the lock held, the snapshot taken before E2
    await ds.transaction((m) => outbox.appendMany(m, [event(a, 'E2')]));
    await p2.nudge(a); // E2's wake-up in process 2: busy, skipped
    expect(p2.stats).toMatchObject({ skipped: 1, stamped: 0 });
    const joined = p1.nudge(a); // E2's wake-up in process 1, during its stamping
    release();
    await Promise.all([first, joined]);
    expect(await seqOf(a)).toEqual([
      { formId: 'E1', seq: 1 },
      { formId: 'E2', seq: 2 },
    ]);
    expect(p1.stats).toMatchObject({ stampings: 2, stamped: 2 });
  });

  it('nudges from several processes after every commit, skipping when busy, leave no event unstamped, with no gap', async () => {
    const a = (await createIntCompany(ds)).companyId;
    // three api processes' stampings, each hearing every commit (as the outbox NOTIFY reaches every listener)
    const processes = Array.from({ length: 3 }, () => new OutboxStamping(new OutboxRepository(ds), new StampParticipants()));
    const nudges: Array<Promise<void>> = [];
    const writers = Array.from({ length: 6 }, (_, w) =>
      (async () => {
        for (let i = 0; i < 12; i++) {
          await ds.transaction((m) => outbox.appendMany(m, [event(a, `w${w}-${i}`)]));
          for (const p of processes) nudges.push(new Promise((r) => setTimeout(r, Math.random() * 5)).then(() => p.nudge(a)));
        }
      })(),
    );
    await Promise.all(writers);
    await Promise.all(nudges);
    // no kick, no sweep: the nudges alone stamped every event
    const rows = await seqOf(a);
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 72 }, (_, i) => i + 1));
    const stats = processes.map((p) => p.stats);
    expect(stats.reduce((n, s) => n + s.stamped, 0)).toBe(72);
    // the lock was met busy, or this test shows nothing about skipping
    expect(stats.reduce((n, s) => n + s.skipped, 0)).toBeGreaterThan(0);
    await Promise.all(processes.map((p) => p.close()));
  });

  it('notifies at commit: the outbox channel with the company when events are written (never on rollback), the stream channel with company:lastSeq when stamped', async () => {
    const a = (await createIntCompany(ds)).companyId;
    const listener = new Client({ connectionString: process.env.DATABASE_URL });
    await listener.connect();
    const heard: Array<[string, string]> = [];
    listener.on('notification', (n) => heard.push([n.channel, n.payload ?? '']));
    await listener.query(`LISTEN ${OUTBOX_CHANNEL}; LISTEN ${STREAM_CHANNEL}`);
    try {
      await ds
        .transaction(async (m) => {
          await outbox.appendMany(m, [event(a, 'R')]);
          throw new Error('rollback');
        })
        .catch(() => undefined);
      await ds.transaction((m) => outbox.appendMany(m, [event(a, 'N1'), event(a, 'N2')]));
      await repo.stamp(a);
      await repo.stamp(a); // nothing new: no notification
      await new Promise((r) => setTimeout(r, 200));
      expect(heard.filter(([, p]) => p.startsWith(a))).toEqual([
        [OUTBOX_CHANNEL, a],
        [STREAM_CHANNEL, `${a}:2`],
      ]);
    } finally {
      await listener.end();
    }
  });

  it('writes each event audience: staff unless told otherwise, member ids once, empty ones dropped', async () => {
    const a = (await createIntCompany(ds)).companyId;
    await ds.transaction((m) =>
      outbox.appendMany(m, [
        { ...event(a, 'S'), audience: undefined },
        { ...event(a, 'M'), audience: { members: ['W1', null, '', 'W1', 'W2'] } },
        { ...event(a, 'P'), audience: { staff: false, members: ['W3'] } },
      ] as OutboxEventInput[]),
    );
    const rows = await ds.query(
      `SELECT form_id AS "formId", audience_staff AS staff, audience_members AS members FROM outbox_events WHERE company_id = $1 ORDER BY id`,
      [a],
    );
    expect(rows).toEqual([
      { formId: 'S', staff: true, members: [] },
      { formId: 'M', staff: true, members: ['W1', 'W2'] },
      { formId: 'P', staff: false, members: ['W3'] },
    ]);
  });
});

describe('OutboxRepository: stamped_at and the polling read', () => {
  let ds: DataSource;
  let repo: OutboxRepository;
  let outbox: OutboxService;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new OutboxRepository(ds);
    outbox = new OutboxService(repo);
  });
  afterAll(() => ds.destroy());

  const polled = (companyId: string, action: string, formId: string, members: string[] = []): OutboxEventInput =>
    ({
      companyId,
      eventKey: 'place_checked',
      action,
      formId,
      data: { formId },
      audience: { members },
    }) as unknown as OutboxEventInput;

  it('gives each stamping one stamp, never below an earlier one of the company, on every event it numbers', async () => {
    const a = (await createIntCompany(ds)).companyId;
    await ds.transaction((m) => outbox.appendMany(m, [event(a, 'A1'), event(a, 'A2')]));
    const r1 = await repo.stamp(a);
    await new Promise((r) => setTimeout(r, 3));
    await ds.transaction((m) => outbox.appendMany(m, [event(a, 'A3')]));
    const r2 = await repo.stamp(a);
    expect(r2.stampedAt).toBeGreaterThan(r1.stampedAt);
    // the clock going back (another server's) never makes a stamp go back
    await ds.query(`UPDATE outbox_sequences SET stamped_at = stamped_at + 3600000 WHERE company_id = $1`, [a]);
    await ds.transaction((m) => outbox.appendMany(m, [event(a, 'A4')]));
    const r3 = await repo.stamp(a);
    expect(r3.stampedAt).toBe(r2.stampedAt + 3_600_000);
    const rows = await ds.query(`SELECT form_id AS f, stamped_at::float8 AS s FROM outbox_events WHERE company_id = $1 ORDER BY seq`, [a]);
    expect(rows).toEqual([
      { f: 'A1', s: r1.stampedAt },
      { f: 'A2', s: r1.stampedAt },
      { f: 'A3', s: r2.stampedAt },
      { f: 'A4', s: r3.stampedAt },
    ]);
  });

  it('stampedEventsPage: stamped events of the actions asked, newest first by stamp then id, since inclusive, limit, audience, pending', async () => {
    const a = (await createIntCompany(ds)).companyId;
    const b = (await createIntCompany(ds)).companyId;
    await ds.transaction((m) =>
      outbox.appendMany(m, [
        polled(a, 'placecheckin', 'P1', ['W1']),
        polled(a, 'clockin', 'C1', ['W1']),
        event(a, 'J1'),
        polled(b, 'placecheckin', 'X'),
      ]),
    );
    const page = (q: Partial<Parameters<OutboxRepository['stampedEventsPage']>[0]>) =>
      repo.stampedEventsPage({ companyId: a, actions: ['placecheckin', 'placecheckout'], limit: 100, ...q } as never);
    expect(await page({})).toEqual({ pending: true, events: [] });
    const r1 = await repo.stamp(a);
    await new Promise((r) => setTimeout(r, 3));
    await ds.transaction((m) => outbox.appendMany(m, [polled(a, 'placecheckout', 'P2', ['W2']), polled(a, 'placecheckin', 'P3', ['W1'])]));
    const r2 = await repo.stamp(a);
    const got = await page({});
    expect(got.pending).toBe(false);
    expect(got.events.map((e) => [e.action, (e.data as { formId: string }).formId, e.createdAt])).toEqual([
      ['placecheckin', 'P3', r2.stampedAt],
      ['placecheckout', 'P2', r2.stampedAt],
      ['placecheckin', 'P1', r1.stampedAt],
    ]);
    expect(got.events[0].id > got.events[1].id).toBe(true); // ties by id, descending
    expect(got.events[0].id).toMatch(/^msg_/);
    expect((await page({ since: r1.stampedAt })).events).toHaveLength(3);
    expect((await page({ since: r1.stampedAt + 1 })).events.map((e) => (e.data as { formId: string }).formId)).toEqual(['P3', 'P2']);
    expect((await page({ limit: 1 })).events).toHaveLength(1);
    expect((await page({ limit: 0 })).events).toEqual([]);
    expect((await page({ actions: ['placecheckout'] } as never)).events.map((e) => e.action)).toEqual(['placecheckout']);
    expect((await page({ actions: ['clockin', 'clockout'] } as never)).events.map((e) => e.action)).toEqual(['clockin']);
    // a member sees the events naming it
    expect((await page({ memberId: 'W1' })).events.map((e) => (e.data as { formId: string }).formId)).toEqual(['P3', 'P1']);
    expect((await page({ memberId: 'W9' })).events).toEqual([]);
    await expect(page({ actions: ['jobcreated'] } as never)).rejects.toThrow('not a polled action');
  });
});
