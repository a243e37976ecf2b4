import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createIntCompany, openIntegrationDb } from '@test/support/integration';
import { OutboxEventInput } from './outbox-events';
import { OUTBOX_CHANNEL, OutboxRepository, STREAM_CHANNEL } from './outbox.repository';
import { OutboxService } from './outbox.service';

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
    expect(await repo.stamp(a)).toEqual({ stamped: 2, lastSeq: 2 });
    await open.commitTransaction();
    await open.release();
    expect(await repo.stamp(a)).toEqual({ stamped: 1, lastSeq: 3 });
    expect(await repo.stamp(a)).toEqual({ stamped: 0, lastSeq: 3 });
    expect(await seqOf(a)).toEqual([
      { formId: 'E2', seq: 1 },
      { formId: 'E3', seq: 2 },
      { formId: 'E1', seq: 3 },
    ]);
    expect(await repo.unstampedCompanies()).toContain(b);
    expect(await repo.stamp(b)).toEqual({ stamped: 1, lastSeq: 1 });
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
