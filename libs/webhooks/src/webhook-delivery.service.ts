import { PhaseWatch } from '@app/core';
import { Injectable, Logger } from '@nestjs/common';
import { DrainOutcome } from './drain-rules';
import { WebhookHooksDrain } from './subscriptions/webhook-hooks-drain.service';
import { WebhookDrain } from './webhook-drain.service';
import { WebhookDrainProducer } from './webhook-drain-producer.service';
import { WebhookPruner } from './webhook-pruner.service';
import { WebhookReconciler } from './webhook-reconciler.service';

/** ms a drain's hand-on enqueue may take before {@link PhaseWatch} names it: a Redis add takes ms, or a reconnection's few seconds. */
const HAND_ON_WATCH_MS = 15_000;

/**
 * At-least-once webhook delivery as the worker's `webhook-delivery` queue sees it: one method per
 * task, each handing over to the class that does that job — {@link WebhookDrainProducer} (wake-ups,
 * drain tasks), {@link WebhookDrain} (an endpoint's: claim, sign, POST, record), {@link WebhookHooksDrain}
 * (a company's REST hook subscriptions'), {@link WebhookReconciler} (lost
 * claims, lost tasks) and {@link WebhookPruner} (retention). PostgreSQL holds the truth: a delivery
 * row per (event, endpoint or REST hook subscription); BullMQ tasks only wake workers.
 */
@Injectable()
export class WebhookDeliveryService {
  private readonly logger = new Logger('WebhookDelivery');

  constructor(
    private readonly drains: WebhookDrainProducer,
    private readonly drainer: WebhookDrain,
    private readonly hooksDrainer: WebhookHooksDrain,
    private readonly reconciler: WebhookReconciler,
    private readonly pruner: WebhookPruner,
  ) {}

  /** `wake`: events committed; enqueues a drain per endpoint they have deliveries to. @returns how many. */
  async wake(eventIds: string[]): Promise<number> {
    return this.drains.wake(eventIds);
  }

  /**
   * `drain`: delivers the endpoint's due deliveries; when it stopped at its time budget (or for
   * shutdown), a fresh task goes to the back of the queue (other endpoints first).
   */
  async drain(endpointId: string, companyId: string | null): Promise<DrainOutcome> {
    const outcome = await this.drainer.drain(endpointId, companyId);
    if (outcome.more) {
      const next = Date.now() + (outcome.moreAfterMs ?? 0);
      const watch = new PhaseWatch(this.logger, `drain of endpoint ${endpointId}`, HAND_ON_WATCH_MS);
      watch.enter('enqueueing its hand-on (Redis)');
      try {
        await this.drains.enqueue([{ endpointId, companyId, target: 'endpoint', next, tag: '-more' }]);
      } finally {
        watch.end();
      }
    }
    return outcome;
  }

  /** `drainhooks`: delivers the due deliveries of a company's REST hook subscriptions; hands on as {@link drain} does. */
  async drainHooks(companyId: string): Promise<DrainOutcome> {
    const outcome = await this.hooksDrainer.drainHooks(companyId);
    if (outcome.more)
      await this.drains.enqueue([
        { endpointId: companyId, companyId, target: 'subscription', next: Date.now() + (outcome.moreAfterMs ?? 0), tag: '-more' },
      ]);
    return outcome;
  }

  /**
   * The reconciler's tick (a worker timer): released claims and enqueued drains.
   * @param atStart the worker's first tick (its drains get task ids of their own)
   */
  async reconcile(atStart = false): Promise<{ released: number; enqueued: number }> {
    return this.reconciler.reconcile(atStart);
  }

  /** The dead-worker sweep (a worker timer, every heartbeat): releases the claims of workers whose heartbeat stopped. @returns how many. */
  async releaseDeadWorkers(): Promise<number> {
    return this.reconciler.releaseDeadWorkers();
  }

  /** The lost wake-up pass (a worker timer, twice a heartbeat): drains for never-tried deliveries no wake-up reached. @returns how many. */
  async wakeUnwoken(): Promise<number> {
    return this.reconciler.wakeUnwoken();
  }

  /** `prune`: deletes what is past the retention. @returns rows deleted. */
  async prune(): Promise<number> {
    return this.pruner.prune();
  }
}
