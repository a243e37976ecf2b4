import { Injectable, Logger, Optional } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { newEventId } from '../ids';
import { SQL_NOW_MS } from '../time';
import { OutboxEvent } from './outbox-event.entity';
import { QueueName } from '../queue/queues';
import { TaskProducer } from '../queue/task-producer';

/** What a domain service records: the webhook key, action, form `id` and the `data` value. */
export interface OutboxEventInput {
  companyId: string;
  /** Webhook configuration key, e.g. `job_updated`. */
  eventKey: string;
  /** Delivered action, e.g. `jobupdated`. */
  action: string;
  /** Form field `id`. */
  formId: string;
  /** Form field `data`, serialised here with `JSON.stringify`. */
  data: unknown;
}

/**
 * The transactional outbox (CONTRACTS.md, "Events and webhooks"): {@link append} writes the event
 * with the caller's transaction manager, so the event exists if and only if the change commits.
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
      .add(QueueName.WebhookDelivery, 'wake', { eventIds }, { removeOnComplete: true, removeOnFail: true, attempts: 3 })
      .catch((err: Error) => this.logger.warn(`could not wake delivery of ${eventIds.length} events: ${err.message}`));
  }

  /**
   * Records one event in the caller's transaction. Call it after the change, with the payload
   * built from the changed rows inside that transaction.
   * @returns the stored event (its `id` is the `webhook-id`).
   */
  async append(manager: EntityManager, event: OutboxEventInput): Promise<OutboxEvent> {
    if (!manager.queryRunner?.isTransactionActive) {
      throw new Error('OutboxService.append must be called inside a transaction');
    }
    const id = newEventId();
    const rows: OutboxEvent[] = await manager.query(
      `INSERT INTO outbox_events (id, company_id, event_key, action, form_id, payload, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, ${SQL_NOW_MS})
       RETURNING id, company_id AS "companyId", event_key AS "eventKey", action, form_id AS "formId",
                 payload, created_at::float8 AS "createdAt"`,
      [id, event.companyId, event.eventKey, event.action, event.formId, JSON.stringify(event.data)],
    );
    return rows[0];
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
