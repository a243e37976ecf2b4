import { QueueName, TaskProducer } from '@app/core';
import { Injectable } from '@nestjs/common';
import { DrainPoint, WebhookDeliveriesRepository } from './webhook-deliveries.repository';

/** Drains enqueued per call to BullMQ at most (the reconciler can find many endpoints). */
const ENQUEUE_CHUNK = 1000;

/** Enqueues `drain` / `drainhooks` tasks: for committed events (`wake`), replays, retries, hand-ons and the reconciler. */
@Injectable()
export class WebhookDrainProducer {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly producer: TaskProducer,
  ) {}

  /**
   * Enqueues a drain for each endpoint (and each company's subscriptions) with pending deliveries of
   * these events (after their commit), or of these deliveries. @returns how many drains.
   */
  async wake(eventIds: string[], deliveryIds: string[] = []): Promise<number> {
    const points = await this.deliveries.dueEndpoints(eventIds, deliveryIds);
    await this.enqueue(points);
    return points.length;
  }

  /**
   * One task per drain point, delayed until its time (ms): `drain` for an endpoint, `drainhooks` for
   * a company's subscriptions. Its task id `drain-<endpoint>-<ms><tag>` (`drainhooks-<company>-…`)
   * dedupes re-enqueues of the same point (BullMQ ignores an id it holds, and refuses ":" in ids);
   * `tag` tells a drain's hand-on from a wake-up at the same ms.
   */
  async enqueue(points: Array<DrainPoint & { tag?: string }>): Promise<void> {
    const now = Date.now();
    for (let i = 0; i < points.length; i += ENQUEUE_CHUNK) {
      await this.producer.addBulk(
        QueueName.WebhookDelivery,
        points.slice(i, i + ENQUEUE_CHUNK).map((p) => {
          const opts = { delay: Math.max(0, p.next - now) };
          return p.target === 'subscription'
            ? {
                name: 'drainhooks' as const,
                data: { companyId: p.endpointId },
                opts: { ...opts, jobId: `drainhooks-${p.endpointId}-${p.next}${p.tag ?? ''}` },
              }
            : {
                name: 'drain' as const,
                data: p.companyId ? { endpointId: p.endpointId, companyId: p.companyId } : { endpointId: p.endpointId },
                opts: { ...opts, jobId: `drain-${p.endpointId}-${p.next}${p.tag ?? ''}` },
              };
        }),
      );
    }
  }
}
