import { newEventId, newId, OutboxEventInput, OutboxRepository, PROCESS_ID } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, openIntegrationDb } from '@test/support/integration';
import { WorkerHeartbeatsRead } from './core-worker-heartbeats.read';
import { AttemptRecord, WebhookDeliveriesRepository } from './webhook-deliveries.repository';

describe('WebhookDeliveriesRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: WebhookDeliveriesRepository;
  let outbox: OutboxRepository;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new WebhookDeliveriesRepository(ds);
    outbox = new OutboxRepository(ds);
  });
  afterAll(() => ds.destroy());
  /** the reconciler's dead-worker release: the workers silent for `staleMs`, then their claims */
  const releaseDead = async (staleMs: number) => repo.releaseClaimsOf(await new WorkerHeartbeatsRead(ds).deadClaimOwners(staleMs));

  /** A company with an endpoint for `job_created`; @returns their ids */
  async function endpoint(): Promise<{ companyId: string; endpointId: string }> {
    const { companyId } = await createIntCompany(ds);
    const endpointId = newId();
    await ds.query(
      `INSERT INTO webhook_endpoints (id, company_id, key, url, headers, created_at, updated_at) VALUES ($1, $2, 'job_created', 'https://example.com/h', '{"X-A":"1"}', 1, 1)`,
      [endpointId, companyId],
    );
    return { companyId, endpointId };
  }
  /** Appends `n` job_created events (the trigger fans them out to the endpoint); @returns the delivery ids in event order */
  async function events(companyId: string, n: number): Promise<{ eventIds: string[]; deliveryIds: string[] }> {
    const eventIds = Array.from({ length: n }, () => newEventId());
    const input = eventIds.map((_, i) => ({
      companyId,
      eventKey: 'job_created',
      action: 'jobcreated',
      formId: `J${i}`,
      data: [{ i }],
    })) as unknown as OutboxEventInput[];
    await ds.transaction((m) => outbox.insertMany(m, eventIds, input));
    const rows: Array<{ id: string }> = await ds.query(
      `SELECT id FROM webhook_deliveries WHERE event_id = ANY($1::text[]) ORDER BY event_id`,
      [eventIds],
    );
    return { eventIds, deliveryIds: rows.map((r) => r.id) };
  }

  it('claims due deliveries up to the cap with their event and secrets, records attempts, and lists them per company', async () => {
    const { companyId, endpointId } = await endpoint();
    await ds.query(`INSERT INTO webhook_secrets (company_id, secret, created_at) VALUES ($1, 'whsec_s', 1)`, [companyId]);
    const { eventIds, deliveryIds } = await events(companyId, 3);
    const now = Date.now() + 1000;
    const claimed = await repo.recordAndClaim({
      endpointId,
      companyId,
      now,
      cap: 2,
      lockedUntil: now + 30_000,
      record: null,
      recordedLock: null,
      anyDelivered: false,
    });
    expect(claimed.map((c) => c.id)).toEqual(deliveryIds.slice(0, 2));
    expect(claimed[0]).toMatchObject({
      companyId,
      eventId: eventIds[0],
      failures: 0,
      url: 'https://example.com/h',
      headers: { 'X-A': '1' },
    });
    expect(claimed[0]).toMatchObject({
      action: 'jobcreated',
      formId: 'J0',
      payload: '[{"i":0}]',
      secret: 'whsec_s',
      previousSecret: null,
      failingSince: null,
    });
    expect(claimed[0]).toMatchObject({ target: 'endpoint', targetId: endpointId, eventCreatedAt: null });
    // the cap holds while the claims are in flight
    expect(
      await repo.recordAndClaim({
        endpointId,
        companyId,
        now,
        cap: 2,
        lockedUntil: now + 30_000,
        record: null,
        recordedLock: null,
        anyDelivered: false,
      }),
    ).toEqual([]);

    const record: AttemptRecord[] = claimed.map((c, i) => ({
      id: c.id,
      company: companyId,
      state: i === 0 ? 'delivered' : 'pending',
      next: i === 0 ? null : now + 60_000,
      failures: i === 0 ? 0 : 1,
      status: i === 0 ? 200 : 500,
      error: i === 0 ? null : 'HTTP 500',
      finished: i === 0 ? now : null,
      attempt: newId(),
      started: now,
      duration: 12,
      outcome: i === 0 ? 'delivered' : 'retry',
    }));
    const next = await repo.recordAndClaim({
      endpointId,
      companyId,
      now,
      cap: 5,
      lockedUntil: now + 30_000,
      record,
      recordedLock: now + 30_000,
      anyDelivered: true,
    });
    expect(next.map((c) => c.id)).toEqual([deliveryIds[2]]);

    const attempts = await repo.attemptsOf(companyId, deliveryIds);
    expect(attempts.map((a) => [a.deliveryId, a.httpStatus, a.outcome, a.durationMs])).toEqual([
      [deliveryIds[0], 200, 'delivered', 12],
      [deliveryIds[1], 500, 'retry', 12],
    ]);
    const { companyId: other } = await createIntCompany(ds);
    expect(await repo.attemptsOf(other, deliveryIds)).toEqual([]);
  });

  it('claims only while nothing of the endpoint is in flight (one holder), and puts unsent claims back as they were', async () => {
    const { companyId, endpointId } = await endpoint();
    const { deliveryIds } = await events(companyId, 4);
    const now = Date.now() + 1000;
    const args = { endpointId, companyId, now, record: null, recordedLock: null, anyDelivered: false };
    const first = await repo.recordAndClaim({ ...args, cap: 1, lockedUntil: now + 30_000 });
    expect(first.map((c) => c.id)).toEqual([deliveryIds[0]]);
    // one of the endpoint's in flight: no claim, whatever the room a cap of 3 would leave
    expect(await repo.recordAndClaim({ ...args, cap: 3, lockedUntil: now + 30_001 })).toEqual([]);
    // a release names the claim: another token puts nothing back
    expect(await repo.releaseUnattempted(companyId, [deliveryIds[0]], now + 1)).toBe(0);
    expect(await repo.releaseUnattempted(companyId, [deliveryIds[0]], now + 30_000)).toBe(1);
    const row = (await ds.query(`SELECT state, attempts, locked_until FROM webhook_deliveries WHERE id = $1`, [deliveryIds[0]]))[0];
    expect(row).toEqual({ state: 'pending', attempts: 0, locked_until: null });
    // free again: the whole claim, the released delivery first (still the oldest due)
    const all = await repo.recordAndClaim({ ...args, cap: 3, lockedUntil: now + 30_002 });
    expect(all.map((c) => c.id)).toEqual(deliveryIds.slice(0, 3));
    // an expired claim holds nothing back
    expect((await repo.recordAndClaim({ ...args, now: now + 30_003, cap: 3, lockedUntil: now + 60_000 })).map((c) => c.id)).toEqual([
      deliveryIds[3],
    ]);
  });

  it('finds due endpoints and drain points, releases lost claims, abandons pruned and open deliveries', async () => {
    const { companyId, endpointId } = await endpoint();
    const { eventIds, deliveryIds } = await events(companyId, 3);
    const [{ next: created }] = await ds.query(
      `SELECT min(next_attempt_at)::float8 AS next FROM webhook_deliveries WHERE id = ANY($1::text[])`,
      [deliveryIds],
    );
    expect(await repo.dueEndpoints([eventIds[0]], [])).toEqual([{ endpointId, companyId, target: 'endpoint', next: created }]);
    expect(await repo.dueEndpoints([], [deliveryIds[1]])).toEqual([{ endpointId, companyId, target: 'endpoint', next: created }]);
    const points = (await repo.drainPoints(created, 2)).filter((p) => p.endpointId === endpointId);
    expect(points).toEqual([{ endpointId, companyId, target: 'endpoint', next: created }]);
    // the lost wake-up pass: never-tried pending deliveries due in the window, the earliest per drain
    const unwoken = async (from: number, to: number) =>
      (await repo.unattemptedDrainPoints(from, to)).filter((p) => p.endpointId === endpointId);
    expect(await unwoken(created - 1000, created)).toEqual([{ endpointId, companyId, target: 'endpoint', next: created }]);
    expect(await unwoken(created - 1000, created - 1)).toEqual([]); // not due yet in the window
    await ds.query(`UPDATE webhook_deliveries SET attempts = 1 WHERE id = ANY($1::text[])`, [deliveryIds]);
    expect(await unwoken(created - 1000, created + 1000)).toEqual([]); // tried: the drain's own retries wake them
    await ds.query(`UPDATE webhook_deliveries SET attempts = 0 WHERE id = ANY($1::text[])`, [deliveryIds]);

    const now = created + 1;
    // the claim looks the endpoint up within the company it is given: another company's finds nothing, claims nothing
    const claimArgs = { endpointId, now, cap: 1, lockedUntil: now + 10, record: null, recordedLock: null, anyDelivered: false };
    expect(await repo.recordAndClaim({ ...claimArgs, companyId: (await endpoint()).companyId })).toEqual([]);
    expect(await repo.dueEndpoints([eventIds[0]], [])).toEqual([{ endpointId, companyId, target: 'endpoint', next: created }]);
    const claimed = await repo.recordAndClaim({
      endpointId,
      companyId: null, // a drain task queued by an older release: the endpoint found by id alone
      now,
      cap: 1,
      lockedUntil: now + 10,
      record: null,
      recordedLock: null,
      anyDelivered: false,
    });
    expect(claimed).toHaveLength(1);
    expect(await repo.releaseLostClaims(now + 5)).toBeGreaterThanOrEqual(0); // not lost yet
    const state = async (id: string) =>
      (await ds.query(`SELECT state, last_error AS error FROM webhook_deliveries WHERE id = $1`, [id]))[0];
    expect((await state(claimed[0].id)).state).toBe('in_flight');
    expect(await repo.releaseLostClaims(now + 11)).toBeGreaterThanOrEqual(1);
    expect((await state(claimed[0].id)).state).toBe('pending');

    await repo.abandonPruned([deliveryIds[0]], now);
    expect(await state(deliveryIds[0])).toEqual({ state: 'abandoned', error: 'event pruned' });
    expect(await repo.transaction((m) => repo.abandonOpen(m, endpointId, 'endpoint removed', now))).toBe(2);
    expect(await state(deliveryIds[2])).toEqual({ state: 'abandoned', error: 'endpoint removed' });
  });

  it('locks a delivery of the company for a replay with its endpoint, and resets it to pending', async () => {
    const { companyId, endpointId } = await endpoint();
    const { eventIds, deliveryIds } = await events(companyId, 1);
    const { companyId: other } = await createIntCompany(ds);
    await ds.query(`UPDATE webhook_deliveries SET state = 'abandoned', failures = 4, finished_at = 3 WHERE id = $1`, [deliveryIds[0]]);
    await repo.transaction(async (m) => {
      expect(await repo.lockForReplay(m, other, deliveryIds[0])).toBeUndefined();
      const target = await repo.lockForReplay(m, companyId, deliveryIds[0]);
      expect(target).toEqual({ id: deliveryIds[0], target: 'endpoint', endpoint: endpointId, disabled: false, eventId: eventIds[0] });
      await repo.resetToPending(m, target!.id, 77);
    });
    const [row] = await ds.query(
      `SELECT state, failures, finished_at AS f, next_attempt_at::float8 AS next FROM webhook_deliveries WHERE id = $1`,
      [deliveryIds[0]],
    );
    expect(row).toEqual({ state: 'pending', failures: 0, f: null, next: 77 });
    await ds.query(`DELETE FROM webhook_endpoints WHERE id = $1`, [endpointId]);
    expect(await repo.transaction((m) => repo.lockForReplay(m, companyId, deliveryIds[0]))).toMatchObject({
      endpoint: null,
      disabled: null,
    });
  });

  it('prunes attempts and finished deliveries made before the horizon, in batches, and only those', async () => {
    const { companyId, endpointId } = await endpoint();
    const { deliveryIds } = await events(companyId, 3);
    // two finished long ago, one still pending long ago
    await ds.query(`UPDATE webhook_deliveries SET created_at = 500, state = 'delivered' WHERE id = ANY($1::text[])`, [
      deliveryIds.slice(0, 2),
    ]);
    await ds.query(`UPDATE webhook_deliveries SET created_at = 500 WHERE id = $1`, [deliveryIds[2]]);
    await ds.query(
      `INSERT INTO webhook_attempts (id, delivery_id, company_id, started_at, duration_ms, outcome) VALUES ($1, $2, $3, 600, 1, 'delivered'), ($4, $2, $3, $5, 1, 'delivered')`,
      [newId(), deliveryIds[0], companyId, newId(), Date.now()],
    );
    expect(await repo.pruneBefore(1000)).toBe(3); // 1 attempt + 2 deliveries
    const left = await ds.query(`SELECT id FROM webhook_deliveries WHERE endpoint_id = $1`, [endpointId]);
    expect(left).toEqual([{ id: deliveryIds[2] }]);
    expect(await repo.attemptsOf(companyId, [deliveryIds[0]])).toHaveLength(1); // the recent attempt stays
  });

  it('claims name their worker; its claims go back to pending once its heartbeat is older than the limit, with their drain point', async () => {
    const { companyId, endpointId } = await endpoint();
    const { deliveryIds } = await events(companyId, 3);
    const now = Date.now() + 1000;
    await ds.query(`DELETE FROM worker_heartbeats WHERE id = $1`, [PROCESS_ID]);
    await ds.query(`INSERT INTO worker_heartbeats (id, started_at, beat_at) VALUES ($1, $2, $2)`, [PROCESS_ID, Date.now()]);
    try {
      const args = { endpointId, companyId, now, cap: 2, record: null, recordedLock: null, anyDelivered: false };
      const claimed = await repo.recordAndClaim({ ...args, lockedUntil: now + 60_000 });
      expect(claimed.map((c) => c.id)).toEqual(deliveryIds.slice(0, 2));
      const owners = await ds.query(`SELECT DISTINCT claimed_by AS owner FROM webhook_deliveries WHERE id = ANY($1::text[])`, [
        deliveryIds.slice(0, 2),
      ]);
      expect(owners).toEqual([{ owner: PROCESS_ID }]);

      // a beating worker keeps its claims
      expect((await releaseDead(60_000)).points.filter((p) => p.endpointId === endpointId)).toEqual([]);
      // silent for longer than the limit: released, long before their locked_until
      await ds.query(`UPDATE worker_heartbeats SET beat_at = beat_at - 10000 WHERE id = $1`, [PROCESS_ID]);
      const { released, points } = await releaseDead(5_000);
      // (every claim of this process is released: other tests' claims too)
      expect(released).toBeGreaterThanOrEqual(2);
      expect(points.filter((p) => p.endpointId === endpointId)).toEqual([
        { endpointId, companyId, target: 'endpoint', next: expect.any(Number) },
      ]);
      const states = await ds.query(`SELECT state, locked_until FROM webhook_deliveries WHERE id = ANY($1::text[])`, [deliveryIds]);
      expect(states).toEqual(Array(3).fill({ state: 'pending', locked_until: null }));
      // claimed again (the same deliveries: the same webhook-ids)
      expect((await repo.recordAndClaim({ ...args, lockedUntil: now + 60_001 })).map((c) => c.id)).toEqual(deliveryIds.slice(0, 2));
    } finally {
      await ds.query(`DELETE FROM worker_heartbeats WHERE id = $1`, [PROCESS_ID]);
    }
  });
});
