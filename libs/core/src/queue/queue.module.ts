import { BullModule, WorkerHost } from '@nestjs/bullmq';
import { DynamicModule, Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import type { ConnectionOptions, Worker } from 'bullmq';
import { Cluster } from 'ioredis';
import { AppConfig } from '../config/env';
import { SHUTDOWN_TRACE_EVERY_MS } from '../logging/shutdown-watch';
import { buildBullMqClientsClosable, cutBullMqClients } from './bullmq-clients';
import { RedisCutAtShutdown } from './redis-cut-at-shutdown';
import { redisReachable } from '../redis/redis-reachable';
import { workerCloseState } from './worker-close-state';
import { closeRedis, createRedis, RedisClient, redisConnectionOptions, usesRedisCluster } from '../redis/redis-factory';
import { queuePrefix } from './queue-prefix';
import { ALL_QUEUES, TASK_OPTIONS } from './queues';
import { TASK_PRODUCER_PROVIDER, TaskProducer } from './task-producer.service';

const QUEUE_ROLE = Symbol('QUEUE_ROLE');

/** How long a shutdown waits for Redis to answer the commands in flight and the QUIT (ms). */
const QUIT_WITHIN_MS = 2_000;
type QueueRole = 'producer' | 'worker';

/**
 * The connection BullMQ gets for every queue of this process, from the one Redis factory:
 * - api (`producer`): ONE client ({@link createRedis} `queue-producer`: no offline queue, one retry,
 *   so an add fails at once while Redis is down) shared by all its queues (a producer needs no more);
 * - worker, one Redis server: the options (BullMQ opens and closes the connections of each queue and
 *   worker itself, as it always did, as {@link ClosableRedis}: {@link buildBullMqClientsClosable});
 * - worker, Redis Cluster: ONE {@link Cluster} (`queue-worker`) shared by the queues and workers, each
 *   BullMQ worker duplicating it for its blocking reads (BullMQ can't build a Cluster from options).
 *
 * In the worker the BullMQ workers are closed here, in both modes (`Worker.close` waits for the tasks
 * in hand and is idempotent, so Nest's own close later is a no-op; Nest shuts this module down before
 * the global one that closes them), with a trace of what a slow close waits on. A shared client is
 * never closed by BullMQ: it is closed here at shutdown, after the workers. It is `quit` (the
 * commands already sent get their replies: `Worker.close` does not wait for a stalled-jobs check in
 * flight, which would otherwise fail on a connection cut under it), and `disconnect()`ed if that has
 * not finished within {@link QUIT_WITHIN_MS} (Redis away).
 *
 * Every BullMQ worker gets an `error` listener here, logging through Nest (at most one line per
 * worker every 30 s): without one, BullMQ prints the error's stack raw on stderr.
 */
@Injectable()
export class QueueConnection implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly connection: ConnectionOptions;
  private readonly owned?: RedisClient;
  private readonly logger = new Logger('Queues');
  /** the worker's: cuts its queue connections when Redis is unreachable during a shutdown */
  private readonly cutAtShutdown?: RedisCutAtShutdown;

  constructor(
    config: AppConfig,
    @Inject(QUEUE_ROLE) role: QueueRole,
    private readonly discovery: DiscoveryService,
  ) {
    if (role === 'worker' && !usesRedisCluster(config)) {
      buildBullMqClientsClosable();
      this.connection = redisConnectionOptions(config.REDIS_URL);
      this.cutAtShutdown = new RedisCutAtShutdown(
        () => redisReachable(config),
        () => void cutBullMqClients(),
        this.logger,
      );
      return;
    }
    const owned = createRedis(config, role === 'producer' ? 'queue-producer' : 'queue-worker');
    owned.on('error', () => undefined); // reported by the queues' error listeners (TaskProducer)
    this.owned = owned;
    this.connection = owned;
    if (role === 'worker')
      this.cutAtShutdown = new RedisCutAtShutdown(
        () => redisReachable(config, owned instanceof Cluster ? owned : undefined),
        () => owned.disconnect(),
        this.logger,
      );
  }

  /**
   * The worker calls this when its shutdown begins (the signal), before any shutdown hook can wait on
   * Redis: from then on, Redis unreachable for about a second gets this process's queue connections
   * cut ({@link RedisCutAtShutdown}; one server: every client BullMQ built, `cutBullMqClients`; Redis
   * Cluster: the shared Cluster, whose disconnect fails the commands queued on its nodes). A no-op in
   * the api, whose producer client never waits for Redis.
   */
  cutWhenRedisUnreachable(): void {
    this.cutAtShutdown?.start();
  }

  /**
   * Listens for the errors of every BullMQ worker of this process (created by Nest in `onModuleInit`).
   * Once a worker is closing, the cut of its own blocking connection is expected and not logged:
   * BullMQ skips that error itself on one server, but over a Cluster ioredis wraps it ("Too many
   * Cluster redirections. Last error: Error: Connection is closed.") and BullMQ emits it
   * (taskforcesh/bullmq#2402).
   */
  onApplicationBootstrap(): void {
    for (const host of this.workerHosts()) {
      const worker = workerOf(host);
      if (!worker) continue;
      let lastLog = 0;
      let closing = false;
      worker.once('closing', () => (closing = true));
      worker.on('error', (err: Error) => {
        if (closing && isClosedConnectionError(err)) return;
        if (Date.now() - lastLog < 30_000) return;
        lastLog = Date.now();
        this.logger.warn(`worker ${worker.name}: ${err.message}`);
      });
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await closeWorkers(
      this.workerHosts().flatMap((host) => workerOf(host) ?? []),
      this.logger,
    );
    if (this.owned) await closeRedis(this.owned, QUIT_WITHIN_MS);
  }

  private workerHosts(): WorkerHost[] {
    return this.discovery
      .getProviders()
      .map((wrapper) => wrapper.instance as unknown)
      .filter((instance): instance is WorkerHost => instance instanceof WorkerHost);
  }
}

/**
 * Closes BullMQ workers (`Worker.close`: the tasks in hand finish first; idempotent) and resolves when
 * all have closed, whatever their errors. A close that waits long — a task in hand, or a Redis
 * command not answered — is named every {@link SHUTDOWN_TRACE_EVERY_MS} ms on `logger`, with what
 * each such worker waits on ({@link workerCloseState}: its loop, its connections), so a shutdown
 * that hangs past its grace period leaves a trace of where.
 */
export async function closeWorkers(workers: Array<Pick<Worker, 'name' | 'close'>>, logger: Pick<Logger, 'warn'>): Promise<void> {
  const open = new Set(workers);
  const report = setInterval(() => {
    const names = [...open].map((w) => w.name).join(', ');
    const states = [...open].map((w) => `${w.name} [${workerCloseState(w)}]`).join(', ');
    logger.warn(`shutdown: still closing the BullMQ workers of ${names} (tasks in hand finish first): ${states}`);
  }, SHUTDOWN_TRACE_EVERY_MS);
  try {
    await Promise.all(
      workers.map((w) =>
        w
          .close()
          .catch(() => undefined)
          .finally(() => open.delete(w)),
      ),
    );
  } finally {
    clearInterval(report);
  }
}

/** "Connection is closed", as ioredis says it on one server or wraps it in a Cluster. */
export function isClosedConnectionError(err: Error): boolean {
  return /^(Too many Cluster redirections\. Last error: Error: )?Connection is closed\.?$/.test(err.message);
}

/** The host's BullMQ worker, or undefined before it is set up (WorkerHost's getter throws then). */
function workerOf(host: WorkerHost) {
  try {
    return host.worker;
  } catch {
    return undefined;
  }
}

/**
 * BullMQ over ioredis, with every queue registered (each with its {@link queuePrefix}) and
 * {@link TaskProducer} to add tasks. Both apps import it; only the worker registers processors.
 */
@Module({})
export class QueueModule {
  /**
   * `role: 'producer'` (the api) adds over a client that never waits for Redis, so an enqueue is
   * bounded; `worker` keeps what BullMQ workers need (offline queue, endless retries).
   */
  static register({ role = 'worker' }: { role?: QueueRole } = {}): DynamicModule {
    @Module({
      imports: [DiscoveryModule],
      providers: [{ provide: QUEUE_ROLE, useValue: role }, QueueConnection],
      exports: [QueueConnection],
    })
    class QueueConnectionModule {}

    return {
      module: QueueModule,
      global: true,
      imports: [
        BullModule.forRootAsync({
          imports: [QueueConnectionModule],
          inject: [QueueConnection],
          useFactory: (queue: QueueConnection) => ({ connection: queue.connection }),
        }),
        BullModule.registerQueueAsync(
          ...ALL_QUEUES.map((name) => ({
            name,
            inject: [AppConfig],
            useFactory: (config: AppConfig) => ({ prefix: queuePrefix(config, name), defaultJobOptions: TASK_OPTIONS[name].defaults }),
          })),
        ),
      ],
      providers: [TASK_PRODUCER_PROVIDER],
      exports: [BullModule, TaskProducer],
    };
  }
}
