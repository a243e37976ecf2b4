import { AppConfig, OutboxRepository } from '@app/core';
import { Injectable } from '@nestjs/common';
import { OutboxEventsRead } from './core-outbox-events.read';
import { PRUNE_BATCH, WebhookDeliveriesRepository } from './webhook-deliveries.repository';

/** Retention (CONTRACTS.md: attempt and outbox rows pruned after `WEBHOOK_RETENTION_DAYS`, in batches, by a repeatable task). */
@Injectable()
export class WebhookPruner {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly events: OutboxEventsRead,
    private readonly outbox: OutboxRepository,
    private readonly config: AppConfig,
  ) {}

  /**
   * Deletes attempts, finished deliveries and their outbox events older than the retention, in
   * batches of `PRUNE_BATCH` rows: the events written before it with no delivery left are read
   * ({@link OutboxEventsRead.prunable}) and deleted by id through core's `OutboxRepository` (no new
   * delivery is ever made for an old event: the fan-out runs at insert). @returns rows deleted.
   */
  async prune(): Promise<number> {
    const before = Date.now() - this.config.WEBHOOK_RETENTION_DAYS * 86_400_000;
    let total = await this.deliveries.pruneBefore(before);
    for (;;) {
      const ids = await this.events.prunable(before, PRUNE_BATCH);
      total += await this.outbox.deleteByIds(ids);
      if (ids.length < PRUNE_BATCH) break;
    }
    return total;
  }
}
