import { AuthContext, invalid, notFound } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { WebhookDeliveryService } from './webhook-delivery.service';

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
export interface DeliveryView {
  id: string;
  /** the webhook-id */
  eventId: string;
  key: string;
  action: string | null;
  formId: string | null;
  state: string;
  attempts: number;
  /** ms */
  nextAttemptAt: number | null;
  createdAt: number;
  finishedAt: number | null;
  lastStatus: number | null;
  lastError: string | null;
  attemptLog: AttemptView[];
}

/** The delivery log and replay (our extension; administrators). */
@Injectable()
export class WebhookLogService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly delivery: WebhookDeliveryService,
  ) {}

  /** Deliveries of the company, newest first, by event id or key, from `since` (ms), with their attempts. */
  async list(ctx: AuthContext, q: { eventId?: string; key?: string; since?: number; limit?: number }): Promise<DeliveryView[]> {
    const rows: Array<Omit<DeliveryView, 'attemptLog'>> = await this.dataSource.query(
      `SELECT d.id, d.event_id AS "eventId", d.event_key AS key, o.action, o.form_id AS "formId", d.state, d.attempts,
              CASE WHEN d.state = 'pending' THEN d.next_attempt_at::float8 END AS "nextAttemptAt",
              d.created_at::float8 AS "createdAt", d.finished_at::float8 AS "finishedAt", d.last_status AS "lastStatus", d.last_error AS "lastError"
         FROM webhook_deliveries d LEFT JOIN outbox_events o ON o.id = d.event_id
        WHERE d.company_id = $1 AND ($2::text IS NULL OR d.event_id = $2) AND ($3::text IS NULL OR d.event_key = $3) AND d.created_at >= $4
        ORDER BY d.created_at DESC, d.id DESC LIMIT $5`,
      [ctx.companyId, q.eventId ?? null, q.key ?? null, q.since ?? 0, q.limit ?? 100],
    );
    if (!rows.length) return [];
    const attempts: Array<AttemptView & { deliveryId: string }> = await this.dataSource.query(
      `SELECT delivery_id AS "deliveryId", started_at::float8 AS at, duration_ms AS "durationMs", http_status AS "httpStatus", error, outcome
         FROM webhook_attempts WHERE company_id = $1 AND delivery_id = ANY($2::text[]) ORDER BY started_at, id`,
      [ctx.companyId, rows.map((r) => r.id)],
    );
    return rows.map((r) => ({
      ...r,
      attemptLog: attempts.filter((a) => a.deliveryId === r.id).map(({ deliveryId: _d, ...a }) => a),
    }));
  }

  /**
   * replaywebhookdelivery: sends the delivery again (same webhook-id, a new attempt), whatever its state.
   * @throws DomainError not_found for an unknown (or other company's) delivery; invalid when its
   *   endpoint was removed or is disabled, or its event was pruned.
   */
  async replay(ctx: AuthContext, deliveryId: string): Promise<DeliveryView> {
    const eventId: string = await this.dataSource.transaction(async (m) => {
      const [row] = await m.query(
        `SELECT d.id, e.id AS endpoint, e.disabled, o.id AS event FROM webhook_deliveries d
           LEFT JOIN webhook_endpoints e ON e.id = d.endpoint_id LEFT JOIN outbox_events o ON o.id = d.event_id
          WHERE d.id = $1 AND d.company_id = $2 FOR UPDATE OF d`,
        [deliveryId, ctx.companyId],
      );
      if (!row) throw notFound(`data.deliveryId: delivery ${deliveryId}`);
      if (!row.endpoint) throw invalid('data.deliveryId', 'the endpoint of this delivery was removed');
      if (row.disabled) throw invalid('data.deliveryId', 'the endpoint of this delivery is disabled: set its URL again to re-enable it');
      if (!row.event) throw invalid('data.deliveryId', 'the event of this delivery was pruned');
      await m.query(
        `UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = $2, failures = 0, finished_at = NULL, locked_until = NULL WHERE id = $1`,
        [deliveryId, Date.now()],
      );
      return row.event;
    });
    await this.delivery.wake([], [deliveryId]);
    const [view] = (await this.list(ctx, { eventId })).filter((d) => d.id === deliveryId);
    return view;
  }
}
