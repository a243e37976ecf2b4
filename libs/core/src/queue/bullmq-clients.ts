import { createIORedisClient, RedisConnection, RedisOptions } from 'bullmq';
import { ClosableRedis } from '../redis/closable-redis';

/**
 * Makes BullMQ build the ioredis clients it creates from options (the worker on one Redis server:
 * each queue's and each BullMQ worker's own connections, the blocking ones included) as
 * {@link ClosableRedis}, through BullMQ's documented hook `RedisConnection.clientFactory` — the
 * same construction as its default (`new IORedis(url, rest)` or `new IORedis(rest)`, wrapped by
 * `createIORedisClient`), with the one class changed. Without it a BullMQ worker closed while Redis is
 * down waits for ever for its blocking connection's `end`. Process-wide and idempotent; clients
 * passed to BullMQ as instances (the api's producer, every Redis Cluster client) are not affected.
 */
export function buildBullMqClientsClosable(): void {
  RedisConnection.clientFactory = (opts: RedisOptions) => {
    const { url, ...rest } = opts as RedisOptions & { url?: string };
    return createIORedisClient(url ? new ClosableRedis(url, rest) : new ClosableRedis(rest));
  };
}
