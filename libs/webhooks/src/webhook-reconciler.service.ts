import { AppConfig } from '@app/core';
import { Injectable } from '@nestjs/common';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDrainProducer } from './webhook-drain-producer.service';

/**
 * The reconciler (CONTRACTS.md "Delivery": BullMQ tasks only wake workers). Run on a timer in every
 * worker process — not as a BullMQ schedule, which a Redis that lost its data would lose too;
 * idempotent, so several workers running it is harmless.
 */
@Injectable()
export class WebhookReconciler {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly drains: WebhookDrainProducer,
    private readonly config: AppConfig,
  ) {}

  /**
   * Releases claims whose worker died (`locked_until` passed: the attempt is made again, with the
   * same webhook-id), abandons due deliveries of REST hook subscriptions that are gone, and enqueues
   * a drain for every endpoint (and company's subscriptions) with deliveries due within the next
   * interval (`WEBHOOK_RECONCILE_MS`; BullMQ ignores ids it already holds).
   * @returns how many deliveries were released, and how many drains enqueued.
   */
  async reconcile(): Promise<{ released: number; enqueued: number }> {
    const now = Date.now();
    const released = await this.deliveries.releaseLostClaims(now);
    await this.deliveries.abandonOrphanHookDeliveries(now);
    const points = await this.deliveries.drainPoints(
      now + this.config.WEBHOOK_RECONCILE_MS,
      this.config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT,
    );
    await this.drains.enqueue(points);
    return { released, enqueued: points.length };
  }
}
