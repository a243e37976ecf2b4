import { DataSource } from 'typeorm';
import { action, connector, createCompany, startApi, TestApi, TestCompany } from '../support/api';
import { dropQueueKeys } from '../support/durability-redis';
import { Child, stopAllChildren } from '../support/proc-child';
import { WebhookReceiver } from '../support/webhook-receiver';
import { startWorker } from '../support/worker';

/**
 * The per-endpoint in-flight cap (CONTRACTS.md "Delivery") holds across TWO built workers, and a
 * slow endpoint holds up nobody else: its backlog drains at the cap's pace while another company's
 * events arrive at once. The same for a REST hook subscription, whose claims are also larger than
 * the cap; and a SIGTERM puts back what a claim did not send, for keys and subscriptions alike.
 */
const PREFIX = `fieldwork-whcap-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;
process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
const CAP = 3;
const SLOW_MS = 300;
const SLOW_PATHS = new Set(['/slow', '/graceful', '/slow-hook', '/graceful-hook']);

const workerEnv = {
  QUEUE_PREFIX: PREFIX,
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: String(CAP),
  WEBHOOK_CONCURRENCY: '8',
  WEBHOOK_RECONCILE_MS: '1000',
  // a claim holds up to 8 rounds of the cap (24): the SIGTERM case stops part-way through one
  WEBHOOK_CLAIM_ROUNDS: '8',
};

describe('webhook delivery: per-endpoint cap across workers, slow endpoint isolation', () => {
  let api: TestApi;
  let db: DataSource;
  let receiver: WebhookReceiver;
  const workers: Child[] = [];

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    receiver = await new WebhookReceiver().start();
    receiver.reply = (r) => (SLOW_PATHS.has(r.path) ? { status: 200, delayMs: SLOW_MS } : { status: 200 });
    for (const name of ['worker-a', 'worker-b']) {
      workers.push(await startWorker(name, workerEnv, (sql, params) => db.query(sql, params)));
    }
  }, 90_000);

  afterAll(async () => {
    await stopAllChildren();
    await receiver.close();
    await api.close();
    await dropQueueKeys(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', PREFIX);
  });

  /** Subscribes `jobcreated` to the receiver's `path` (a REST hook). */
  const hook = async (c: TestCompany, path: string) => {
    const res = await connector(api, 'POST', '/v1/hooks', c.key, { event: 'jobcreated', url: `${receiver.url}${path}` });
    expect(res.http).toBe(201);
    return res.body.data as { id: string };
  };
  /** The states of a subscription's deliveries, counted. */
  const hookStates = async (hookId: string): Promise<Record<string, number>> =>
    Object.fromEntries(
      (
        await db.query(
          `SELECT d.state, count(*)::int AS n FROM webhook_deliveries d
            WHERE d.target = 'subscription' AND d.endpoint_id = $1 GROUP BY d.state`,
          [hookId],
        )
      ).map((r: { state: string; n: number }) => [r.state, r.n]),
    );

  it('never has more than the cap in flight to one endpoint, while another endpoint gets its events at once', async () => {
    const slow = await createCompany(api);
    const fast = await createCompany(api);
    expect((await action<any>(api, 'setwebhooks', { job_created: { url: `${receiver.url}/slow` } }, { key: slow.key })).body.status).toBe(
      0,
    );
    expect((await action<any>(api, 'setwebhooks', { job_created: { url: `${receiver.url}/fast` } }, { key: fast.key })).body.status).toBe(
      0,
    );

    // the slow company's 30 events in 6 writes (6 wake tasks, taken by either worker), then the fast one's 30
    const started = Date.now();
    for (let call = 0; call < 6; call++) {
      const jobs = Array.from({ length: 5 }, (_, i) => ({ destinationName: `slow ${call}-${i}` }));
      expect((await action<any>(api, 'createjobs', { jobs }, { key: slow.key })).body.status).toBe(0);
    }
    const fastJobs = Array.from({ length: 30 }, (_, i) => ({ destinationName: `fast ${i}` }));
    expect((await action<any>(api, 'createjobs', { jobs: fastJobs }, { key: fast.key })).body.status).toBe(0);

    const fastGot = await receiver.waitFor('/fast', 30, 10_000);
    const fastDoneAfter = Date.now() - started;
    const slowByThen = receiver.at('/slow').length;
    // 30 at a cap of 3 and 300 ms each take ≥ 3 s; the fast endpoint's events did not wait for them
    expect(slowByThen).toBeLessThan(30);
    expect(fastDoneAfter).toBeLessThan((30 / CAP) * SLOW_MS);

    const slowGot = await receiver.waitFor('/slow', 30, 30_000);
    expect(receiver.maxOpen('/slow')).toBeLessThanOrEqual(CAP);
    expect(receiver.maxOpen('/slow')).toBe(CAP); // the cap was used, not just respected
    // each event once (no duplicate claims between the two workers)
    expect(new Set(slowGot.map((r) => r.headers['webhook-id'])).size).toBe(30);
    expect(new Set(fastGot.map((r) => r.headers['webhook-id'])).size).toBe(30);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.at('/slow')).toHaveLength(30);

    const rows: Array<{ state: string; n: number }> = await db.query(
      `SELECT d.state, count(*)::int AS n FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE e.url = ANY($1::text[]) GROUP BY d.state`,
      [[`${receiver.url}/slow`, `${receiver.url}/fast`]],
    );
    expect(rows).toEqual([{ state: 'delivered', n: 60 }]);
  }, 60_000);

  it('a REST hook subscription: claims of up to 8 × the cap, sent the cap at a time across both workers, each event once', async () => {
    const c = await createCompany(api);
    const { id } = await hook(c, '/slow-hook');
    // how many of its deliveries are claimed at once, sampled while they go out: more than the cap means
    // a claim larger than it (the receiver's count of open requests shows the cap still holds)
    let mostClaimed = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        mostClaimed = Math.max(mostClaimed, (await hookStates(id)).in_flight ?? 0);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    // 30 events in two writes: each write's wake-up may reach either worker
    for (const part of [0, 1]) {
      const jobs = Array.from({ length: 15 }, (_, i) => ({ destinationName: `hook ${part}-${i}` }));
      expect((await action<any>(api, 'createjobs', { jobs }, { key: c.key })).body.status).toBe(0);
    }
    const got = await receiver.waitFor('/slow-hook', 30, 30_000);
    sampling = false;
    await sampler;
    expect(receiver.maxOpen('/slow-hook')).toBeLessThanOrEqual(CAP);
    expect(receiver.maxOpen('/slow-hook')).toBe(CAP);
    expect(mostClaimed).toBeGreaterThan(CAP);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(30);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.at('/slow-hook')).toHaveLength(30);
    expect(await hookStates(id)).toEqual({ delivered: 30 });
  }, 60_000);

  it('SIGTERM during deliveries: the workers finish and record the attempts in flight, exit 0, and another worker delivers the rest once', async () => {
    const c = await createCompany(api);
    expect((await action<any>(api, 'setwebhooks', { job_created: { url: `${receiver.url}/graceful` } }, { key: c.key })).body.status).toBe(
      0,
    );
    // 20 events in one write: one claim takes them all, so what the stopping drain did not send is part of its claim
    const jobs = Array.from({ length: 20 }, (_, i) => ({ destinationName: `graceful ${i}` }));
    expect((await action<any>(api, 'createjobs', { jobs }, { key: c.key })).body.status).toBe(0);
    await receiver.waitFor('/graceful', 4, 10_000);
    const exits = await Promise.all(workers.map((w) => w.stop('SIGTERM', 10_000)));
    expect(exits).toEqual(workers.map(() => ({ code: 0, signal: null })));
    const states = async (): Promise<Record<string, number>> =>
      Object.fromEntries(
        (
          await db.query(
            `SELECT d.state, count(*)::int AS n FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
              WHERE e.url = $1 GROUP BY d.state`,
            [`${receiver.url}/graceful`],
          )
        ).map((r: { state: string; n: number }) => [r.state, r.n]),
      );
    // every request that was sent was answered and recorded before the exit, and the claim's unsent
    // rest was put back: no claim left behind
    const atExit = await states();
    expect(atExit.in_flight).toBeUndefined();
    expect(atExit.delivered).toBe(receiver.at('/graceful').length);
    expect(atExit.delivered).toBeLessThan(20);
    expect(atExit.pending).toBe(20 - atExit.delivered);

    workers.push(await startWorker('worker-c', workerEnv, (sql, params) => db.query(sql, params)));
    const got = await receiver.waitFor('/graceful', 20, 20_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.at('/graceful')).toHaveLength(20);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(20);
    expect(await states()).toEqual({ delivered: 20 });
    // no attempt failed because a worker was stopping
    const outcomes = await db.query(
      `SELECT a.outcome, count(*)::int AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
         JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.url = $1 GROUP BY a.outcome`,
      [`${receiver.url}/graceful`],
    );
    expect(outcomes).toEqual([{ outcome: 'delivered', n: 20 }]);
  }, 60_000);

  it("SIGTERM during REST hook deliveries: the attempts in flight are recorded, the claim's unsent rest put back, another worker delivers it once", async () => {
    const c = await createCompany(api);
    const { id } = await hook(c, '/graceful-hook');
    // 20 events in one write: one claim of the subscription takes them all (8 × 3 = 24)
    const jobs = Array.from({ length: 20 }, (_, i) => ({ destinationName: `graceful hook ${i}` }));
    expect((await action<any>(api, 'createjobs', { jobs }, { key: c.key })).body.status).toBe(0);
    await receiver.waitFor('/graceful-hook', 4, 10_000);
    const running = workers.filter((w) => w.running);
    const exits = await Promise.all(running.map((w) => w.stop('SIGTERM', 10_000)));
    expect(exits).toEqual(running.map(() => ({ code: 0, signal: null })));
    const atExit = await hookStates(id);
    expect(atExit.in_flight).toBeUndefined();
    expect(atExit.delivered).toBe(receiver.at('/graceful-hook').length);
    expect(atExit.delivered).toBeLessThan(20);
    expect(atExit.pending).toBe(20 - atExit.delivered);

    workers.push(await startWorker('worker-d', workerEnv, (sql, params) => db.query(sql, params)));
    const got = await receiver.waitFor('/graceful-hook', 20, 20_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.at('/graceful-hook')).toHaveLength(20);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(20);
    expect(await hookStates(id)).toEqual({ delivered: 20 });
  }, 60_000);
});
