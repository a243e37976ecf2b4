import { AppConfig, loadConfig, QueueName, SHUTDOWN_TRACE_EVERY_MS, TaskPayloads, TaskProducer } from '@app/core';
import { WebhookDeliveryService } from '@app/webhooks';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Job } from 'bullmq';
import { workerOptions } from './maintenance.processor';

type WebhookTask = {
  [T in keyof TaskPayloads['webhook-delivery']]: Job<TaskPayloads['webhook-delivery'][T], unknown, T>;
}[keyof TaskPayloads['webhook-delivery']];

/** Worker options from the environment: many deliveries at once (the per-endpoint cap is ours). */
function webhookWorkerOptions() {
  const config = loadConfig();
  return { ...workerOptions(), concurrency: config.WEBHOOK_CONCURRENCY };
}

/** Webhook delivery tasks: thin, each calls one method of {@link WebhookDeliveryService}. */
@Processor(QueueName.WebhookDelivery, webhookWorkerOptions())
export class WebhookDeliveryProcessor extends WorkerHost implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('WebhookDelivery');
  private timer?: NodeJS.Timeout;
  private sweepTimer?: NodeJS.Timeout;
  /** the reconcile and the sweep running, if any (one of each at a time; shutdown waits for them) */
  private ticking?: Promise<void>;
  private sweeping?: Promise<void>;
  /** set at shutdown: no pass starts after it (the first tick follows the first sweep, not awaited by the start) */
  private stopping = false;

  constructor(
    private readonly delivery: WebhookDeliveryService,
    private readonly producer: TaskProducer,
    private readonly config: AppConfig,
  ) {
    super();
  }

  /**
   * The reconciler runs on a timer in every worker process, not as a BullMQ schedule: it must keep
   * running when Redis comes back empty (a schedule kept in Redis would be gone with it). It is
   * idempotent, so several workers running it is harmless. Each tick also re-upserts the prune schedule.
   * A second timer, twice per `WORKER_HEARTBEAT_MS`, releases the claims of workers whose heartbeat
   * stopped (a `kill -9`), so their deliveries go out again within seconds, not at `locked_until`,
   * and drains the never-tried deliveries whose api wake-up never came (an api's `kill -9` between
   * its commit and its enqueue), so they go out within seconds, not at the next reconcile.
   */
  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), this.config.WEBHOOK_RECONCILE_MS);
    // twice a heartbeat: a dead worker's claims wait at most half a beat past its being taken as dead
    this.sweepTimer = setInterval(() => void this.sweep(), Math.max(100, this.config.WORKER_HEARTBEAT_MS / 2));
    // the first passes at once, not awaited: both enqueue to Redis, and the start must finish with Redis
    // away (upsertJobSchedulers in @app/core says why); each catches its own errors
    void this.sweep().then(() => this.tick(true));
  }

  /** Stops the timers and waits for a pass still running, so none touches Redis or PostgreSQL after they close. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    clearInterval(this.sweepTimer);
    // a pass that waits long (a Redis or PostgreSQL command not answered) leaves a trace of it
    const report = setInterval(() => this.logger.warn('shutdown: still waiting for a reconcile or dead-worker pass'), SHUTDOWN_TRACE_EVERY_MS);
    await Promise.allSettled([this.ticking, this.sweeping]).finally(() => clearInterval(report));
  }

  private sweep(): Promise<void> {
    if (this.stopping) return Promise.resolve();
    this.sweeping ??= this.sweepOnce().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async sweepOnce(): Promise<void> {
    try {
      const released = await this.delivery.releaseDeadWorkers();
      if (released) this.logger.warn(`released ${released} deliveries whose worker stopped mid-attempt (its heartbeat stopped)`);
    } catch (err) {
      this.logger.warn(`dead-worker sweep failed: ${(err as Error).message}`);
    }
    try {
      await this.delivery.wakeUnwoken();
    } catch (err) {
      this.logger.warn(`lost wake-up pass failed: ${(err as Error).message}`);
    }
  }

  private tick(atStart = false): Promise<void> {
    if (this.stopping) return Promise.resolve();
    this.ticking ??= this.tickOnce(atStart).finally(() => (this.ticking = undefined));
    return this.ticking;
  }

  private async tickOnce(atStart: boolean): Promise<void> {
    try {
      const result = await this.delivery.reconcile(atStart);
      if (result.released) this.logger.warn(`released ${result.released} deliveries whose worker stopped mid-attempt`);
      const queue = this.producer.queue(QueueName.WebhookDelivery);
      // a fixed scheduler id: every worker upserts the same schedule, so pruning runs once an hour in total
      await queue.upsertJobScheduler('webhook-prune', { every: 3_600_000 }, { name: 'prune', data: {} });
    } catch (err) {
      this.logger.warn(`reconcile failed: ${(err as Error).message}`);
    }
  }

  async process(task: WebhookTask): Promise<unknown> {
    switch (task.name) {
      case 'wake':
        return { enqueued: await this.delivery.wake(task.data.eventIds) };
      case 'drain':
        return this.delivery.drain(task.data.endpointId, task.data.companyId ?? null);
      case 'drainhooks':
        return this.delivery.drainHooks(task.data.companyId);
      case 'prune':
        return { deleted: await this.delivery.prune() };
    }
  }
}
