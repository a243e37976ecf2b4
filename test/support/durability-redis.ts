import Redis from 'ioredis';

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
