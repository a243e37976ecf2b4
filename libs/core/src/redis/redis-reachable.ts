import Redis, { Cluster } from 'ioredis';
import { AppConfig } from '../config/env';
import { redisClusterNodes, redisConnectionOptions, usesRedisCluster } from './redis-factory';

/** ms a probe's connect and PING may take before that server counts as unreachable. */
export const REACH_TIMEOUT_MS = 1_000;

/**
 * Whether Redis answers now: a `PING` over a NEW connection of its own (no offline queue, no retry,
 * connect and command each bounded by `timeoutMs`), so the answer never waits behind the commands
 * queued on this process's connections, and a server that accepts no connection or answers nothing
 * counts as unreachable. One server (`REDIS_URL`): that server. Redis Cluster: EVERY master `cluster`
 * knows of (`nodes('master')`), or every seed of `REDIS_CLUSTER_NODES` when it knows none — a
 * command for a slot whose master is away waits as long as that master does.
 * Resolves false on any failure; never throws.
 */
export async function redisReachable(
  config: Pick<AppConfig, 'REDIS_URL' | 'REDIS_CLUSTER_NODES'>,
  cluster?: Cluster,
  timeoutMs = REACH_TIMEOUT_MS,
): Promise<boolean> {
  const { host, port, ...auth } = redisConnectionOptions(config.REDIS_URL);
  if (!usesRedisCluster(config)) return ping({ ...auth, host, port }, timeoutMs);
  const known = (cluster?.nodes('master') ?? []).map((node) => ({ host: node.options.host ?? host, port: node.options.port ?? port }));
  const targets = known.length ? known : redisClusterNodes(config);
  const answers = await Promise.all(targets.map((node) => ping({ ...auth, db: 0, host: node.host, port: node.port }, timeoutMs)));
  return answers.every(Boolean);
}

/** One PING to one server over a connection of its own, closed after. */
async function ping(options: ReturnType<typeof redisConnectionOptions>, timeoutMs: number): Promise<boolean> {
  const client = new Redis({
    ...options,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
  });
  client.on('error', () => undefined); // the answer is the probe's result
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}
