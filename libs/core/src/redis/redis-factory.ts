import Redis, { Cluster, ClusterOptions, RedisOptions } from 'ioredis';
import { AppConfig } from '../config/env';
import { ClosableCluster } from './closable-cluster';
import { ClosableRedis } from './closable-redis';
import { parseRedisClusterNodes, RedisNode } from './redis-nodes';

/** A connection to Redis: one server (`REDIS_URL`) or a Redis Cluster (`REDIS_CLUSTER_NODES`). */
export type RedisClient = Redis | Cluster;

/**
 * What a connection is for; each purpose has its own settings (the same in both modes):
 * - `queue-producer`: the api's queues — no offline queue, one retry, so an add fails at once while
 *   Redis is away instead of waiting for it (BullMQ's advice for producers);
 * - `queue-worker`: the worker's queues and BullMQ workers — offline queue and endless retries
 *   (`maxRetriesPerRequest: null`, which BullMQ workers require);
 * - `rate-limit`: the limiter's counters — fails fast, the limiter then lets requests through;
 * - `health-probe`: readiness — fails fast, short connect timeout;
 * - `stream-tokens`: the live stream's tokens — one retry.
 */
export type RedisPurpose = 'queue-producer' | 'queue-worker' | 'rate-limit' | 'health-probe' | 'stream-tokens';

/** Per-purpose options laid over {@link redisConnectionOptions} (exactly what each user passed before the factory). */
const PURPOSE_OPTIONS: Record<RedisPurpose, RedisOptions> = {
  'queue-producer': { enableOfflineQueue: false, maxRetriesPerRequest: 1 },
  'queue-worker': {},
  'rate-limit': { enableOfflineQueue: false, maxRetriesPerRequest: 1 },
  'health-probe': { lazyConnect: false, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 },
  'stream-tokens': { maxRetriesPerRequest: 1, lazyConnect: false },
};

/** ms between reconnection attempts: growing by 200 ms, at most 5 s (so a Redis restart is survived). */
const reconnectDelay = (times: number) => Math.min(times * 200, 5000);

/**
 * ioredis options from a `redis://` URL (one server). `maxRetriesPerRequest: null` is what BullMQ
 * workers need; the reconnect strategy keeps retrying (capped at 5 s) so a Redis restart is survived.
 */
export function redisConnectionOptions(url: string) {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username || undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
    tls: u.protocol === 'rediss:' ? {} : undefined,
    maxRetriesPerRequest: null,
    enableOfflineQueue: true,
    retryStrategy: reconnectDelay,
  };
}

/** Whether this configuration runs on Redis Cluster (`REDIS_CLUSTER_NODES` set). */
export function usesRedisCluster(config: Pick<AppConfig, 'REDIS_CLUSTER_NODES'>): boolean {
  return !!config.REDIS_CLUSTER_NODES;
}

/** The cluster's seed nodes. @throws Error when `REDIS_CLUSTER_NODES` is unset or invalid (loadConfig refuses that earlier). */
export function redisClusterNodes(config: Pick<AppConfig, 'REDIS_CLUSTER_NODES'>): RedisNode[] {
  const parsed = parseRedisClusterNodes(config.REDIS_CLUSTER_NODES ?? '');
  if ('error' in parsed) throw new Error(`REDIS_CLUSTER_NODES ${parsed.error}`);
  return parsed.nodes;
}

/**
 * ioredis Cluster options for `purpose`. Every node connection takes `REDIS_URL`'s user, password
 * and TLS (`rediss://`); its host, port and database are not used (a cluster has database 0 only;
 * loadConfig refuses a `/<db>` with `REDIS_CLUSTER_NODES`). The cluster-level offline queue follows
 * the purpose (a node's own is always on in ioredis); lost nodes are reconnected with the same
 * back-off as one server, so a restarted master is used again as soon as it answers.
 */
export function redisClusterOptions(config: Pick<AppConfig, 'REDIS_URL'>, purpose: RedisPurpose): ClusterOptions {
  const {
    host: _host,
    port: _port,
    db: _db,
    retryStrategy: _retry,
    enableOfflineQueue,
    ...base
  } = redisConnectionOptions(config.REDIS_URL);
  const { enableOfflineQueue: purposeOffline, lazyConnect, ...purposeOptions } = PURPOSE_OPTIONS[purpose];
  return {
    redisOptions: { ...base, ...purposeOptions },
    enableOfflineQueue: purposeOffline ?? enableOfflineQueue,
    lazyConnect: lazyConnect ?? false,
    clusterRetryStrategy: reconnectDelay,
    clusterNodeRetryStrategy: reconnectDelay,
    // a slot's master unreachable (restarting): ask again shortly instead of failing at once
    retryDelayOnClusterDown: 200,
    retryDelayOnTryAgain: 200,
    slotsRefreshTimeout: 2000,
  };
}

/**
 * THE way this codebase connects to Redis: one server from `REDIS_URL` ({@link ClosableRedis}: its
 * `disconnect()` ends it also while it waits to reconnect), or — with
 * `REDIS_CLUSTER_NODES` — an ioredis {@link Cluster} ({@link ClosableCluster}: its `disconnect()` always
 * ends) over those seed nodes, with `purpose`'s settings
 * either way. Without `REDIS_CLUSTER_NODES` the result is exactly what each user built before
 * (same options, same key names). The caller owns it (`disconnect()`/`quit()` at shutdown) and must
 * add an `error` listener.
 */
export function createRedis(config: Pick<AppConfig, 'REDIS_URL' | 'REDIS_CLUSTER_NODES'>, purpose: RedisPurpose): RedisClient {
  if (usesRedisCluster(config)) return new ClosableCluster(redisClusterNodes(config), redisClusterOptions(config, purpose));
  return new ClosableRedis({ ...redisConnectionOptions(config.REDIS_URL), ...PURPOSE_OPTIONS[purpose] });
}

/**
 * Closes a client the way a graceful shutdown should: `quit()` (Redis answers what was sent before
 * it, then closes), bounded by `withinMs`; then `disconnect()` if the client is not closed by then
 * (Redis not answering, or away: a QUIT would wait for ever in the offline queue), waiting up to
 * {@link CUT_WITHIN_MS} more for its socket to close. Resolves once closed or bounded; never throws.
 */
export async function closeRedis(client: RedisClient, withinMs: number): Promise<void> {
  const closed = () => client.status === 'end';
  if (closed()) return;
  const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
  // QUIT answered: the socket closes right after ('end'); refused (no offline queue, Redis away): cut now
  const quit = client.quit().then(
    () => ended,
    () => undefined,
  );
  await within(quit, withinMs);
  if (closed()) return;
  client.disconnect();
  await within(ended, CUT_WITHIN_MS);
}

/** How long {@link closeRedis} waits for the socket to close after cutting it (ms). */
const CUT_WITHIN_MS = 250;

/** Waits for `promise`, or `ms`, whichever comes first. */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
