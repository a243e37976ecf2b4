import { AuthContext, invalid, notFound } from '@app/core';
import { Injectable } from '@nestjs/common';
import { DeliveryRow, OutboxEventsRead } from './core-outbox-events.read';
import { DeliveryTarget } from './entities/webhook-delivery.entity';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDrainProducer } from './webhook-drain-producer.service';

/** One attempt as the delivery log answers it. */
export interface AttemptView {
  /** ms */
  at: number;
  durationMs: number;
  httpStatus: number | null;
  error: string | null;
  outcome: string;
}

/** One delivery with its attempts. */
export interface DeliveryView extends DeliveryRow {
  attemptLog: AttemptView[];
}

/** The delivery log and replay (our extension; administrators). */
@Injectable()
export class WebhookLogService {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly events: OutboxEventsRead,
    private readonly drains: WebhookDrainProducer,
  ) {}

  /** Deliveries of the company, newest first, by event id or key, from `since` (ms), with their attempts. */
  async list(ctx: AuthContext, q: { eventId?: string; key?: string; since?: number; limit?: number }): Promise<DeliveryView[]> {
    const rows = await this.events.deliveryLog(ctx.companyId, {
      eventId: q.eventId,
      key: q.key,
      since: q.since ?? 0,
      limit: q.limit ?? 100,
    });
    if (!rows.length) return [];
    const attempts = await this.deliveries.attemptsOf(
      ctx.companyId,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({
      ...r,
      attemptLog: attempts.filter((a) => a.deliveryId === r.id).map(({ deliveryId: _d, ...a }) => a),
    }));
  }

  /**
   * replaywebhookdelivery: sends the delivery again (same webhook-id, a new attempt), whatever its state.
   * @throws DomainError not_found for an unknown (or other company's) delivery; invalid when its
   *   endpoint (or REST hook subscription) was removed or is disabled, or its event was pruned.
   */
  async replay(ctx: AuthContext, deliveryId: string): Promise<DeliveryView> {
    const found = await this.reset(ctx.companyId, deliveryId, Date.now());
    if (!found) throw notFound(`data.deliveryId: delivery ${deliveryId}`);
    if (!found.endpoint)
      throw invalid(
        'data.deliveryId',
        `the ${found.target === 'subscription' ? 'hook subscription' : 'endpoint'} of this delivery was removed`,
      );
    if (found.disabled) throw invalid('data.deliveryId', 'the endpoint of this delivery is disabled: set its URL again to re-enable it');
    if (!found.event) throw invalid('data.deliveryId', 'the event of this delivery was pruned');
    await this.drains.wake([], [deliveryId]);
    const [view] = (await this.list(ctx, { eventId: found.event })).filter((d) => d.id === deliveryId);
    return view;
  }

  /**
   * Puts a delivery of the company back to pending, due `now`, with its failures reset — only when
   * its endpoint still exists and is enabled and its event is still there — in one transaction under
   * the delivery's row lock (the pruner cannot delete it, nor so its event, meanwhile).
   * @returns what was found (`event` its id, null once pruned; `replayed` when reset), or undefined
   *   for an unknown (or other company's) delivery
   */
  private reset(
    companyId: string,
    deliveryId: string,
    now: number,
  ): Promise<
    { target: DeliveryTarget; endpoint: string | null; disabled: boolean | null; event: string | null; replayed: boolean } | undefined
  > {
    return this.deliveries.transaction(async (db) => {
      const target = await this.deliveries.lockForReplay(db, companyId, deliveryId);
      if (!target) return undefined;
      const event = (await this.events.exists(db, target.eventId)) ? target.eventId : null;
      const replayed = target.endpoint !== null && !target.disabled && event !== null;
      if (replayed) await this.deliveries.resetToPending(db, target.id, now);
      return { target: target.target, endpoint: target.endpoint, disabled: target.disabled, event, replayed };
    });
  }
}
