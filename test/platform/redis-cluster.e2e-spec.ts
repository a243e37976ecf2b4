import { ALL_QUEUES, QueueName, WorkerResultsService } from '@app/core';
import { DataSource } from 'typeorm';
import { createCompany, startApi, TestApi } from '../support/api';
import { withRedis } from '../support/durability-redis';
import { ApiProcess, Child, getJson, startApiProcess, stopAllChildren, waitFor } from '../support/proc-child';
import { RedisClusterProcess } from '../support/redis-cluster';
import { readCsv, reportCall } from '../support/report-readers';
import { SseStream } from '../support/sse';
import { verifySignature, WebhookReceiver } from '../support/webhook-receiver';
import { startWorker } from '../support/worker';

/**
 * Redis Cluster (CONTRACTS.md "Wave 3: scale"; docs/scaling.md "Redis Cluster"): a private 3-master
 * cluster from Debian's redis (test/support/redis-cluster.ts), and the in-process api, a BUILT api
 * process and a BUILT worker all booted with `REDIS_CLUSTER_NODES`. Through it: webhook delivery, a
 * report, a dispatch run, a rate limit and a live stream; each queue's keys under a hash tag of its
 * own; one master restarted (empty) during deliveries without losing an event; and, last, every
 * master killed and left down with a run in hand, then SIGTERM: a new worker and api process still
 * exit 0. The machine's
 * shared Redis is never stopped, and the test checks that nothing of its prefix went there.
 * Needs `npm run build` first.
 */
const SHARED_REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `${process.env.QUEUE_PREFIX ?? 'fieldwork-test'}-rc${process.pid}`.slice(-64);
/** low enough to reach in a few requests; the api process serves only this file's calls */
const RATE_LIMIT = 12;
const HOOK_MS = 60_000;

let cluster: RedisClusterProcess;
let api: TestApi;
let db: DataSource;
let apiProc: ApiProcess;
let worker: Child;

