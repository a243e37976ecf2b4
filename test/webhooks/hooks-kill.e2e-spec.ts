import { DataSource } from 'typeorm';
import { connector, createCompany, startApi, TestApi, TestCompany } from '../support/api';
import { dropQueueKeys } from '../support/durability-redis';
import { Child, stopAllChildren, waitFor } from '../support/proc-child';
import { verifySignature, WebhookReceiver } from '../support/webhook-receiver';
import { startWorker } from '../support/worker';

/**
 * REST-hook deliveries (`/v1/hooks`, webhook_subscriptions) survive a worker `kill -9` (issue #29
 * item 4): two subscriptions to `jobcreated` on a slow loopback receiver, the BUILT worker on the
 * production timers killed once part of the deliveries arrived, a new worker started. Asserted:
 * each subscription receives every event at least once (duplicates under the same webhook-id),
 * signed with its own secret, every delivery row ends delivered, both subscriptions receive again
 * within 10 s of the new worker's start; that time and the time to the last delivery are printed. `FAULTS_FULL=1` (`npm run test:faults`): more jobs, and the
 * second worker is killed too before a third finishes. Needs `npm run build`.
 */
const FULL = process.env.FAULTS_FULL === '1';
const JOBS = FULL ? 600 : 200;
const KILLS = FULL ? 2 : 1;
const SHARED_REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `${process.env.QUEUE_PREFIX ?? 'fieldwork-test'}-hookkill${process.pid}`.slice(-64);
process.env.QUEUE_PREFIX = PREFIX;
process.env.WEBHOOK_ALLOW_PRIVATE = 'true';

/** the production timers (env.ts defaults): recovery must not wait for the delivery timeout or BullMQ's lock */
const WORKER_ENV = {
  QUEUE_PREFIX: PREFIX,
  REDIS_URL: SHARED_REDIS,
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1',
  WEBHOOK_TIMEOUT_MS: '15000',
  QUEUE_LOCK_MS: '30000',
  WEBHOOK_RECONCILE_MS: '30000',
  WORKER_HEARTBEAT_MS: '2000',
};
/** every delivery done within this of the last worker's start */
const RECOVERY_BOUND_MS = 30_000;

let api: TestApi;
let db: DataSource;
let receiver: WebhookReceiver;

beforeAll(async () => {
  api = await startApi();
  db = api.app.get(DataSource);
  receiver = await new WebhookReceiver().start();
  receiver.reply = () => ({ status: 200, delayMs: 15 });
}, 60_000);

afterAll(async () => {
  await stopAllChildren();
  await receiver?.close();
  await api?.close();
  await dropQueueKeys(SHARED_REDIS, PREFIX).catch(() => undefined);
}, 60_000);

function fail(children: Child[], message: string): never {
  throw new Error(`${message}\n${children.map((c) => c.output()).join('\n')}`);
}

