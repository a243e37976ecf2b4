import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from '../config/env';
import { ALL_QUEUES, DEFAULT_TASK_OPTIONS } from './queues';
import { TaskProducer } from './task-producer';

/**
 * BullMQ over ioredis, with every queue registered and {@link TaskProducer} to add tasks. Both apps
 * import it; only the worker registers processors.
 */
@Module({})
export class QueueModule {
  /**
   * `role: 'producer'` (the api) gets a connection that never waits for Redis: commands fail at once
   * while it is disconnected (BullMQ's advice for producers), so an enqueue is bounded; `worker` keeps
   * what BullMQ workers need (offline queue, endless retries).
   */
  static register({ role = 'worker' }: { role?: 'producer' | 'worker' } = {}): DynamicModule {
    return {
      module: QueueModule,
      global: true,
      imports: [
        BullModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            connection:
              role === 'producer'
                ? { ...redisConnectionOptions(config.REDIS_URL), enableOfflineQueue: false, maxRetriesPerRequest: 1 }
                : redisConnectionOptions(config.REDIS_URL),
            prefix: config.QUEUE_PREFIX,
            defaultJobOptions: DEFAULT_TASK_OPTIONS,
          }),
        }),
        BullModule.registerQueue(...ALL_QUEUES.map((name) => ({ name }))),
      ],
      providers: [TaskProducer],
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