/** `POST /api/<name>` to `url` with `key` in the header. */
async function post(url: string, name: string, data: unknown, key: string): Promise<{ http: number; body: any; headers: Headers }> {
  const res = await fetch(`${url}/api/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'api-key': key },
    body: JSON.stringify({ data }),
    signal: AbortSignal.timeout(15_000),
  });
  return { http: res.status, body: await res.json(), headers: res.headers };
}

/** createjobs of `count` jobs (points near Zagreb when `located`); @returns their ids. */
async function createJobs(url: string, key: string, count: number, label: string, located = false): Promise<string[]> {
  const jobs = Array.from({ length: count }, (_, i) => ({
    destinationName: `${label} ${i}`,
    ...(located ? { destinationLat: 45.8 + (i % 3) * 0.5, destinationLng: 15.97 + (i % 3) * 0.5 } : {}),
  }));
  const res = await post(url, 'createjobs', { jobs }, key);
  if (res.http !== 200 || res.body.status !== 0)
    throw new Error(`createjobs ${label}: ${res.http} ${JSON.stringify(res.body).slice(0, 300)}`);
  return (res.body.jobs as Array<{ id: string }>).map((j) => j.id);
}

/** Every key on every master of the cluster whose name starts with `start`. */
async function clusterKeys(start: string): Promise<string[]> {
  const keys: string[] = [];
  for (const port of cluster.ports) {
    let cursor = '0';
    do {
      const [next, batch] = (await cluster.command(port, [
        'SCAN',
        cursor,
        'MATCH',
        `${start.replace(/[[\]{}*?\\]/g, '\\$&')}*`,
        'COUNT',
        '1000',
      ])) as [string, string[]];
      keys.push(...batch);
      cursor = next;
    } while (cursor !== '0');
  }
  return keys;
}

/** The company's outbox event ids (the events webhooks must deliver). */
async function eventIds(companyId: string): Promise<string[]> {
  const rows: Array<{ id: string }> = await db.query(`SELECT id FROM outbox_events WHERE company_id = $1`, [companyId]);
  return rows.map((r) => r.id);
}

beforeAll(async () => {
  const started = Date.now();
  cluster = await RedisClusterProcess.start();
  // read once by loadConfig() when startApi() boots the in-process api, and inherited by the children
  process.env.REDIS_CLUSTER_NODES = cluster.nodesEnv;
  process.env.QUEUE_PREFIX = PREFIX;
  process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
  const env = {
    REDIS_CLUSTER_NODES: cluster.nodesEnv,
    QUEUE_PREFIX: PREFIX,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    // a master restarted empty loses the wake-up and drain tasks: the reconciler re-enqueues them soon
    WEBHOOK_RECONCILE_MS: '1000',
    WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1',
    QUEUE_LOCK_MS: '5000',
  };
  api = await startApi();
  db = api.app.get(DataSource);
  [apiProc, worker] = await Promise.all([
    startApiProcess({
      ...env,
      RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      STREAM_HEARTBEAT_MS: '1000',
      QUEUE_DASHBOARD_USER: 'support',
      QUEUE_DASHBOARD_PASSWORD: 'cluster pass',
      METRICS_CACHE_MS: '0',
    }),
    startWorker('worker', env, (sql, params) => db.query(sql, params)),
  ]);
  console.log(`redis cluster e2e: cluster ${cluster.nodesEnv}, apps up ${Date.now() - started} ms after start`);
}, HOOK_MS);

afterAll(async () => {
  await stopAllChildren();
  await api?.close();
  await cluster?.stop();
}, HOOK_MS);

/** Fails with the children's output, so a broken run explains itself. */
function explain(err: Error): never {
  throw new Error(`${err.message}\n${worker?.output()}\n${apiProc?.child.output()}\n${cluster?.output()}`);
}

describe('Redis Cluster (REDIS_CLUSTER_NODES)', () => {
  it('/health/ready reports the cluster: state ok, every slot served, three masters up', async () => {
    const res = await getJson(`${apiProc.url}/health/ready`);
    expect(res.status).toBe(200);
    expect(res.body.reported.redis).toEqual({
      status: 'up',
      pingMs: expect.any(Number),
      cluster: {
        state: 'ok',
        slotsOk: 16384,
        knownNodes: 3,
        masters: cluster.ports
          .map((p) => `127.0.0.1:${p}`)
          .sort()
          .map((address) => ({ address, status: 'up', slots: expect.any(Number) })),
      },
    });
    expect(res.body.reported.redis.cluster.masters.reduce((n: number, m: { slots: number }) => n + m.slots, 0)).toBe(16384);
  });

  it('the queue dashboard and /metrics read every queue from the cluster', async () => {
    const auth = { authorization: `Basic ${Buffer.from('support:cluster pass').toString('base64')}` };
    const list = await fetch(`${apiProc.url}/admin/queues/api/queues`, { headers: auth });
    expect(list.status).toBe(200);
    const body = (await list.json()) as { queues: Array<{ name: string; counts: Record<string, number> }> };
    expect(body.queues.map((q) => q.name).sort()).toEqual([...ALL_QUEUES].sort());
    expect(body.queues.every((q) => typeof q.counts?.waiting === 'number')).toBe(true);
    const metrics = await (await fetch(`${apiProc.url}/metrics`)).text();
    for (const q of ALL_QUEUES) expect(metrics).toMatch(new RegExp(`^fieldwork_queue_jobs\\{queue="${q}",state="waiting"\\} \\d+`, 'm'));
    expect(metrics).not.toMatch(/fieldwork_metrics_collect_errors_total\{source="redis"\} [1-9]/);
  });

  it('each queue has its own hash tag {<prefix>:<queue>}: its keys share one slot, the queues spread over slots; nothing goes to the shared Redis', async () => {
    // the worker's schedulers (maintenance, webhook prune, alerts tick, partitions) have made keys by now
    const keys = await waitFor('queue keys in the cluster', async () => {
      const found = await clusterKeys(`{${PREFIX}:`);
      return found.filter((k) => !k.includes(':ratelimit:')).length >= 4 ? found : undefined;
    });
    const byTag = new Map<string, string[]>();
    for (const key of keys) {
      const tag = key.slice(0, key.indexOf('}') + 1);
      byTag.set(tag, [...(byTag.get(tag) ?? []), key]);
    }
    const queueTags = ALL_QUEUES.map((q) => `{${PREFIX}:${q}}`);
    const used = queueTags.filter((t) => byTag.has(t));
    expect(used.length).toBeGreaterThanOrEqual(3);
    const slots = new Set<number>();
    for (const tag of used) {
      const queue = tag.slice(PREFIX.length + 2, -1);
      for (const key of byTag.get(tag)!) expect(key.startsWith(`${tag}:${queue}:`)).toBe(true);
      const keySlots = new Set(
        await Promise.all(byTag.get(tag)!.map(async (k) => Number(await cluster.command(cluster.ports[0], ['CLUSTER', 'KEYSLOT', k])))),
      );
      expect(keySlots.size).toBe(1);
      slots.add([...keySlots][0]);
    }
    // spread, not one slot for all; two queues' tags may share a slot by chance (the prefix holds the pid: ~0.13 % of runs for 7 queues)
    expect(slots.size).toBeGreaterThan(1);
    const masters = new Set(await Promise.all(used.map((tag) => cluster.masterOf(tag))));
    console.log(`redis cluster e2e: ${used.length} queues with keys on ${masters.size} of 3 masters (slots ${[...slots].join(', ')})`);
    // the shared Redis saw nothing of this prefix (queues, counters, tokens)
    const leaked = await withRedis(SHARED_REDIS, async (r) => [...(await r.keys(`${PREFIX}:*`)), ...(await r.keys(`{${PREFIX}:*`))]);
    expect(leaked).toEqual([]);
  });

  it('webhook delivery: every job_created event reaches a loopback receiver, signed', async () => {
    const receiver = await new WebhookReceiver().start();
    try {
      const c = await createCompany(api, { name: 'Cluster hooks' });
      const set = await post(api.url, 'setwebhooks', { job_created: { url: `${receiver.url}/created` } }, c.key);
      expect(set.body.status).toBe(0);
      const secret = (await post(api.url, 'getwebhooks', {}, c.key)).body.secret as string;
      await createJobs(api.url, c.key, 10, 'In-process');
      await createJobs(apiProc.url, c.key, 10, 'Process');
      const events = await eventIds(c.companyUid);
      expect(events).toHaveLength(20);
      await waitFor('20 events at the receiver', () => events.every((id) => receiver.ids().has(id)), { timeoutMs: 30_000 }).catch(explain);
      expect(receiver.received.filter((r) => !verifySignature(secret, r))).toEqual([]);
    } finally {
      await receiver.close();
    }
  }, 45_000);

  // One rate budget per key across instances (the in-process api's calls count too, at its own high
  // limit): each test below has a company of its own and calls the api process first.

  it('a report: createreport async → getreport answers the file', async () => {
    const company = await createCompany(api, { name: 'Cluster reports' });
    const started = await reportCall(
      apiProc,
      'createreport',
      { reporttype: 'members', format: 'csv', accounts: [company.ownerUid], async: true },
      company.key,
    );
    expect(started.json).toMatchObject({ status: 0, state: 'queued' });
    const reportId = started.json!.reportId!;
    const file = await waitFor(
      'the report file',
      async () => {
        const a = await reportCall(api, 'getreport', { reportId }, company.key);
        return a.json ? undefined : a;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    ).catch(explain);
    expect(file.http).toBe(200);
    expect(file.disposition).toBe('attachment; filename="members.csv"');
    expect(readCsv(file.body)).toHaveLength(2);
  }, 45_000);

  it('a dispatch run: distributejobs answers 3 regions through the worker', async () => {
    const company = await createCompany(api, { timezone: 'Europe/Zagreb', name: 'Cluster dispatch' });
    const ids = await createJobs(api.url, company.key, 9, 'Dispatch', true);
    const res = await post(apiProc.url, 'distributejobs', { jobs: Object.fromEntries(ids.map((id) => [id, {}])), regions: 3 }, company.key);
    expect(res.http).toBe(200);
    expect(res.body.status).toBe(0);
    expect(res.body.clusters).toHaveLength(3);
    expect(res.body.clusters.flatMap((k: { jobs: string[] }) => k.jobs).sort()).toEqual([...ids].sort());
  }, 45_000);

  it(`a rate limit: the ${RATE_LIMIT + 1}th request of a key in a minute answers 429 with Retry-After, counted in the cluster`, async () => {
    const c = await createCompany(api, { name: 'Cluster limits' });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i <= RATE_LIMIT; i++) {
      last = await fetch(`${apiProc.url}/v1/auth/whoami`, { headers: { 'api-key': c.key } });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([...Array(RATE_LIMIT).fill(200), 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await last!.json()).toEqual({ error: { message: expect.stringContaining('rate limit') } });
    const counters = await clusterKeys(`{${PREFIX}:ratelimit:key:`);
    expect(counters.some((k) => k.endsWith(':hits'))).toBe(true);
    expect(counters.some((k) => k.endsWith(':blocked'))).toBe(true);
  });

  it('a live stream: a token from createstreamtoken (kept in the cluster) opens /v1/stream, which receives a job event', async () => {
    const company = await createCompany(api, { name: 'Cluster stream' });
    const issued = await post(apiProc.url, 'createstreamtoken', {}, company.key);
    expect(issued.body).toMatchObject({ status: 0, token: expect.stringMatching(/^st_/) });
    expect(await clusterKeys(`${PREFIX}:stream-token:`)).toHaveLength(1);
    const stream = await SseStream.open(`${apiProc.url}/v1/stream?token=${encodeURIComponent(issued.body.token)}`);
    try {
      expect(stream.status).toBe(200);
      await stream.waitFor('snapshot', (ev) => ev.some((e) => e.event === 'snapshot'));
      const [id] = await createJobs(api.url, company.key, 1, 'Streamed');
      await stream.waitFor('jobcreated', (ev) => ev.some((e) => e.event === 'jobcreated' && e.data.data[0].id === id), 15_000);
    } finally {
      stream.close();
    }
  }, 30_000);

  it('restarting one master (the webhook queue’s, SIGKILL, back empty) during deliveries loses nothing: every event arrives at least once', async () => {
    const receiver = await new WebhookReceiver().start();
    receiver.reply = () => ({ status: 200, delayMs: 40 }); // ~100 deliveries/s behind the per-endpoint cap: a backlog to cut into
    try {
      const c = await createCompany(api, { name: 'Cluster restart' });
      expect((await post(api.url, 'setwebhooks', { job_created: { url: `${receiver.url}/created` } }, c.key)).body.status).toBe(0);
      const secret = (await post(api.url, 'getwebhooks', {}, c.key)).body.secret as string;
      const master = await cluster.masterOf(`{${PREFIX}:${QueueName.WebhookDelivery}}`);

      for (let batch = 0; batch < 3; batch++) await createJobs(api.url, c.key, 100, `Before ${batch}`);
      await waitFor('50 deliveries before the restart', () => receiver.ids().size >= 50, { timeoutMs: 20_000, intervalMs: 5 }).catch(
        explain,
      );
      const atRestart = receiver.ids().size;
      const restartAt = Date.now();
      const restart = cluster.restart(master, 500);
      // written while the master is down or coming back: the api answers (the outbox is PostgreSQL)
      const during = await createJobs(apiProc.url, c.key, 50, 'During');
      await restart;
      const backAt = Date.now();
      await createJobs(api.url, c.key, 50, 'After');

      const events = await eventIds(c.companyUid);
      expect(events).toHaveLength(400);
      expect(during).toHaveLength(50);
      await waitFor('every event at the receiver', () => events.every((id) => receiver.ids().has(id)), {
        timeoutMs: 40_000,
        intervalMs: 100,
      }).catch((err: Error) => explain(new Error(`${err.message}; received ${receiver.ids().size} of ${events.length}`)));
      const doneAt = Date.now();
      expect([...receiver.ids()].sort()).toEqual([...events].sort());
      expect(receiver.received.filter((r) => !verifySignature(secret, r))).toEqual([]);
      console.log(
        `redis cluster e2e: master :${master} restarted after ${atRestart} of 300 events, back (cluster ok) in ${backAt - restartAt} ms; ` +
          `all 400 delivered ${doneAt - backAt} ms later; ${receiver.received.length - events.length} duplicate requests`,
      );
      expect(worker.running).toBe(true);
      expect(apiProc.child.running).toBe(true);
      const ready = await getJson(`${apiProc.url}/health/ready`);
      expect(ready.body.reported.redis).toMatchObject({ status: 'up', cluster: { state: 'ok' } });
    } finally {
      await receiver.close();
    }
  }, 90_000);

  it('SIGTERM: the worker and the api process close their BullMQ workers and cluster connections and exit 0', async () => {
    const before = { worker: worker.mark(), api: apiProc.child.mark() };
    // within Kubernetes' default grace period (30 s): a task in hand may finish first on a loaded machine
    const [workerExit, apiExit] = await Promise.all([worker.stop('SIGTERM', 30_000), apiProc.child.stop('SIGTERM', 30_000)]);
    // on a failure, what each process wrote after the signal says where it hung
    if (workerExit.code !== 0 || apiExit.code !== 0)
      console.log(`worker after SIGTERM:\n${worker.outputSince(before.worker)}\napi after SIGTERM:\n${apiProc.child.outputSince(before.api)}`);
    expect({ workerExit, apiExit }).toEqual({ workerExit: { code: 0, signal: null }, apiExit: { code: 0, signal: null } });
    // nothing failed on a connection closed under it while stopping (only what it wrote after the
    // SIGTERM: the master restart above rightly logs closed connections)
    expect(worker.outputSince(before.worker)).not.toMatch(/Connection is closed|ClusterAllFailedError|Cluster redirections/);
    expect(apiProc.child.outputSince(before.api)).not.toMatch(/Connection is closed|ClusterAllFailedError|Cluster redirections/);
  }, 70_000);

  it('the whole cluster down (every master killed, none back) with a run in hand: SIGTERM still ends a worker and an api process (exit 0), and the run finishes', async () => {
    // the new worker is the only one taking this prefix's tasks, so the run below is its
    expect(await worker.stop('SIGTERM', 30_000)).toEqual({ code: 0, signal: null });
    const env = { REDIS_CLUSTER_NODES: cluster.nodesEnv, QUEUE_PREFIX: PREFIX, QUEUE_LOCK_MS: '5000' };
    const [lateApi, lateWorker] = await Promise.all([
      startApiProcess({ ...env, STREAM_HEARTBEAT_MS: '1000' }),
      startWorker('worker-cluster-down', { ...env, WORKER_TEST_KINDS: 'true' }, (sql, params) => db.query(sql, params)),
    ]);
    const company = await createCompany(api, { name: 'Cluster down' });
    // a stream open on the api, so its fan-out subscription is live when the cluster goes
    const tokenRes = await post(lateApi.url, 'createstreamtoken', {}, company.key);
    expect(tokenRes.body.status).toBe(0);
    const stream = await SseStream.open(`${lateApi.url}/v1/stream?token=${encodeURIComponent(tokenRes.body.token as string)}`);
    expect(stream.status).toBe(200);
    // a run in hand: it sleeps past the SIGTERM, then writes (PostgreSQL); its completion goes to the dead cluster
    const marker = `cluster-down-${Date.now()}`;
    const call = api.app
      .get(WorkerResultsService)
      .call(
        'test.sleep',
        { ms: 5_000, marker },
        { companyId: company.companyUid, memberId: company.ownerUid },
        { profile: 'dispatch', timeoutMs: 30_000 },
      );
    call.catch(() => undefined);
    const runId = await waitFor(
      'the sleep run to start',
      async () => {
        const [run] = (await db.query(`SELECT id, state FROM worker_runs WHERE company_id = $1 AND kind = 'test.sleep'`, [
          company.companyUid,
        ])) as Array<{
          id: string;
          state: string;
        }>;
        return run?.state === 'running' ? run.id : undefined;
      },
      { intervalMs: 20, timeoutMs: 15_000 },
    );
    await Promise.all(cluster.ports.map((port) => cluster.kill(port)));
    // long enough for every connection to notice and start reconnecting (ioredis retries, BullMQ's
    // blocking reads fail over and over); the run still sleeps
    await new Promise((r) => setTimeout(r, 2_000));
    const before = { worker: lateWorker.mark(), api: lateApi.child.mark() };
    const stoppedAt = Date.now();
    const took = { worker: 0, api: 0 };
    const [workerExit, apiExit] = await Promise.all([
      lateWorker.stop('SIGTERM', 30_000).finally(() => (took.worker = Date.now() - stoppedAt)),
      lateApi.child.stop('SIGTERM', 30_000).finally(() => (took.api = Date.now() - stoppedAt)),
    ]);
    stream.close();
    if (workerExit.code !== 0 || apiExit.code !== 0)
      console.log(
        `worker after SIGTERM:\n${lateWorker.outputSince(before.worker)}\napi after SIGTERM:\n${lateApi.child.outputSince(before.api)}`,
      );
    console.log(
      `redis cluster e2e: every master down, a run in hand; SIGTERM → worker ${JSON.stringify(workerExit)} in ${took.worker} ms, api ${JSON.stringify(apiExit)} in ${took.api} ms`,
    );
    expect({ workerExit, apiExit }).toEqual({ workerExit: { code: 0, signal: null }, apiExit: { code: 0, signal: null } });
    expect(lateWorker.outputSince(before.worker)).toMatch(/Redis unreachable \(\d+ probes in a row\); cutting the queue connections/);
    // the run in hand was let finish: its own write landed
    const [run] = (await db.query(`SELECT state FROM worker_runs WHERE id = $1`, [runId])) as Array<{ state: string }>;
    expect(run.state).toBe('done');
    const [{ n }] = (await db.query(
      `SELECT count(*)::int AS n FROM notifications WHERE company_id = $1 AND kind = 'test_marker' AND job_id = $2`,
      [company.companyUid, marker],
    )) as Array<{ n: number }>;
    expect(n).toBe(1);
  }, 120_000);
});
