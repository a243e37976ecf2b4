import { AppConfig } from '../config/env';
import { QueueName } from './queues';

/**
 * The BullMQ `prefix` of `queue`. One Redis server: `QUEUE_PREFIX`, as always (keys
 * `<prefix>:<queue>:…`). Redis Cluster (`REDIS_CLUSTER_NODES`): `{<QUEUE_PREFIX>:<queue>}`, a hash tag
 * of the queue's own (CONTRACTS.md "Wave 3: scale") — BullMQ's scripts touch several keys of one
 * queue at once, which a cluster allows only within one slot, and a tag per queue (rather than one
 * for all) spreads the queues over the slots, so over the masters. Keys are then
 * `{<prefix>:<queue>}:<queue>:…`. Every Queue, Worker and QueueEvents of a queue must use this.
 */
export function queuePrefix(config: Pick<AppConfig, 'QUEUE_PREFIX' | 'REDIS_CLUSTER_NODES'>, queue: QueueName): string {
  return config.REDIS_CLUSTER_NODES ? `{${config.QUEUE_PREFIX}:${queue}}` : config.QUEUE_PREFIX;
}
