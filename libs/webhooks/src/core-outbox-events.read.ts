import { query, queryOne, Queryable } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** One delivery of the log (attempts apart). */
export interface DeliveryRow {
  id: string;
  /** the webhook-id */
  eventId: string;
  /** the event's webhook key */
  key: string;
  /** the REST hook subscription delivered to (`/v1/hooks`), or null for the key's endpoint */
  hookId: string | null;
  action: string | null;
  formId: string | null;
  state: string;
  attempts: number;
  /** ms; only while pending */
  nextAttemptAt: number | null;
  createdAt: number;
  finishedAt: number | null;
  lastStatus: number | null;
  lastError: string | null;
}

/**
 * The webhooks lib's reads of the outbox: a documented read model of `outbox_events` (owned by
 * `@app/core`, which writes and deletes its rows through `OutboxRepository`), alone or joined with the
 * lib's own `webhook_deliveries`: the delivery log's action and form id, whether a delivery's event
 * is still there (replay), and the events retention may delete. Reads only; times are ms.
 */
@Injectable()
export class OutboxEventsRead {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A company's deliveries, newest first, by event id and/or key, made at or after `since` (ms), at most `limit`, with their event's action and form id (null once pruned). */
  deliveryLog(companyId: string, q: { eventId?: string; key?: string; since: number; limit: number }): Promise<DeliveryRow[]> {
    return query<DeliveryRow>(
      this.dataSource,
      `SELECT d.id, d.event_id AS "eventId", d.event_key AS key,
              CASE WHEN d.target = 'subscription' THEN d.endpoint_id END AS "hookId", o.action, o.form_id AS "formId", d.state, d.attempts,
              CASE WHEN d.state = 'pending' THEN d.next_attempt_at::float8 END AS "nextAttemptAt",
              d.created_at::float8 AS "createdAt", d.finished_at::float8 AS "finishedAt", d.last_status AS "lastStatus", d.last_error AS "lastError"
         FROM webhook_deliveries d LEFT JOIN outbox_events o ON o.company_id = d.company_id AND o.id = d.event_id
        WHERE d.company_id = $1 AND ($2::text IS NULL OR d.event_id = $2) AND ($3::text IS NULL OR d.event_key = $3) AND d.created_at >= $4
        ORDER BY d.created_at DESC, d.id DESC LIMIT $5`,
      [companyId, q.eventId ?? null, q.key ?? null, q.since, q.limit],
    );
  }

  /** Whether event `eventId` is still in the outbox (not pruned), read in `db` (the replay's transaction). */
  async exists(db: Queryable, eventId: string): Promise<boolean> {
    return (await queryOne<{ id: string }>(db, `SELECT id FROM outbox_events WHERE id = $1`, [eventId])) !== undefined;
  }

  /** The ids of at most `limit` events written before `before` (ms) with no delivery left (retention). */
  async prunable(before: number, limit: number): Promise<string[]> {
    const rows = await query<{ id: string }>(
      this.dataSource,
      `SELECT o.id FROM outbox_events o WHERE o.created_at < $1
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.company_id = o.company_id AND d.event_id = o.id) LIMIT $2`,
      [before, limit],
    );
    return rows.map((r) => r.id);
  }

  /**
   * The commit-ordered stamps (`outbox_events.stamped_at`, ms) of some of a company's events, read
   * after the drain stamped the company: a REST hook body's item carries it as `createdAt`, as the
   * polling routes do. @returns event id → stamp, for the events stamped (a pruned one is absent)
   */
  async eventStamps(companyId: string, eventIds: readonly string[]): Promise<Map<string, number>> {
    const rows = await query<{ id: string; stampedAt: number }>(
      this.dataSource,
      `SELECT id, stamped_at::float8 AS "stampedAt" FROM outbox_events
        WHERE company_id = $1 AND id = ANY($2::varchar[]) AND stamped_at IS NOT NULL`,
      [companyId, eventIds],
    );
    return new Map(rows.map((r) => [r.id, r.stampedAt]));
  }
}
