import { AppConfig } from '@app/core';
import { Injectable } from '@nestjs/common';
import { WorkerHeartbeatsRead } from './core-worker-heartbeats.read';
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
    private readonly heartbeats: WorkerHeartbeatsRead,
  ) {}

  /**
   * Releases claims whose worker died (`locked_until` passed: the attempt is made again, with the
   * same webhook-id), abandons due deliveries of REST hook subscriptions that are gone, and enqueues
   * a drain for every endpoint (and company's subscriptions) with deliveries due within the next
   * interval (`WEBHOOK_RECONCILE_MS`; BullMQ ignores ids it already holds).
   * @param atStart the worker's first pass: its drains get task ids of their own (tag `-start`), so
   *   a drain task still held, locked, by a killed worker (until BullMQ finds it stalled) cannot hold
   *   them back
   * @returns how many deliveries were released, and how many drains enqueued.
   */
  async reconcile(atStart = false): Promise<{ released: number; enqueued: number }> {
    const now = Date.now();
    const released = await this.deliveries.releaseLostClaims(now);
    await this.deliveries.abandonOrphanHookDeliveries(now);
    const points = await this.deliveries.drainPoints(
      now + this.config.WEBHOOK_RECONCILE_MS,
      this.config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT,
    );
    await this.drains.enqueue(atStart ? points.map((p) => ({ ...p, tag: '-start' })) : points);
    return { released, enqueued: points.length };
  }

  /**
   * Releases the claims of workers whose heartbeat stopped — no beat for {@link DEAD_AFTER_BEATS}
   * heartbeat intervals (`WORKER_HEARTBEAT_MS`) — without waiting for their `locked_until`, and
   * drains their endpoints (and companies' subscriptions) at once under task ids of their own (tag
   * `-released`), which a dead worker's locked drain task cannot hold back. Run every heartbeat
   * interval by each worker; idempotent.
   * @returns how many deliveries were released.
   */
  async releaseDeadWorkers(): Promise<number> {
    const dead = await this.heartbeats.deadClaimOwners(DEAD_AFTER_BEATS * this.config.WORKER_HEARTBEAT_MS);
    const { released, points } = await this.deliveries.releaseClaimsOf(dead);
    const now = Date.now();
    if (points.length) await this.drains.enqueue(points.map((p) => ({ ...p, next: now, tag: '-released' })));
    return released;
  }

  /**
   * Wake-ups that never came: enqueues a drain for every endpoint (and company's subscriptions) with
   * a never-tried pending delivery due between `WEBHOOK_RECONCILE_MS` and {@link UNWOKEN_AFTER_MS} ago —
   * an api killed between its transaction's commit and its `wake` enqueue leaves exactly that (issue
   * #29 item 4). Run twice per heartbeat by each worker, so such a delivery goes out about
   * {@link UNWOKEN_AFTER_MS} + half a beat after it was due instead of at the next reconcile. The
   * task ids are the wake-up's own (`drain-<endpoint>-<earliest due ms>`), so a wake-up still waiting
   * in BullMQ absorbs this one; a backlogged endpoint (its deliveries waiting behind the in-flight
   * cap) gets an extra drain per pass, which claims what is free or nothing. Idempotent.
   * @returns how many drains were enqueued.
   */
  async wakeUnwoken(): Promise<number> {
    const now = Date.now();
    const points = await this.deliveries.unattemptedDrainPoints(now - this.config.WEBHOOK_RECONCILE_MS, now - UNWOKEN_AFTER_MS);
    await this.drains.enqueue(points);
    return points.length;
  }
}

/**
 * ms a never-tried delivery waits past its due time before a worker wakes its drain itself: the
 * api's wake-up reaches a drain within milliseconds; this leaves it, and a wake-up queued behind
 * busy drains, the room to come first.
 */
export const UNWOKEN_AFTER_MS = 2000;

/** Heartbeat intervals without a beat after which a worker is taken as dead and its claims released. */
export const DEAD_AFTER_BEATS = 3;
