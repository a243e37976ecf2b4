import { hostname } from 'node:os';
import { Client } from 'pg';
import { ALL_QUEUES } from '@app/core';
import { createCompany, startApi, TestApi } from '../support/api';
import {
  ApiProcess,
  Child,
  freePort,
  getJson,
  spawnNode,
  startApiProcess,
  startRedisServer,
  stopAllChildren,
  waitFor,
} from '../support/proc-child';
import { TcpProxy } from '../support/tcp-proxy';
import { dropQueueKeys as dropRedisKeys } from '../support/durability-redis';

/**
 * Operations (CONTRACTS.md, "Operations" and "Tests and CI"): the BUILT worker and api as child
 * processes against real PostgreSQL and Redis. Faults are made with a TCP proxy in front of
 * PostgreSQL and a private redis-server: the machine's shared services are never stopped.
 * Needs `npm run build` first (scripts/test.sh does it).
 */

const WORKER = 'dist/apps/worker/src/main.js';
const API = 'dist/apps/api/src/main.js';
const SLOW = 90_000; // several processes boot in these tests; the 2-core CI machine may be busy

let db: Client;
const cleanups: Array<() => Promise<unknown> | unknown> = [];

beforeAll(async () => {
  db = new Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
});

afterEach(async () => {
  while (cleanups.length) {
    const cleanup = cleanups.pop()!;
    try {
      await cleanup();
    } catch {
      // keep cleaning up the rest
    }
  }
  await stopAllChildren();
});

afterAll(async () => {
  await stopAllChildren();
  await db?.end();
});

/** Fails with the child's captured output, so a broken start-up explains itself. */
function fail(child: Child, message: string): never {
  throw new Error(`${message}\n${child.output()}`);
}

interface HeartbeatRow {
  id: string;
  beat_at: string;
  stopped_at: string | null;
}

/** The heartbeat row of the worker process `pid` on this host (`<hostname>:<pid>:<start ms>`). */
async function heartbeatOf(pid: number): Promise<HeartbeatRow | undefined> {
  const prefix = `${hostname()}:${pid}:`;
  const { rows } = await db.query<HeartbeatRow>(
    `SELECT id, beat_at::text AS beat_at, stopped_at::text AS stopped_at
       FROM worker_heartbeats WHERE left(id, length($1)) = $1 ORDER BY started_at DESC LIMIT 1`,
    [prefix],
  );
  return rows[0];
}

/** A queue prefix of this test's own, so the spawned worker never takes another run's tasks. */
function ownQueuePrefix(label: string): string {
  return `${process.env.QUEUE_PREFIX ?? 'fieldwork-test'}-${label}${process.pid}`.slice(-64);
}

/** Deletes what a worker left in the shared Redis under its own prefix. */
const dropQueueKeys = (prefix: string) => dropRedisKeys(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix);

describe('worker lifecycle', () => {
  it(
    'boots, heartbeats (reported by /health/ready) and on SIGTERM marks itself stopped and exits 0',
    async () => {
      const queuePrefix = ownQueuePrefix('ops');
      cleanups.push(() => dropQueueKeys(queuePrefix));
      const worker = spawnNode('worker', WORKER, { WORKER_HEARTBEAT_MS: '200', QUEUE_PREFIX: queuePrefix });

      const first = await waitFor(
        'the worker heartbeat row',
        async () => {
          if (!worker.running) fail(worker, 'the worker exited during start-up');
          return heartbeatOf(worker.pid);
        },
        { timeoutMs: 30_000, intervalMs: 100 },
      ).catch((err: Error) => fail(worker, err.message));
      expect(first.stopped_at).toBeNull();

      // beats every 200 ms: beat_at moves on
      const later = await waitFor(
        'beat_at to advance',
        async () => {
          const row = await heartbeatOf(worker.pid);
          return row && Number(row.beat_at) > Number(first.beat_at) ? row : undefined;
        },
        { timeoutMs: 5_000, intervalMs: 100 },
      ).catch((err: Error) => fail(worker, err.message));
      expect(later.stopped_at).toBeNull();

      // an api instance reports the newest beat's age
      const api: TestApi = await startApi();
      cleanups.push(() => api.close());
      const ready = await getJson(`${api.url}/health/ready`);
      expect(ready.status).toBe(200);
      expect(ready.body.reported.worker).toEqual({ heartbeatAgeMs: expect.any(Number), running: expect.any(Number) });
      expect(ready.body.reported.worker.heartbeatAgeMs).toBeLessThan(2_000);
      expect(ready.body.reported.worker.running).toBeGreaterThanOrEqual(1);

      // SIGTERM: a clean stop within ~10 s, heartbeat marked stopped
      const startedStop = Date.now();
      worker.proc.kill('SIGTERM');
      const exit = await worker.waitExit(10_000);
      const stoppedAfterMs = Date.now() - startedStop;
      const row = await heartbeatOf(worker.pid);
      if (!exit) fail(worker, 'the worker did not exit within 10 s of SIGTERM');
      expect(row?.stopped_at).not.toBeNull();
      expect(Number(row!.stopped_at)).toBeGreaterThanOrEqual(Number(later.beat_at));
      if (exit.code !== 0)
        fail(worker, `the worker did not exit with code 0 on SIGTERM (after ${stoppedAfterMs} ms): ${JSON.stringify(exit)}`);
      expect(exit).toEqual({ code: 0, signal: null });
    },
    SLOW,
  );
});

