import { Injectable, Logger, Optional } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { newEventId } from '../ids';
import { SQL_NOW_MS } from '../time';
import { OutboxEventInput } from './outbox-events';
import { QueueName } from '../queue/queues';
import { TaskProducer } from '../queue/task-producer';

/**
 * The transactional outbox (CONTRACTS.md, "Events and webhooks"): {@link appendMany} writes the events
 * with the caller's transaction manager, so an event exists if and only if the change commits.
 */
@Injectable()
export class OutboxService {
  private readonly logger = new Logger('Outbox');

  /** `producer` is absent in the CLI (no Redis there): the worker's reconciler wakes those events. */
  constructor(@Optional() private readonly producer?: TaskProducer) {}

  /**
   * Wakes delivery for events whose transaction committed: one `wake` task, not awaited (a Redis
   * outage never fails or slows the request; the worker's reconciler finds the deliveries anyway).
   */
  wake(eventIds: string[]): void {
    if (!eventIds.length || !this.producer) return;
    this.producer
      .add(QueueName.WebhookDelivery, 'wake', { eventIds })
      .catch((err: Error) => this.logger.warn(`could not wake delivery of ${eventIds.length} events: ${err.message}`));
  }

  /**
   * Records several events in the caller's transaction with one statement (the order of `events`
   * is kept in their ids). @returns the events' ids in the same order.
   */
  async appendMany(manager: EntityManager, events: OutboxEventInput[]): Promise<string[]> {
    if (!events.length) return [];
    if (!manager.queryRunner?.isTransactionActive) {
      throw new Error('OutboxService.appendMany must be called inside a transaction');
    }
    const ids = events.map(() => newEventId());
    // the payloads travel as one json array whose elements `json_array_elements` hands back verbatim
    // (JSON.stringify(e.data) byte for byte), instead of as strings escaped a second time
    await manager.query(
      `INSERT INTO outbox_events (id, company_id, event_key, action, form_id, payload, created_at)
       SELECT u.id, u.company_id, u.event_key, u.action, u.form_id, p.payload::text, ${SQL_NOW_MS}
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS u(id, company_id, event_key, action, form_id, n)
         JOIN json_array_elements($6::json) WITH ORDINALITY AS p(payload, n) ON p.n = u.n`,
      [
        ids,
        events.map((e) => e.companyId),
        events.map((e) => e.eventKey),
        events.map((e) => e.action),
        events.map((e) => e.formId),
        `[${events.map((e) => JSON.stringify(e.data)).join(',')}]`,
      ],
    );
    return ids;
  }
}
