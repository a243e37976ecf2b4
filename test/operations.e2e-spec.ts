import { hostname } from 'node:os';
import { Client } from 'pg';
import { startApi, TestApi } from './support/api';
import { Child, getJson, spawnNode, startApiProcess, startRedisServer, stopAllChildren, waitFor } from './support/proc-child';
import { TcpProxy } from './support/tcp-proxy';
import { dropQueueKeys as dropRedisKeys } from './support/durability-redis';

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
    'stays ready while Redis is down, reporting it',
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
    },
    SLOW,
  );
});
