import { AppConfig, loadConfig, QueueName, TaskPayloads, TaskProducer } from '@app/core';
import { WebhookDeliveryService } from '@app/webhooks';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap } from '@nestjs/common';
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
export class WebhookDeliveryProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger('WebhookDelivery');

  constructor(
    private readonly delivery: WebhookDeliveryService,
    private readonly producer: TaskProducer,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async onApplicationBootstrap(): Promise<void> {
    const queue = this.producer.all().find((q) => q.name === QueueName.WebhookDelivery)!;
    // fixed scheduler ids: every worker upserts the same schedules, so each runs once per interval in total
    await queue.upsertJobScheduler('webhook-reconcile', { every: this.config.WEBHOOK_RECONCILE_MS }, { name: 'reconcile', data: {} });
    await queue.upsertJobScheduler('webhook-prune', { every: 3_600_000 }, { name: 'prune', data: {} });
    // after a restart (or a Redis that lost everything) pick up what is pending at once
    await this.producer.add(QueueName.WebhookDelivery, 'reconcile', {}, { removeOnComplete: true, removeOnFail: true, attempts: 1 });
  }

  async process(task: WebhookTask): Promise<unknown> {
    switch (task.name) {
      case 'wake':
        return { enqueued: await this.delivery.wake(task.data.eventIds) };
      case 'deliver': {
        const outcome = await this.delivery.deliver(task.data.deliveryId);
        if (outcome.nextAttemptAt !== undefined) await this.delivery.enqueue([{ id: task.data.deliveryId, next: outcome.nextAttemptAt }]);
        return outcome;
      }
      case 'reconcile': {
        const result = await this.delivery.reconcile();
        if (result.released) this.logger.warn(`released ${result.released} deliveries whose worker stopped mid-attempt`);
        return result;
      }
      case 'prune':
        return { deleted: await this.delivery.prune() };
    }
  }
}
