import { DataSource } from 'typeorm';
import { createCompany, startApi, TestApi } from '../support/api';
import { dropQueueKeys } from '../support/durability-redis';
import { Child, spawnNode, startApiProcess, stopAllChildren, waitFor } from '../support/proc-child';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * An api killed (`kill -9`) between its transaction's commit and the wake-up it enqueues after it
 * (issue #29 item 4): the event is in the outbox and its delivery row pending, but no BullMQ task
 * names it. The spawned api runs with TEST_KILL_BEFORE_WAKE=true (honoured only with NODE_ENV=test),
 * so it SIGKILLs itself inside `OutboxService.wake`, after the commit and before the enqueue. The
 * BUILT worker runs on the production timers (env.ts defaults: the reconciler every 30 s); the
 * event must reach the loopback receiver within 10 s of the kill. Needs `npm run build` first.
 */

const SHARED_REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `${process.env.QUEUE_PREFIX ?? 'fieldwork-test'}-apikill${process.pid}`.slice(-64);
process.env.QUEUE_PREFIX = PREFIX;
process.env.WEBHOOK_ALLOW_PRIVATE = 'true';

/** the production timers (env.ts defaults), spelled out so a changed default shows here */
const PRODUCTION_TIMERS = {
  WEBHOOK_TIMEOUT_MS: '15000',
  QUEUE_LOCK_MS: '30000',
  WEBHOOK_RECONCILE_MS: '30000',
  WORKER_HEARTBEAT_MS: '2000',
};
const HOOK_MS = 45_000;

let api: TestApi;
let db: DataSource;
let receiver: WebhookReceiver;

beforeAll(async () => {
  api = await startApi();
  db = api.app.get(DataSource);
  receiver = await new WebhookReceiver().start();
}, HOOK_MS);

afterAll(async () => {
  await stopAllChildren();
  await receiver?.close();
  await api?.close();
  await dropQueueKeys(SHARED_REDIS, PREFIX).catch(() => undefined);
}, HOOK_MS);

function fail(children: Child[], message: string): never {
  throw new Error(`${message}\n${children.map((c) => c.output()).join('\n')}`);
}

describe('webhook delivery survives an api SIGKILL between commit and wake-up', () => {
  it('delivers the committed event within 10 s of the kill, on the production reconciler period', async () => {
    const env = { ...PRODUCTION_TIMERS, QUEUE_PREFIX: PREFIX, REDIS_URL: SHARED_REDIS, WEBHOOK_ALLOW_PRIVATE: 'true' };
    const company = await createCompany(api);
    const set = await fetch(`${api.url}/api/setwebhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'api-key': company.key },
      body: JSON.stringify({ data: { job_created: { url: `${receiver.url}/created` } } }),
    });
    expect(((await set.json()) as { status: number }).status).toBe(0);

    const worker = spawnNode('worker-k', 'dist/apps/worker/src/main.js', env);
    await waitFor(`worker to start`, () => worker.stdout.includes('worker started') || !worker.running, {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    if (!worker.running) fail([worker], 'the worker exited during start-up');
    // past the worker's first reconcile pass, so only a wake-up or a later pass can find the event
    await new Promise((r) => setTimeout(r, 1_000));

    const doomed = await startApiProcess({ ...env, TEST_KILL_BEFORE_WAKE: 'true', LOG_LEVEL: 'warn' });
    const sentAt = Date.now();
    const answer = await fetch(`${doomed.url}/api/createjobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'api-key': company.key },
      body: JSON.stringify({ data: { jobs: [{ destinationName: 'Killed before wake-up' }] } }),
      signal: AbortSignal.timeout(15_000),
    }).then(
      (res) => `HTTP ${res.status}`,
      (err: Error) => `no answer (${(err.cause as Error | undefined)?.message ?? err.message})`,
    );
    const exit = (await doomed.child.waitExit(10_000)) ?? fail([doomed.child], 'the api did not die');
    const killedAt = Date.now();
    expect(exit.signal).toBe('SIGKILL');
    expect(answer).toMatch(/^no answer/); // it died before answering: after the commit, before the wake-up

    // committed: the event and its pending delivery are in PostgreSQL
    const rows: Array<{ state: string }> = await db.query(`SELECT state FROM webhook_deliveries WHERE company_id = $1`, [
      company.companyUid,
    ]);
    expect(rows).toHaveLength(1);

    // waits past the 30 s reconciler so the "before" latency is measured, then asserts ≤ 10 s
    await waitFor('the event at the receiver', () => receiver.received.some((r) => r.path === '/created'), {
      timeoutMs: 40_000,
      intervalMs: 20,
    }).catch((err: Error) => fail([worker], err.message));
    const receivedAt = receiver.received.find((r) => r.path === '/created')!.at;
    const latency = receivedAt - killedAt;
    console.log(
      `api SIGKILL before wake-up: request sent → api dead ${killedAt - sentAt} ms; api dead → event received ${latency} ms ` +
        `(request sent → received ${receivedAt - sentAt} ms)`,
    );
    expect(latency).toBeLessThanOrEqual(10_000);
  }, 90_000);
});
