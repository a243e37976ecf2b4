import Redis, { Cluster } from 'ioredis';
import { queuePrefix } from '../queue/queue-prefix';
import { QueueName } from '../queue/queues';
import { createRedis, redisClusterOptions, redisConnectionOptions, RedisPurpose } from './redis-factory';

const SINGLE = { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_CLUSTER_NODES: undefined, QUEUE_PREFIX: 'fieldwork' };
const CLUSTER = { ...SINGLE, REDIS_CLUSTER_NODES: '127.0.0.1:7000,127.0.0.1:7001' };

describe('createRedis: one factory for every Redis use', () => {
  /** What each user built itself before the factory (rate-limit.service, redis-probe.service, stream-tokens.service, queue.module). */
  const before: Record<Exclude<RedisPurpose, 'queue-worker'>, object> = {
    'queue-producer': { ...redisConnectionOptions(SINGLE.REDIS_URL), enableOfflineQueue: false, maxRetriesPerRequest: 1 },
    'rate-limit': { ...redisConnectionOptions(SINGLE.REDIS_URL), enableOfflineQueue: false, maxRetriesPerRequest: 1 },
    'health-probe': {
      ...redisConnectionOptions(SINGLE.REDIS_URL),
      lazyConnect: false,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
    },
    'stream-tokens': { ...redisConnectionOptions(SINGLE.REDIS_URL), maxRetriesPerRequest: 1, lazyConnect: false },
  };

  it.each(Object.entries(before))('without REDIS_CLUSTER_NODES, %s is one server with the options it always had', (purpose, options) => {
    const redis = createRedis({ ...SINGLE, REDIS_URL: 'redis://127.0.0.1:1' }, purpose as RedisPurpose);
    try {
      expect(redis).toBeInstanceOf(Redis);
      // ioredis keeps an absent user/password/TLS as null: compare what was set
      const set = Object.entries(options).filter(([k, v]) => v !== undefined && k !== 'host' && k !== 'port' && k !== 'retryStrategy');
      expect((redis as Redis).options).toMatchObject({
        ...Object.fromEntries(set),
        host: '127.0.0.1',
        port: 1,
        retryStrategy: expect.any(Function),
      });
    } finally {
      redis.disconnect();
    }
  });

  it('with REDIS_CLUSTER_NODES, a Cluster over those seed nodes', () => {
    const cluster = createRedis({ ...CLUSTER, REDIS_CLUSTER_NODES: '127.0.0.1:1' }, 'rate-limit');
    cluster.on('error', () => undefined);
    try {
      expect(cluster).toBeInstanceOf(Cluster);
      expect((cluster as Cluster).options.enableOfflineQueue).toBe(false);
    } finally {
      cluster.disconnect();
    }
  });

  it("cluster nodes take REDIS_URL's user, password and TLS, never its host or database; the offline queue follows the purpose", () => {
    const config = { REDIS_URL: 'rediss://app:s%40cret@ignored.example:6390' };
    const producer = redisClusterOptions(config, 'queue-producer');
    expect(producer.enableOfflineQueue).toBe(false);
    expect(producer.redisOptions).toEqual({ username: 'app', password: 's@cret', tls: {}, maxRetriesPerRequest: 1 });
    const worker = redisClusterOptions(config, 'queue-worker');
    expect(worker.enableOfflineQueue).toBe(true);
    // BullMQ workers refuse a shared client whose maxRetriesPerRequest is set
    expect(worker.redisOptions).toMatchObject({ maxRetriesPerRequest: null });
    expect(worker.redisOptions).not.toHaveProperty('host');
    expect(worker.redisOptions).not.toHaveProperty('db');
    expect(redisClusterOptions(config, 'health-probe')).toMatchObject({ lazyConnect: false, redisOptions: { connectTimeout: 2000 } });
    expect(worker.clusterNodeRetryStrategy!(1)).toBe(200);
    expect(worker.clusterNodeRetryStrategy!(100)).toBe(5000);
  });
});

describe('queuePrefix', () => {
  it('one server: QUEUE_PREFIX as always (keys <prefix>:<queue>:…)', () => {
    expect(queuePrefix(SINGLE, QueueName.WebhookDelivery)).toBe('fieldwork');
  });

  it('Redis Cluster: a hash tag per queue, {<prefix>:<queue>}', () => {
    expect(queuePrefix(CLUSTER, QueueName.WebhookDelivery)).toBe('{fieldwork:webhook-delivery}');
    expect(queuePrefix(CLUSTER, QueueName.Reports)).toBe('{fieldwork:reports}');
  });
});
