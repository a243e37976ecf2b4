import { newEventId, newId, OutboxEventInput, OutboxRepository, PROCESS_ID } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, openIntegrationDb } from '@test/support/integration';
import { WorkerHeartbeatsRead } from '../core-worker-heartbeats.read';
import { OutboxEventsRead } from '../core-outbox-events.read';
import { HookAttemptRecord, WebhookDeliveriesRepository } from '../webhook-deliveries.repository';
import { WebhookSubscriptionsRepository } from './webhook-subscriptions.repository';

describe('WebhookSubscriptionsRepository and subscription deliveries (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: WebhookSubscriptionsRepository;
  let deliveries: WebhookDeliveriesRepository;
  let outbox: OutboxRepository;
  let log: OutboxEventsRead;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    deliveries = new WebhookDeliveriesRepository(ds);
    repo = new WebhookSubscriptionsRepository(ds, deliveries);
    outbox = new OutboxRepository(ds);
    log = new OutboxEventsRead(ds);
  });
  afterAll(() => ds.destroy());
  /** the reconciler's dead-worker release: the workers silent for `staleMs`, then their claims */
  const releaseDead = async (staleMs: number) => deliveries.releaseClaimsOf(await new WorkerHeartbeatsRead(ds).deadClaimOwners(staleMs));

  /** Subscribes `event` in `companyId`; @returns the subscription's id */
  async function subscribe(companyId: string, event: string, secret = 'whsec_sub', createdAt = Date.now()): Promise<string> {
    const id = newId();
    await repo.transaction((m) =>
      repo.insert(m, {
        companyId,
        id,
        event,
        url: `https://example.com/${event}`,
        headers: { 'X-S': 'token-1234' },
        secret,
        createdBy: 'M',
        createdAt,
      }),
    );
    return id;
  }
  /** Appends one event per [key, action]; @returns the event ids */
  async function events(companyId: string, list: Array<[string, string]>): Promise<string[]> {
    const ids = list.map(() => newEventId());
    const input = list.map(([eventKey, action], i) => ({
      companyId,
      eventKey,
      action,
      formId: `F${i}`,
      data: [{ i }],
    })) as unknown as OutboxEventInput[];
    await ds.transaction((m) => outbox.insertMany(m, ids, input));
    return ids;
  }
  const deliveriesOf = (eventIds: string[]) =>
    ds.query(
      `SELECT event_id AS "eventId", endpoint_id AS target, target AS kind, event_key AS key FROM webhook_deliveries WHERE event_id = ANY($1::text[]) ORDER BY event_id, endpoint_id`,
      [eventIds],
    ) as Promise<Array<{ eventId: string; target: string; kind: string; key: string }>>;

  it('fans events out to the subscriptions of their action or their key, beside the key endpoint, in the same company only', async () => {
    const { companyId } = await createIntCompany(ds);
    const { companyId: other } = await createIntCompany(ds);
    const endpointId = newId();
    await ds.query(
      `INSERT INTO webhook_endpoints (id, company_id, key, url, headers, created_at, updated_at) VALUES ($1, $2, 'job_checked', 'https://example.com/k', '{}', 1, 1)`,
      [endpointId, companyId],
    );
    const byKey = await subscribe(companyId, 'job_checked');
    const byAction = await subscribe(companyId, 'jobcheckin');
    const byAction2 = await subscribe(companyId, 'jobcheckin');
    await subscribe(companyId, 'jobcreated');
    const elsewhere = await subscribe(other, 'job_checked');
    const [checkin, checkout] = await events(companyId, [
      ['job_checked', 'jobcheckin'],
      ['job_checked', 'jobcheckout'],
    ]);
    const rows = await deliveriesOf([checkin, checkout]);
    const targets = (eventId: string) =>
      rows
        .filter((r) => r.eventId === eventId)
        .map((r) => `${r.kind}:${r.target}`)
        .sort();
    expect(targets(checkin)).toEqual(
      [`endpoint:${endpointId}`, `subscription:${byKey}`, `subscription:${byAction}`, `subscription:${byAction2}`].sort(),
    );
    expect(targets(checkout)).toEqual([`endpoint:${endpointId}`, `subscription:${byKey}`].sort());
    expect(rows.every((r) => r.key === 'job_checked')).toBe(true);
    expect(rows.some((r) => r.target === elsewhere)).toBe(false);
    // the stream's own events reach no subscription
    const [notification] = await events(companyId, [['notification', 'notification']]);
    expect(await deliveriesOf([notification])).toEqual([]);
  });

  it('claims every subscription of the company with nothing in flight in one call, each up to the claim size, with its own secret and the event time', async () => {
    const { companyId } = await createIntCompany(ds);
    const { companyId: other } = await createIntCompany(ds);
    await ds.query(`INSERT INTO webhook_secrets (company_id, secret, created_at) VALUES ($1, 'whsec_company', 1)`, [companyId]);
    const a = await subscribe(companyId, 'jobcreated', 'whsec_a');
    const b = await subscribe(companyId, 'job_created', 'whsec_b');
    const elsewhere = await subscribe(other, 'jobcreated');
    const eventIds = await events(companyId, [
      ['job_created', 'jobcreated'],
      ['job_created', 'jobcreated'],
      ['job_created', 'jobcreated'],
    ]);
    await events(other, [['job_created', 'jobcreated']]);
    const [{ created }] = await ds.query(`SELECT created_at::float8 AS created FROM outbox_events WHERE id = $1`, [eventIds[0]]);
    const now = Date.now() + 1000;
    const claimed = await deliveries.claimHooks(companyId, now, 2, now + 30_000);
    // two of three per subscription (the claim's size), in order: by subscription, oldest first; the other company's never
    expect(claimed.map((c) => [c.targetId, c.eventId])).toEqual(
      [a, b].sort().flatMap((target) => [
        [target, eventIds[0]],
        [target, eventIds[1]],
      ]),
    );
    expect(claimed.some((c) => c.targetId === elsewhere)).toBe(false);
    expect(claimed.find((c) => c.targetId === a && c.eventId === eventIds[0])).toMatchObject({
      companyId,
      url: 'https://example.com/jobcreated',
      headers: { 'X-S': 'token-1234' },
      action: 'jobcreated',
      formId: 'F0',
      payload: '[{"i":0}]',
      secret: 'whsec_a',
      previousSecret: null,
      previousExpiresAt: null,
      failingSince: null,
      failures: 0,
      target: 'subscription',
      eventCreatedAt: created,
    });
    expect(claimed.find((c) => c.targetId === b)!.secret).toBe('whsec_b');
    // the slots are held while in flight
    expect(await deliveries.claimHooks(companyId, now, 2, now + 30_000)).toEqual([]);

    // record: a's two delivered, b's first failed (retry), b's second not recorded yet
    const rec = (c: (typeof claimed)[number], ok: boolean): HookAttemptRecord => ({
      id: c.id,
      company: companyId,
      target: c.targetId,
      state: ok ? 'delivered' : 'pending',
      next: ok ? null : now + 60_000,
      failures: ok ? 0 : 1,
      status: ok ? 200 : 500,
      error: ok ? null : 'HTTP 500',
      finished: ok ? now : null,
      attempt: newId(),
      started: now,
      duration: 3,
      outcome: ok ? 'delivered' : 'retry',
    });
    const ofA = claimed.filter((c) => c.targetId === a);
    const [b0] = claimed.filter((c) => c.targetId === b && c.eventId === eventIds[0]);
    await deliveries.recordHooks(companyId, now, [...ofA.map((c) => rec(c, true)), rec(b0, false)], now + 30_000);
    const failing = async (id: string) =>
      (await ds.query(`SELECT failing_since::float8 AS f FROM webhook_subscriptions WHERE company_id = $1 AND id = $2`, [companyId, id]))[0]
        .f;
    expect(await failing(a)).toBeNull();
    expect(await failing(b)).toBe(now);
    const state = async (id: string) => (await ds.query(`SELECT state, failures, attempts FROM webhook_deliveries WHERE id = $1`, [id]))[0];
    expect(await state(ofA[0].id)).toEqual({ state: 'delivered', failures: 0, attempts: 1 });
    expect(await state(b0.id)).toEqual({ state: 'pending', failures: 1, attempts: 1 });
    // a recorded with another claim's lock is not applied (the attempt is logged)
    await deliveries.recordHooks(
      companyId,
      now,
      [
        rec(
          claimed.find((c) => c.targetId === b && c.eventId === eventIds[1])!,
          true,
        ),
      ],
      1,
    );
    expect((await state(claimed.find((c) => c.targetId === b && c.eventId === eventIds[1])!.id)).state).toBe('in_flight');
    expect(await failing(b)).toBeNull();
    // a has nothing in flight: its third event; b's second is still in flight, so b gets nothing (one holder per
    // subscription, whatever the claim's size: its holder's cap is the subscription's)
    const next = await deliveries.claimHooks(companyId, now, 2, now + 30_000);
    expect(next.map((c) => [c.targetId, c.eventId])).toEqual([[a, eventIds[2]]]);

    // drains: one per company for its subscriptions' deliveries
    const points = await deliveries.dueEndpoints(eventIds, []);
    expect(points).toEqual([{ endpointId: companyId, companyId, target: 'subscription', next: expect.any(Number) }]);
    // the company's drain point at each due time of its pending deliveries: b's third event (not claimed, b being
    // busy) and b's first, due for its retry
    const company = (await deliveries.drainPoints(now + 120_000, 4)).filter((p) => p.endpointId === companyId);
    expect(company.map((p) => p.next).sort((x, y) => x - y)).toEqual([expect.any(Number), now + 60_000]);
    expect(company.every((p) => p.companyId === companyId && p.target === 'subscription')).toBe(true);

    // the log names the subscription; a replay locks it with its target
    const [logged] = await log
      .deliveryLog(companyId, { eventId: eventIds[0], key: 'job_created', since: 0, limit: 10 })
      .then((rows) => rows.filter((r) => r.id === b0.id));
    expect(logged).toMatchObject({ id: b0.id, key: 'job_created', hookId: b, action: 'jobcreated' });
    expect(await deliveries.transaction((m) => deliveries.lockForReplay(m, companyId, b0.id))).toEqual({
      id: b0.id,
      target: 'subscription',
      endpoint: b,
      disabled: false,
      eventId: eventIds[0],
    });
  });

  it('lists, counts and deletes per company; a deletion abandons the open deliveries; the drain finds a deleted one gone', async () => {
    const { companyId } = await createIntCompany(ds);
    const { companyId: other } = await createIntCompany(ds);
    const first = await subscribe(companyId, 'jobupdated', 'whsec_a', 1000);
    const second = await subscribe(companyId, 'job_updated', 'whsec_b', 2000);
    await subscribe(other, 'jobupdated');
    expect(await repo.listByCompany(companyId)).toEqual([
      { id: first, event: 'jobupdated', url: 'https://example.com/jobupdated', headers: { 'X-S': 'token-1234' }, createdAt: 1000 },
      { id: second, event: 'job_updated', url: 'https://example.com/job_updated', headers: { 'X-S': 'token-1234' }, createdAt: 2000 },
    ]);
    expect(await repo.transaction((m) => repo.countByCompany(m, companyId))).toBe(2);

    const [eventId] = await events(companyId, [['job_updated', 'jobupdated']]);
    // another company's id is unknown here
    expect(await repo.transaction((m) => repo.delete(m, other, first, 'subscription removed', 5))).toBeNull();
    expect(await repo.transaction((m) => repo.delete(m, companyId, first, 'subscription removed', 5))).toBe(1);
    expect(await repo.transaction((m) => repo.delete(m, companyId, first, 'subscription removed', 5))).toBeNull();
    const state = async (target: string) =>
      (
        await ds.query(`SELECT state, last_error AS error FROM webhook_deliveries WHERE event_id = $1 AND endpoint_id = $2`, [
          eventId,
          target,
        ])
      )[0];
    expect(await state(first)).toEqual({ state: 'abandoned', error: 'subscription removed' });
    expect(await state(second)).toEqual({ state: 'pending', error: null });

    expect(await repo.deleteGone(companyId, second, 'subscription removed: 410 Gone', 6)).toBe(1);
    expect(await repo.deleteGone(companyId, second, 'subscription removed: 410 Gone', 6)).toBeNull();
    expect(await state(second)).toEqual({ state: 'abandoned', error: 'subscription removed: 410 Gone' });
    expect(await repo.listByCompany(companyId)).toEqual([]);
    // a delivery made for a subscription removed meanwhile is never claimed; the reconciler's sweep abandons it
    await ds.query(`UPDATE webhook_deliveries SET state = 'pending', last_error = NULL WHERE event_id = $1 AND endpoint_id = $2`, [
      eventId,
      second,
    ]);
    const now = Date.now() + 1000;
    expect(await deliveries.claimHooks(companyId, now, 4, now + 1)).toEqual([]);
    expect(await deliveries.abandonOrphanHookDeliveries(now)).toBeGreaterThanOrEqual(1);
    expect(await state(second)).toEqual({ state: 'abandoned', error: 'subscription removed' });
  });

  it("the hooks' claims name their worker and are released, with the company's drain point, once its heartbeat stops", async () => {
    const { companyId } = await createIntCompany(ds);
    const sub = await subscribe(companyId, 'jobcreated');
    await events(companyId, [['job_created', 'jobcreated']]);
    const now = Date.now() + 1000;
    await ds.query(`DELETE FROM worker_heartbeats WHERE id = $1`, [PROCESS_ID]);
    await ds.query(`INSERT INTO worker_heartbeats (id, started_at, beat_at) VALUES ($1, $2, $2)`, [PROCESS_ID, Date.now() - 10_000]);
    try {
      const [claimed] = await deliveries.claimHooks(companyId, now, 2, now + 60_000);
      expect(claimed.targetId).toBe(sub);
      const [row] = await ds.query(`SELECT claimed_by AS owner FROM webhook_deliveries WHERE id = $1`, [claimed.id]);
      expect(row.owner).toBe(PROCESS_ID);
      const { released, points } = await releaseDead(5_000);
      expect(released).toBeGreaterThanOrEqual(1); // (every claim of this process: other tests' too)
      expect(points.filter((p) => p.endpointId === companyId)).toEqual([
        { endpointId: companyId, companyId, target: 'subscription', next: expect.any(Number) },
      ]);
      expect((await deliveries.claimHooks(companyId, now, 2, now + 60_001)).map((c) => c.id)).toEqual([claimed.id]);
    } finally {
      await ds.query(`DELETE FROM worker_heartbeats WHERE id = $1`, [PROCESS_ID]);
    }
  });
});
