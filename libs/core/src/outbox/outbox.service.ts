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
    const rows = events.map((e) => ({
      id: newEventId(),
      company_id: e.companyId,
      event_key: e.eventKey,
      action: e.action,
      form_id: e.formId,
      payload: JSON.stringify(e.data),
    }));
    await manager.query(
      `INSERT INTO outbox_events (id, company_id, event_key, action, form_id, payload, created_at)
       SELECT x.id, x.company_id, x.event_key, x.action, x.form_id, x.payload, ${SQL_NOW_MS}
         FROM json_to_recordset($1::json) AS x(id text, company_id text, event_key text, action text, form_id text, payload text)`,
      [JSON.stringify(rows)],
    );
    return rows.map((r) => r.id);
  }
}
