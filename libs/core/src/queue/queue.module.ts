import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../config/env';
import { ALL_QUEUES, TASK_OPTIONS } from './queues';
import { TASK_PRODUCER_PROVIDER, TaskProducer } from './task-producer.service';

/**
 * The api's ONE Redis connection for all its queues (a producer needs no more): no offline queue and
 * one retry per command, so an add fails at once while Redis is down instead of waiting for it
 * (BullMQ's advice for producers). Shared with BullMQ, which therefore never closes it: closed here,
 * with `disconnect()`, which cannot fail when Redis is away (a `quit` would be refused then).
 */
@Injectable()
export class ProducerRedis implements OnApplicationShutdown {
  readonly client: Redis;

  constructor(config: AppConfig) {
    this.client = new Redis({ ...redisConnectionOptions(config.REDIS_URL), enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    this.client.on('error', () => undefined); // reported by the queues' error listeners (TaskProducer)
  }

  onApplicationShutdown(): void {
    this.client.disconnect();
  }
}

@Module({ providers: [ProducerRedis], exports: [ProducerRedis] })
class ProducerRedisModule {}

/**
 * BullMQ over ioredis, with every queue registered and {@link TaskProducer} to add tasks. Both apps
 * import it; only the worker registers processors.
 */
@Module({})
export class QueueModule {
  /**
   * `role: 'producer'` (the api) adds over {@link ProducerRedis}, which never waits for Redis, so an
   * enqueue is bounded; `worker` keeps what BullMQ workers need (offline queue, endless retries).
   */
  static register({ role = 'worker' }: { role?: 'producer' | 'worker' } = {}): DynamicModule {
    const root =
      role === 'producer'
        ? BullModule.forRootAsync({
            imports: [ProducerRedisModule],
            inject: [AppConfig, ProducerRedis],
            useFactory: (config: AppConfig, redis: ProducerRedis) => ({
              connection: redis.client,
              prefix: config.QUEUE_PREFIX,
            }),
          })
        : BullModule.forRootAsync({
            inject: [AppConfig],
            useFactory: (config: AppConfig) => ({
              connection: redisConnectionOptions(config.REDIS_URL),
              prefix: config.QUEUE_PREFIX,
            }),
          });
    return {
      module: QueueModule,
      global: true,
      imports: [root, BullModule.registerQueue(...ALL_QUEUES.map((name) => ({ name, defaultJobOptions: TASK_OPTIONS[name].defaults })))],
      providers: [TASK_PRODUCER_PROVIDER],
      exports: [BullModule, TaskProducer],
    };
  }
}

/**
 * ioredis options from a `redis://` URL. `maxRetriesPerRequest: null` is what BullMQ workers need;
 * the reconnect strategy keeps retrying (capped at 5 s) so a Redis restart is survived.
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
    retryStrategy: (times: number) => Math.min(times * 200, 5000),
  };
}
