import { newEventId, newId, OutboxEventInput, OutboxRepository } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, openIntegrationDb } from '@test/support/integration';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';

describe('WebhookEndpointsRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: WebhookEndpointsRepository;
  let a: string;
  let b: string;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new WebhookEndpointsRepository(ds, new WebhookDeliveriesRepository(ds));
    a = (await createIntCompany(ds)).companyId;
    b = (await createIntCompany(ds)).companyId;
  });
  afterAll(() => ds.destroy());

  async function add(companyId: string, key: string, url = 'https://example.com/hook'): Promise<string> {
    const id = newId();
    await repo.transaction((m) => repo.insert(m, { id, companyId, key, url, headers: { 'X-Token': 't' }, createdAt: 1, updatedAt: 1 }));
    return id;
  }

  it('inserts, finds by company and locks by key within the company only', async () => {
    const id = await add(a, 'job_created');
    await add(b, 'job_created');
    const mine = await repo.findByCompany(a);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      id,
      companyId: a,
      key: 'job_created',
      url: 'https://example.com/hook',
      headers: { 'X-Token': 't' },
      disabled: false,
    });
    await repo.transaction(async (m) => {
      expect((await repo.lockByKey(m, a, 'job_created'))?.id).toBe(id);
      expect(await repo.lockByKey(m, a, 'job_updated')).toBeNull();
    });
  });

  it('replaces (re-enabling) and deletes an endpoint', async () => {
    const { companyId } = await createIntCompany(ds);
    const id = await add(companyId, 'job_updated');
    await ds.query(
      `UPDATE webhook_endpoints SET disabled = true, disabled_reason = 'x', disabled_at = 5, failing_since = 4 WHERE id = $1`,
      [id],
    );
    await repo.transaction((m) => repo.replace(m, id, 'https://example.org/new', { A: 'b' }, 9));
    expect((await repo.findByCompany(companyId))[0]).toMatchObject({
      url: 'https://example.org/new',
      headers: { A: 'b' },
      disabled: false,
      disabledReason: null,
      disabledAt: null,
      failingSince: null,
      updatedAt: 9,
    });
    await repo.transaction((m) => repo.delete(m, id));
    expect(await repo.findByCompany(companyId)).toEqual([]);
  });

  it('disables an endpoint and abandons its open deliveries (not another endpoint’s)', async () => {
    const { companyId } = await createIntCompany(ds);
    const id = await add(companyId, 'job_deleted');
    const other = await add(companyId, 'job_archived');
    const events = [
      { companyId, eventKey: 'job_deleted', action: 'jobdeleted', formId: 'J1', data: [] },
      { companyId, eventKey: 'job_archived', action: 'jobarchived', formId: 'J1', data: [] },
    ] as unknown as OutboxEventInput[];
    await ds.transaction((m) => new OutboxRepository(ds).insertMany(m, [newEventId(), newEventId()], events));
    expect(await repo.disable(id, 'too many failures', 50)).toBe(1);
    expect((await repo.findByCompany(companyId)).find((e) => e.id === id)).toMatchObject({
      disabled: true,
      disabledReason: 'too many failures',
      disabledAt: 50,
    });
    const states = await ds.query(
      `SELECT endpoint_id AS e, state, last_error AS error FROM webhook_deliveries WHERE company_id = $1 ORDER BY endpoint_id`,
      [companyId],
    );
    expect(states).toEqual(
      expect.arrayContaining([
        { e: id, state: 'abandoned', error: 'endpoint disabled: too many failures' },
        { e: other, state: 'pending', error: null },
      ]),
    );
  });
});