/**
 * Starts the built worker with `env` and waits until its start has FINISHED (its "fieldwork worker
 * started" line: Nest's start-up hooks have all run and its SIGTERM handling is set up) and its
 * heartbeat row is written.
 */
async function startWorkerFully(env: Record<string, string>): Promise<Child> {
  const worker = spawnNode('worker', WORKER, env);
  await waitFor(
    'the worker to finish its start (its started line and heartbeat row)',
    async () => {
      if (!worker.running) fail(worker, 'the worker exited during start-up');
      return worker.stdout.includes('fieldwork worker started') && (await heartbeatOf(worker.pid));
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  ).catch((err: Error) => fail(worker, err.message));
  return worker;
}

/** SIGTERMs `worker` and expects exit 0 within `graceMs` and its heartbeat marked stopped; returns how long it took (ms). */
async function expectCleanStop(worker: Child, graceMs = 30_000): Promise<number> {
  const startedStop = Date.now();
  const exit = await worker.stop('SIGTERM', graceMs);
  const stoppedAfterMs = Date.now() - startedStop;
  if (exit.code !== 0) fail(worker, `the worker did not exit with code 0 on SIGTERM (after ${stoppedAfterMs} ms): ${JSON.stringify(exit)}`);
  expect(exit).toEqual({ code: 0, signal: null });
  expect((await heartbeatOf(worker.pid))?.stopped_at).not.toBeNull();
  return stoppedAfterMs;
}

describe('worker lifecycle with its Redis away', () => {
  it(
    'started while its one Redis is down, it still finishes its start, and SIGTERM stops it (exit 0) and marks it stopped',
    async () => {
      // its start used to wait for Redis (the schedules' upserts), and a SIGTERM before the start had
      // finished found no handler: the signal's default action killed it (docs/faults.md)
      const nothingThere = await freePort();
      const worker = await startWorkerFully({
        WORKER_HEARTBEAT_MS: '200',
        REDIS_URL: `redis://127.0.0.1:${nothingThere}`,
        QUEUE_PREFIX: ownQueuePrefix('ops-never'),
      });
      const tookMs = await expectCleanStop(worker);
      expect(worker.stdout).toMatch(/Redis unreachable \(\d+ probes in a row\); cutting the queue connections/);
      console.log(`worker lifecycle: started with its Redis down, SIGTERM → exit 0 in ${tookMs} ms`);
    },
    SLOW,
  );

  it(
    'its one Redis killed and left down, SIGTERM still stops it (exit 0) and marks it stopped',
    async () => {
      const redis = await startRedisServer();
      const worker = await startWorkerFully({ WORKER_HEARTBEAT_MS: '200', REDIS_URL: redis.url, QUEUE_PREFIX: ownQueuePrefix('ops-down') });
      await new Promise((r) => setTimeout(r, 500)); // its BullMQ workers block on their reads
      await redis.child.stop('SIGKILL');
      await new Promise((r) => setTimeout(r, 3_000)); // every connection notices and waits to reconnect
      const tookMs = await expectCleanStop(worker);
      console.log(`worker lifecycle: its Redis down, SIGTERM → exit 0 in ${tookMs} ms`);
    },
    SLOW,
  );
});

describe('a wrong environment stops start-up naming the variable', () => {
  it('worker: WORKER_HEARTBEAT_MS=abc', async () => {
    const worker = spawnNode('worker', WORKER, { WORKER_HEARTBEAT_MS: 'abc' });
    const exit = (await worker.waitExit(30_000)) ?? fail(worker, 'the worker kept running with WORKER_HEARTBEAT_MS=abc');
    if (exit.code === 0 || exit.code === null) fail(worker, `expected a non-zero exit code, got ${JSON.stringify(exit)}`);
    expect(worker.stderr).toContain('WORKER_HEARTBEAT_MS');
    expect(worker.stdout).not.toContain('worker started');
  });

  it('api: PORT=notaport', async () => {
    const api = spawnNode('api', API, { PORT: 'notaport' });
    const exit = (await api.waitExit(30_000)) ?? fail(api, 'the api kept running with PORT=notaport');
    if (exit.code === 0 || exit.code === null) fail(api, `expected a non-zero exit code, got ${JSON.stringify(exit)}`);
    expect(api.stderr).toContain('PORT');
    expect(api.stderr).toContain('notaport');
    expect(api.stdout).not.toContain('listening');
  });
});

describe('readiness', () => {
  it(
    'goes not-ready while PostgreSQL is unreachable (liveness unaffected) and ready again when it is back',
    async () => {
      const target = new URL(process.env.DATABASE_URL!);
      const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
      await proxy.start();
      cleanups.push(() => proxy.close());
      const viaProxy = new URL(target.toString());
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);

      const { child, url } = await startApiProcess({ DATABASE_URL: viaProxy.toString(), DATABASE_POOL_SIZE: '4' });

      const before = await getJson(`${url}/health/ready`);
      if (before.status !== 200) fail(child, `not ready before the cut: ${JSON.stringify(before)}`);
      expect(before.body.details.database.status).toBe('up');
      expect(proxy.connections).toBeGreaterThan(0); // the api really talks to PostgreSQL through the proxy

      proxy.cut();
      const cutAt = Date.now();
      const down = await waitFor(
        '/health/ready to answer 503 after the cut',
        async () => {
          const res = await getJson(`${url}/health/ready`);
          return res.status === 503 ? res : undefined;
        },
        { timeoutMs: 10_000, intervalMs: 200 },
      ).catch((err: Error) => fail(child, err.message));
      expect(Date.now() - cutAt).toBeLessThan(10_000);
      // the body says which check failed, and still reports Redis and the worker
      expect(down.body.status).toBe('error');
      expect(down.body.error.database.status).toBe('down');
      expect(down.body.reported.redis.status).toBe('up');

      // requests needing PostgreSQL: the action API answers -99/503, the connector 500 (CONTRACTS.md "Errors")
      const anyKey = { 'api-key': `fwk_ZZZZZZZZ_${'A'.repeat(32)}`, 'content-type': 'application/json' };
      const act = await fetch(`${url}/api/getcompany`, { method: 'POST', headers: anyKey, body: JSON.stringify({ data: {} }) });
      expect({ http: act.status, body: await act.json() }).toEqual({ http: 503, body: { status: -99, error: expect.any(String) } });
      const conn = await fetch(`${url}/v1/auth/whoami`, { headers: anyKey });
      expect({ http: conn.status, body: await conn.json() }).toEqual({ http: 500, body: { error: { message: expect.any(String) } } });

      // still not ready on a second look, and the process stays alive
      expect((await getJson(`${url}/health/ready`)).status).toBe(503);
      const live = await getJson(`${url}/health/live`);
      expect(live).toEqual({ status: 200, body: { status: 'ok' } });
      expect(child.running).toBe(true);

      proxy.restore();
      const back = await waitFor(
        '/health/ready to answer 200 after the restore',
        async () => {
          const res = await getJson(`${url}/health/ready`);
          return res.status === 200 ? res : undefined;
        },
        { timeoutMs: 20_000, intervalMs: 250 },
      ).catch((err: Error) => fail(child, err.message));
      expect(back.body.details.database.status).toBe('up');
      expect(child.running).toBe(true);
    },
    SLOW,
  );

  it(
    'stays ready while Redis is down, reporting it, and SIGTERM still stops it (exit 0)',
    async () => {
      const redis = await startRedisServer();
      const { child, url } = await startApiProcess({ REDIS_URL: redis.url });

      const up = await waitFor(
        '/health/ready to report redis up',
        async () => {
          const res = await getJson(`${url}/health/ready`);
          return res.body?.reported?.redis?.status === 'up' ? res : undefined;
        },
        { timeoutMs: 10_000, intervalMs: 200 },
      ).catch((err: Error) => fail(child, err.message));
      expect(up.status).toBe(200);
      expect(up.body.reported.redis).toEqual({ status: 'up', pingMs: expect.any(Number) });

      // the private redis goes away (the shared one is never touched)
      const redisExit = await redis.child.stop('SIGTERM', 10_000);
      expect(redisExit.signal === null ? redisExit.code : redisExit.signal).toBe(0);

      const down = await waitFor(
        '/health/ready to report redis down',
        async () => {
          const res = await getJson(`${url}/health/ready`);
          return res.body?.reported?.redis?.status === 'down' ? res : undefined;
        },
        { timeoutMs: 15_000, intervalMs: 250 },
      ).catch((err: Error) => fail(child, err.message));
      expect(down.status).toBe(200);
      expect(down.body.status).toBe('ok');
      expect(down.body.details.database.status).toBe('up');
      expect(down.body.reported.redis).toEqual({ status: 'down', error: expect.any(String) });

      // and it keeps answering ready, promptly, while Redis stays down
      const startedAt = Date.now();
      const again = await getJson(`${url}/health/ready`);
      expect(again.status).toBe(200);
      expect(again.body.reported.redis.status).toBe('down');
      expect(Date.now() - startedAt).toBeLessThan(3_000);
      expect(child.running).toBe(true);

      // and, Redis still down, SIGTERM stops it cleanly (its Redis clients waiting to reconnect end)
      const stoppedAt = Date.now();
      const exit = await child.stop('SIGTERM', 30_000);
      if (exit.code !== 0)
        fail(child, `the api did not exit with code 0 on SIGTERM (after ${Date.now() - stoppedAt} ms): ${JSON.stringify(exit)}`);
      expect(exit).toEqual({ code: 0, signal: null });
    },
    SLOW,
  );
});

