import { AppConfig } from '@app/core';
import { Injectable } from '@nestjs/common';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

/** Retention (CONTRACTS.md: attempt and outbox rows pruned after `WEBHOOK_RETENTION_DAYS`, in batches, by a repeatable task). */
@Injectable()
export class WebhookPruner {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly config: AppConfig,
  ) {}

  /** Deletes attempts, finished deliveries and their outbox events older than the retention. @returns rows deleted. */
  async prune(): Promise<number> {
    return this.deliveries.pruneBefore(Date.now() - this.config.WEBHOOK_RETENTION_DAYS * 86_400_000);
  }
}
