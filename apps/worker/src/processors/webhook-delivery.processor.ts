import { AppConfig, loadConfig, QueueName, TaskPayloads, TaskProducer } from '@app/core';
import { WebhookDeliveryService } from '@app/webhooks';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Job } from 'bullmq';

type WebhookTask = {
  [T in keyof TaskPayloads['webhook-delivery']]: Job<TaskPayloads['webhook-delivery'][T], unknown, T>;
}[keyof TaskPayloads['webhook-delivery']];

/** Worker options from the environment: many deliveries at once (the per-endpoint cap is ours). */
function webhookWorkerOptions() {
  const config = loadConfig();
  return { concurrency: config.WEBHOOK_CONCURRENCY, lockDuration: config.QUEUE_LOCK_MS, stalledInterval: config.QUEUE_LOCK_MS };
}

/** Webhook delivery tasks: thin, each calls one method of {@link WebhookDeliveryService}. */
@Processor(QueueName.WebhookDelivery, webhookWorkerOptions())
export class WebhookDeliveryProcessor extends WorkerHost implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('WebhookDelivery');
  private timer?: NodeJS.Timeout;
  private reconciling = false;

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
   */
  async onApplicationBootstrap(): Promise<void> {
    this.timer = setInterval(() => void this.tick(), this.config.WEBHOOK_RECONCILE_MS);
    await this.tick();
  }

  beforeApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  private async tick(): Promise<void> {
    if (this.reconciling) return;
    this.reconciling = true;
    try {
      const result = await this.delivery.reconcile();
      if (result.released) this.logger.warn(`released ${result.released} deliveries whose worker stopped mid-attempt`);
      const queue = this.producer.queue(QueueName.WebhookDelivery);
      // a fixed scheduler id: every worker upserts the same schedule, so pruning runs once an hour in total
      await queue.upsertJobScheduler('webhook-prune', { every: 3_600_000 }, { name: 'prune', data: {} });
    } catch (err) {
      this.logger.warn(`reconcile failed: ${(err as Error).message}`);
    } finally {
      this.reconciling = false;
    }
  }

  async process(task: WebhookTask): Promise<unknown> {
    switch (task.name) {
      case 'wake':
        return { enqueued: await this.delivery.wake(task.data.eventIds) };
      case 'drain':
        return this.delivery.drain(task.data.endpointId);
      case 'drainhooks':
        return this.delivery.drainHooks(task.data.companyId);
      case 'prune':
        return { deleted: await this.delivery.prune() };
    }
  }
}