describe('REST-hook delivery survives a worker SIGKILL', () => {
  it(`kill -9 during ${JOBS * 2} REST-hook deliveries (${KILLS} kill(s)), start a new worker: every event reaches each subscription at least once`, async () => {
    const c: TestCompany = await createCompany(api);
    const subscribe = async (path: string) => {
      const res = await connector(api, 'POST', '/v1/hooks', c.key, { event: 'jobcreated', url: `${receiver.url}/${c.companyUid}${path}` });
      expect(res.http).toBe(201);
      return (res.body as { data: { secret: string } }).data.secret;
    };
    const secrets = { '/a': await subscribe('/a'), '/b': await subscribe('/b') };
    const paths = Object.keys(secrets) as Array<keyof typeof secrets>;
    const at = (path: string) => receiver.received.filter((r) => r.path === `/${c.companyUid}${path}`);
    const query = (sql: string, params?: unknown[]) => db.query(sql, params);

    const workers: Child[] = [await startWorker('worker-1', WORKER_ENV, query)];
    for (let i = 0; i < JOBS; i += 100) {
      const res = await fetch(`${api.url}/api/createjobs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'api-key': c.key },
        body: JSON.stringify({ data: { jobs: Array.from({ length: 100 }, (_, k) => ({ destinationName: `hooked ${i + k}` })) } }),
      });
      expect(((await res.json()) as { status: number }).status).toBe(0);
    }
    const kills: string[] = [];
    for (let k = 0; k < KILLS; k++) {
      // the kill lands mid-stream: once another 20 % of the deliveries arrived
      const target = Math.round(((k + 1) * JOBS * 2) / (KILLS + 2));
      await waitFor(`${target} deliveries before kill ${k + 1}`, () => paths.reduce((n, p) => n + at(p).length, 0) >= target, {
        timeoutMs: 60_000,
        intervalMs: 5,
      }).catch((err: Error) => fail(workers, err.message));
      const victim = workers.at(-1)!;
      victim.proc.kill('SIGKILL');
      const exit = (await victim.waitExit(10_000)) ?? fail([victim], 'the worker did not exit after SIGKILL');
      expect(exit.signal).toBe('SIGKILL');
      const states: Array<{ state: string; n: number }> = await db.query(
        `SELECT state, count(*)::int AS n FROM webhook_deliveries WHERE company_id = $1 GROUP BY state`,
        [c.companyUid],
      );
      kills.push(JSON.stringify(Object.fromEntries(states.map((s) => [s.state, s.n]))));
      workers.push(await startWorker(`worker-${k + 2}`, WORKER_ENV, query));
    }
    const restartedAt = Date.now();

    const events: Array<{ id: string }> = await db.query(`SELECT id FROM outbox_events WHERE company_id = $1 AND action = 'jobcreated'`, [
      c.companyUid,
    ]);
    expect(events).toHaveLength(JOBS);
    const eventIds = events.map((e) => e.id).sort();
    await waitFor(
      'every delivery row delivered and each subscription holding every event',
      async () => {
        const [{ open }]: Array<{ open: number }> = await db.query(
          `SELECT count(*) FILTER (WHERE state <> 'delivered')::int AS open FROM webhook_deliveries WHERE company_id = $1`,
          [c.companyUid],
        );
        return open === 0 && paths.every((p) => new Set(at(p).map((r) => String(r.headers['webhook-id']))).size === JOBS);
      },
      { timeoutMs: 90_000, intervalMs: 100 },
    ).catch((err: Error) => fail(workers, err.message));
    const recovery = Date.now() - restartedAt;

    for (const p of paths) {
      const got = at(p);
      expect([...new Set(got.map((r) => String(r.headers['webhook-id'])))].sort()).toEqual(eventIds);
      expect(got.filter((r) => !verifySignature(secrets[p], r)).length).toBe(0);
      // a duplicate carries the same webhook-id and body
      const bodies = new Map<string, string>();
      for (const r of got) {
        const id = String(r.headers['webhook-id']);
        expect(bodies.get(id) ?? r.body).toBe(r.body);
        bodies.set(id, r.body);
      }
    }
    const [{ rows }]: Array<{ rows: number }> = await db.query(
      `SELECT count(*)::int AS rows FROM webhook_deliveries WHERE company_id = $1`,
      [c.companyUid],
    );
    expect(rows).toBe(JOBS * 2);
    const duplicates = paths.reduce((n, p) => n + at(p).length, 0) - JOBS * 2;
    // each subscription flows again soon after the new worker's start (issue #29: ≤ 10 s)
    const flowing =
      Math.max(
        ...paths.map((p) =>
          Math.min(
            ...at(p)
              .filter((r) => r.at >= restartedAt)
              .map((r) => r.at),
          ),
        ),
      ) - restartedAt;
    console.log(
      `REST hooks, worker SIGKILL: ${JOBS} events × 2 subscriptions; delivery states at each kill ${kills.join(' / ')}; ` +
        `both subscriptions receiving again ${flowing} ms and every delivery done ${recovery} ms after the last worker started; ` +
        `${duplicates} duplicate requests`,
    );
    expect(flowing).toBeLessThanOrEqual(10_000);
    expect(recovery).toBeLessThanOrEqual(RECOVERY_BOUND_MS);
  }, 180_000);
});