/**
 * Operations: JSON logs with a request id and no secrets, helmet headers, CORS off unless
 * configured, the queue dashboard behind credentials, and SIGTERM draining. The api runs as a BUILT
 * child process where its output or its exit is what is tested.
 */
describe('the api process: logs, headers, queue dashboard, SIGTERM', () => {
  let api: TestApi;
  let db: Client;

  beforeAll(async () => {
    api = await startApi();
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await stopAllChildren();
    await db.end();
    await api.close();
  });

  const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('logs JSON lines with the request id, and none of the secrets', async () => {
    const company = await createCompany(api);
    const proc: ApiProcess = await startApiProcess({ LOG_LEVEL: 'log' });
    const password = 'Sup3r-secret-passw0rd';
    const headerSecret = 'Bearer webhook-header-secret-9876';
    const created = await post(
      proc.url,
      '/api/createaccount',
      { data: { name: 'Logged', username: `log.${Date.now()}@example.test`, password } },
      { 'api-key': company.key, 'x-request-id': 'req-ops-1' },
    );
    expect(created.headers.get('x-request-id')).toBe('req-ops-1');
    const hooks = await post(proc.url, '/api/setwebhooks', {
      auth: { usr: company.username, key: company.key },
      data: { job_created: { url: 'https://hooks.example.com/x', header: { Authorization: headerSecret } } },
    });
    expect(hooks.status).toBe(200);
    const generated = hooks.headers.get('x-request-id');
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    const bad = await post(proc.url, '/api/getaccounts', { data: {} }, { 'x-request-id': 'not valid!' });
    // /osmand's device id is a credential: an unknown one is refused, and the line shows no id
    const device = `dev-secret-${Date.now()}`;
    expect((await fetch(`${proc.url}/osmand?id=${device}&lat=46.05&lon=14.5`, { method: 'POST' })).status).toBe(400);
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(
      'the request lines',
      async () => (proc.child.stdout.includes(generated!) && proc.child.stdout.includes('/osmand?id=')) || undefined,
      {
        timeoutMs: 5_000,
        intervalMs: 50,
      },
    );
    const lines = proc.child.stdout.split('\n').filter((l) => l.startsWith('{'));
    expect(lines.length).toBeGreaterThan(3);
    for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
    const line = JSON.parse(lines.find((l) => l.includes('req-ops-1'))!);
    expect(line).toMatchObject({ req: { id: 'req-ops-1', url: '/api/createaccount' }, res: { statusCode: 200 } });
    const all = proc.child.stdout + proc.child.stderr;
    for (const secret of [company.key, password, headerSecret, 'webhook-header-secret-9876', device]) expect(all).not.toContain(secret);
    expect(all).toContain('/osmand?id=[redacted]&lat=46.05&lon=14.5');
  });

  it('answers with helmet’s headers; CORS is off unless origins are configured', async () => {
    const res = await fetch(`${api.url}/health/live`, { headers: { origin: 'https://evil.example' } });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const proc = await startApiProcess({ CORS_ORIGINS: 'https://app.example.com' });
    const ok = await fetch(`${proc.url}/health/live`, { headers: { origin: 'https://app.example.com' } });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const other = await fetch(`${proc.url}/health/live`, { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('/admin/queues: 404 without credentials configured, 401 with wrong ones, 200 with the right, every queue listed', async () => {
    expect((await fetch(`${api.url}/admin/queues`)).status).toBe(404);
    const proc = await startApiProcess({ QUEUE_DASHBOARD_USER: 'support', QUEUE_DASHBOARD_PASSWORD: 'pa:ss word' });
    const basic = (u: string, p: string) => ({ authorization: `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}` });
    expect((await fetch(`${proc.url}/admin/queues`)).status).toBe(401);
    expect((await fetch(`${proc.url}/admin/queues`, { headers: basic('support', 'wrong') })).status).toBe(401);
    expect((await fetch(`${proc.url}/admin/queues/api/queues`, { headers: basic('someone', 'pa:ss word') })).status).toBe(401);
    const page = await fetch(`${proc.url}/admin/queues`, { headers: basic('support', 'pa:ss word') });
    expect(page.status).toBe(200);
    const list = await fetch(`${proc.url}/admin/queues/api/queues`, { headers: basic('support', 'pa:ss word') });
    const body = (await list.json()) as { queues: Array<{ name: string; readOnlyMode: boolean }> };
    expect(body.queues.map((q) => q.name).sort()).toEqual([...ALL_QUEUES].sort());
    expect(body.queues.every((q) => q.readOnlyMode)).toBe(true);
  });

  it('SIGTERM during a slow request: readiness fails first, the request completes, then the process exits 0', async () => {
    const company = await createCompany(api);
    const created = await post(api.url, '/api/createjobs', { data: { jobs: [{ destinationName: 'Held' }] } }, { 'api-key': company.key });
    const jobId = ((await created.json()) as { jobs: Array<{ id: string }> }).jobs[0].id;
    const proc = await startApiProcess({ SHUTDOWN_DRAIN_MS: '1500' });
    // a transaction holds the job's row: the edit below waits for it
    await db.query('BEGIN');
    await db.query('SELECT 1 FROM jobs WHERE id = $1 FOR UPDATE', [jobId]);
    const slow = post(proc.url, '/api/editjobs', { data: { jobs: { [jobId]: { priority: 5 } } } }, { 'api-key': company.key });
    await new Promise((r) => setTimeout(r, 300));
    proc.child.proc.kill('SIGTERM');
    const ready = await waitFor(
      'readiness to fail',
      async () => {
        const res = await fetch(`${proc.url}/health/ready`);
        return res.status === 503 ? res : undefined;
      },
      { timeoutMs: 1_400, intervalMs: 50 },
    );
    expect(
      ((await ready.json()) as { info?: { instance?: { draining: boolean } }; error?: { instance?: { draining: boolean } } }).error
        ?.instance?.draining,
    ).toBe(true);
    await new Promise((r) => setTimeout(r, 1_700)); // past the drain: the server is closing, the request still in flight
    await db.query('COMMIT');
    const res = await slow;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: number }).status).toBe(0);
    const exit = await proc.child.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect((await db.query('SELECT priority FROM jobs WHERE id = $1', [jobId])).rows[0].priority).toBe(5);
  });
});
