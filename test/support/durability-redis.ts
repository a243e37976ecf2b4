import { tmpdir } from 'node:os';
import Redis from 'ioredis';
import { Child, childEnv, redisPing, RedisProcess, waitFor } from './proc-child';

/**
 * A private, throw-away `redis-server` on a GIVEN loopback port (no persistence), e.g. to bring
 * back a Redis the test stopped, empty, where the api and worker expect it. Never the machine's
 * shared Redis.
 */
export async function startRedisOnPort(port: number, timeoutMs = 10_000): Promise<RedisProcess> {
  const child = new Child(
    `redis:${port}`,
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tmpdir(), '--loglevel', 'warning'],
    childEnv(),
  );
  try {
    await waitFor(
      `redis-server on :${port}`,
      async () => {
        if (!child.running) throw new Error(`redis-server exited: ${JSON.stringify(child.exit)}`);
        return redisPing(port);
      },
      { timeoutMs, intervalMs: 100 },
    );
  } catch (err) {
    await child.stop('SIGKILL');
    throw new Error(`could not start redis-server on :${port}: ${(err as Error).message}\n${child.output()}`);
  }
  return { child, port, url: `redis://127.0.0.1:${port}` };
}

/** Runs `fn` with a short-lived client of `url` (fails fast instead of retrying forever). */
export async function withRedis<T>(url: string, fn: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await fn(redis);
  } finally {
    redis.disconnect();
  }
}

/** Deletes every key under `<prefix>:` (what the api and workers of one test left behind). */
export async function dropQueueKeys(url: string, prefix: string): Promise<void> {
  await withRedis(url, async (redis) => {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  });
}
