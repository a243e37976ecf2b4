import { DataSource } from 'typeorm';
import { createIntCompany, openIntegrationDb } from '@test/support/integration';
import { newEventId } from '../ids';
import { OutboxEventInput } from './outbox-events';
import { OutboxRepository } from './outbox.repository';
import { OutboxService } from './outbox.service';

/** An event of some action: the repository takes any input (the map is checked at the services). */
function event(companyId: string, formId: string, data: unknown): OutboxEventInput {
  return { companyId, eventKey: 'job_created', action: 'jobcreated', formId, data } as unknown as OutboxEventInput;
}

describe('OutboxRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: OutboxRepository;
  let a: string;
  let b: string;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new OutboxRepository(ds);
    a = (await createIntCompany(ds)).companyId;
    b = (await createIntCompany(ds)).companyId;
  });
  afterAll(() => ds.destroy());

  const rowsOf = (ids: string[]) =>
    ds.query(
      `SELECT id, company_id AS "companyId", event_key AS "eventKey", action, form_id AS "formId", payload, created_at::float8 AS "createdAt"
         FROM outbox_events WHERE id = ANY($1::text[]) ORDER BY id`,
      [ids],
    );

  it('inserts events in the caller transaction, each with its company, payload verbatim and the database clock', async () => {
    const ids = [newEventId(), newEventId()];
    const data = [{ a: 'ü "quoted" \\ \n', n: 1.5 }, [{ x: null }]];
    const before = Date.now();
    await ds.transaction((m) => repo.insertMany(m, ids, [event(a, 'F1', data[0]), event(b, 'F2', data[1])]));
    const rows = await rowsOf(ids);
    expect(rows.map((r: { companyId: string; formId: string }) => [r.companyId, r.formId])).toEqual([
      [a, 'F1'],
      [b, 'F2'],
    ]);
    expect(rows[0].payload).toBe(JSON.stringify(data[0]));
    expect(rows[1].payload).toBe(JSON.stringify(data[1]));
    expect(rows[0]).toMatchObject({ eventKey: 'job_created', action: 'jobcreated' });
    expect(rows[0].createdAt).toBeGreaterThanOrEqual(before - 1000);
  });

  it("writes an event's payload bytes (dataUtf8) as they are, beside events serialised from data", async () => {
    const ids = [newEventId(), newEventId(), newEventId()];
    // key order and spacing JSON.stringify(data) would not give: the bytes are what is stored
    const text = '[{"name": "Potočnik — 🚚",  "n":1.50}]';
    const withBytes = { ...event(a, 'F9', [{ name: 'ignored' }]), dataUtf8: Buffer.from(text) } as OutboxEventInput;
    await ds.transaction((m) => repo.insertMany(m, ids, [event(a, 'F10', { k: 'Kovač' }), withBytes, event(a, 'F11', [1])]));
    expect((await rowsOf(ids)).map((r: { payload: string }) => r.payload)).toEqual([JSON.stringify({ k: 'Kovač' }), text, '[1]']);
  });

  it('writes nothing when the transaction rolls back', async () => {
    const ids = [newEventId()];
    await expect(
      ds.transaction(async (m) => {
        await repo.insertMany(m, ids, [event(a, 'F3', {})]);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await rowsOf(ids)).toEqual([]);
  });

  it('deletes by id only the events named', async () => {
    const ids = [newEventId(), newEventId()];
    await ds.transaction((m) => repo.insertMany(m, ids, [event(a, 'F4', {}), event(b, 'F5', {})]));
    expect(await repo.deleteByIds([ids[0], 'no-such-event'])).toBe(1);
    expect((await rowsOf(ids)).map((r: { id: string }) => r.id)).toEqual([ids[1]]);
    expect(await repo.deleteByIds([])).toBe(0);
  });

  it('OutboxService.appendMany refuses to run outside a transaction and keeps the order in the ids', async () => {
    const outbox = new OutboxService(repo);
    await expect(outbox.appendMany(ds.manager, [event(a, 'F6', {})])).rejects.toThrow('inside a transaction');
    const ids = await ds.transaction((m) => outbox.appendMany(m, [event(a, 'F7', 1), event(a, 'F8', 2)]));
    expect(ids).toEqual([...ids].sort());
    expect((await rowsOf(ids)).map((r: { formId: string }) => r.formId)).toEqual(['F7', 'F8']);
  });
});
