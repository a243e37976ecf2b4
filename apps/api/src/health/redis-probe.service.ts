import { AppConfig, redisConnectionOptions } from '@app/core';
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';

/**
 * Reports Redis' state for readiness: its own connection that never queues commands while
 * disconnected, so a probe answers at once during a Redis outage.
 */
@Injectable()
export class RedisProbe implements OnModuleDestroy {
  private readonly client: Redis;

  constructor(config: AppConfig) {
    this.client = new Redis({
      ...redisConnectionOptions(config.REDIS_URL),
      lazyConnect: false,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
    });
    this.client.on('error', () => undefined); // state is read from `status`; errors are expected during outages
  }

  /** `up` with the ping's round trip in ms, or `down` with the reason. */
  async state(): Promise<{ status: 'up'; pingMs: number } | { status: 'down'; error: string }> {
    const start = Date.now();
    try {
      await Promise.race([
        this.client.ping(),
        new Promise((_, reject) => setTimeout(() => reject(new Error('ping timed out')), 1000).unref()),
      ]);
      return { status: 'up', pingMs: Date.now() - start };
    } catch (err) {
      return { status: 'down', error: (err as Error).message };
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.client.disconnect();
  }
}
