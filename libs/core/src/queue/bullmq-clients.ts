import { createIORedisClient, RedisConnection, RedisOptions } from 'bullmq';
import { ClosableRedis } from '../redis/closable-redis';

/** The clients {@link buildBullMqClientsClosable}'s factory made that have not ended yet. */
const open = new Set<ClosableRedis>();

/**
 * Makes BullMQ build the ioredis clients it creates from options (the worker on one Redis server:
 * each queue's and each BullMQ worker's own connections, the blocking ones included) as
 * {@link ClosableRedis}, through BullMQ's documented hook `RedisConnection.clientFactory` — the
 * same construction as its default (`new IORedis(url, rest)` or `new IORedis(rest)`, wrapped by
 * `createIORedisClient`), with the one class changed. Without it a BullMQ worker closed while Redis is
 * down waits for ever for its blocking connection's `end`. Each client is also kept (until its `end`)
 * for {@link cutBullMqClients}. Process-wide and idempotent; clients passed to BullMQ as instances (the
 * api's producer, every Redis Cluster client) are not affected.
 */
export function buildBullMqClientsClosable(): void {
  RedisConnection.clientFactory = (opts: RedisOptions) => {
    const { url, ...rest } = opts as RedisOptions & { url?: string };
    const client = url ? new ClosableRedis(url, rest) : new ClosableRedis(rest);
    open.add(client);
    client.once('end', () => open.delete(client));
    return createIORedisClient(client);
  };
}

/**
 * Disconnects every client {@link buildBullMqClientsClosable}'s factory made that has not ended: what
 * waits on them — commands in the offline queue, a connection's first connect — fails at once with
 * "Connection is closed." ({@link ClosableRedis}). For a shutdown with Redis unreachable
 * (`RedisCutAtShutdown`). Returns how many were cut.
 */
export function cutBullMqClients(): number {
  const clients = [...open];
  for (const client of clients) client.disconnect();
  return clients.length;
}
