import { newEventId, newId, OutboxEventInput, OutboxRepository } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, openIntegrationDb } from '@test/support/integration';
import { OutboxEventsRead } from './core-outbox-events.read';

describe('OutboxEventsRead (PostgreSQL)', () => {
  let ds: DataSource;
  let read: OutboxEventsRead;
  let outbox: OutboxRepository;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    read = new OutboxEventsRead(ds);
    outbox = new OutboxRepository(ds);
  });
  afterAll(() => ds.destroy());

  async function company(keys: string[]): Promise<string> {
    const { companyId } = await createIntCompany(ds);
    for (const key of keys)
      await ds.query(
        `INSERT INTO webhook_endpoints (id, company_id, key, url, created_at, updated_at) VALUES ($1, $2, $3, 'https://example.com/h', 1, 1)`,
        [newId(), companyId, key],
      );
    return companyId;
  }
  async function append(companyId: string, key: string, action: string, formId: string): Promise<string> {
    const id = newEventId();
    await ds.transaction((m) =>
      outbox.insertMany(m, [id], [{ companyId, eventKey: key, action, formId, data: [] } as unknown as OutboxEventInput]),
    );
    return id;
  }

  it('lists the company deliveries newest first with their event, by event id or key, from since, at most limit', async () => {
    const a = await company(['job_created', 'job_updated']);
    const b = await company(['job_created']);
    const e1 = await append(a, 'job_created', 'jobcreated', 'J1');
    const e2 = await append(a, 'job_updated', 'jobupdated', 'J1');
    await append(b, 'job_created', 'jobcreated', 'J9');
    const log = await read.deliveryLog(a, { since: 0, limit: 100 });
    expect(log.map((d) => [d.eventId, d.key, d.action, d.formId, d.state, d.attempts])).toEqual([
      [e2, 'job_updated', 'jobupdated', 'J1', 'pending', 0],
      [e1, 'job_created', 'jobcreated', 'J1', 'pending', 0],
    ]);
    expect(typeof log[0].nextAttemptAt).toBe('number');
    expect((await read.deliveryLog(a, { eventId: e1, since: 0, limit: 100 })).map((d) => d.eventId)).toEqual([e1]);
    expect((await read.deliveryLog(a, { key: 'job_updated', since: 0, limit: 100 })).map((d) => d.eventId)).toEqual([e2]);
    expect(await read.deliveryLog(a, { since: 0, limit: 1 })).toHaveLength(1);
    expect(await read.deliveryLog(a, { since: Date.now() + 60_000, limit: 100 })).toEqual([]);
    // an event pruned: the delivery stays, without action and form id
    await outbox.deleteByIds([e1]);
    expect((await read.deliveryLog(a, { eventId: e1, since: 0, limit: 100 }))[0]).toMatchObject({ action: null, formId: null });
    expect(await read.exists(ds, e1)).toBe(false);
    expect(await read.exists(ds, e2)).toBe(true);
  });

  it('finds events older than the horizon with no delivery left, at most limit', async () => {
    const c = await company(['job_created']);
    const delivered = await append(c, 'job_created', 'jobcreated', 'J1'); // has a delivery
    const bare = await append(c, 'job_deleted', 'jobdeleted', 'J1'); // no endpoint for the key: no delivery
    const recent = await append(c, 'job_deleted', 'jobdeleted', 'J2');
    await ds.query(`UPDATE outbox_events SET created_at = 500 WHERE id = ANY($1::text[])`, [[delivered, bare]]);
    // platform-wide (retention prunes every company at once): other specs' old events may be there too
    const old = await read.prunable(1000, 100_000);
    expect(old).toContain(bare);
    expect(old).not.toContain(delivered);
    expect(old).not.toContain(recent);
    expect((await read.prunable(Date.now() + 60_000, 100_000)).includes(recent)).toBe(true);
    expect(await read.prunable(1000, 1)).toHaveLength(1);
    expect(await read.prunable(1000, 0)).toEqual([]);
  });
});
