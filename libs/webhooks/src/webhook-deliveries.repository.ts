import { PROCESS_ID, query, queryOne, Queryable } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DeliveryTarget } from './entities/webhook-delivery.entity';

/**
 * A delivery claimed for one attempt, with what the attempt needs: one row of
 * `fieldwork_webhook_batch` (a nine-key endpoint's; migrations `WebhookBatchClaim`,
 * `AddWebhookBatchSecrets`) or of `fieldwork_webhook_hooks_claim` (a company's REST hook
 * subscriptions'; migration `CreateWebhookSubscriptions`).
 */
export interface ClaimedDelivery {
  id: string;
  companyId: string;
  eventId: string;
  failures: number;
  url: string;
  headers: Record<string, string>;
  /** ms; null while the target is not failing */
  failingSince: number | null;
  /** null when the event was pruned */
  action: string | null;
  formId: string | null;
  payload: string | null;
  /** the signing secret: the company's newest (null when it has none yet), or the subscription's own */
  secret: string | null;
  previousSecret: string | null;
  /** ms until which `previousSecret` also signs */
  previousExpiresAt: number | null;
  /** a nine-key endpoint (form body, the company's secrets) or a REST hook subscription (JSON body, its own secret) */
  target: DeliveryTarget;
  /** the endpoint's or the subscription's id */
  targetId: string;
  /** ms, the event's creation time (database clock), for subscriptions; null for endpoints, or when the event was pruned */
  eventCreatedAt: number | null;
  /** ms, the event's commit-ordered stamp (`outbox_events.stamped_at`), for subscriptions; null for endpoints, or before stamping */
  eventStampedAt: number | null;
}

/** One attempt to record, with the delivery's new state (one element of the batch call's `p_record`). */
export interface AttemptRecord {
  /** the delivery */
  id: string;
  company: string;
  state: 'pending' | 'delivered' | 'abandoned';
  /** ms of the next attempt (pending), else null */
  next: number | null;
  failures: number;
  status: number | null;
  error: string | null;
  /** ms; null while pending */
  finished: number | null;
  /** the attempt row's id */
  attempt: string;
  /** ms */
  started: number;
  /** ms */
  duration: number;
  outcome: string;
}

/**
 * A drain to run at `next` (ms): of one nine-key endpoint (`target` `endpoint`, `endpointId` its id),
 * or of every REST hook subscription of a company (`target` `subscription`, `endpointId` the
 * company's id: one drain serves them all, so an event with 50 subscriptions costs one claim).
 */
export interface DrainPoint {
  endpointId: string;
  /**
   * the drain's company (for a subscription's, `endpointId` again); null only for an endpoint's drain
   * task queued by an older release, whose claim then finds the endpoint by id alone
   */
  companyId: string | null;
  target: DeliveryTarget;
  next: number;
}

/** One attempt of a subscription's delivery to record: {@link AttemptRecord} naming its subscription. */
export interface HookAttemptRecord extends AttemptRecord {
  /** the subscription */
  target: string;
}

/** One attempt of the log. */
export interface AttemptRow {
  deliveryId: string;
  /** ms */
  at: number;
  durationMs: number;
  httpStatus: number | null;
  error: string | null;
  outcome: string;
}

/**
 * A delivery locked for a replay, with its target (`endpoint` its id — a nine-key endpoint's or a
 * subscription's — and `disabled` null when it was removed) and its event's id.
 */
export interface ReplayTarget {
  id: string;
  target: DeliveryTarget;
  endpoint: string | null;
  disabled: boolean | null;
  eventId: string;
}

/** The drain a delivery row belongs to: its endpoint, or its company for a subscription's (see {@link DrainPoint}). */
const DRAIN_KEY = `CASE WHEN target = 'subscription' THEN company_id ELSE endpoint_id END`;

/** Rows deleted per statement when pruning. */
export const PRUNE_BATCH = 5000;

/**
 * The SQL of `webhook_deliveries` and `webhook_attempts` (with `webhook_endpoints` and
 * `webhook_subscriptions` where a statement needs the delivery's target). Times are ms. The outbox rows a delivery names are read by
 * {@link OutboxEventsRead} (`core-outbox-events.read.ts`) — except inside the drain's one round trip,
 * the database function `fieldwork_webhook_batch` (migrations `WebhookBatchClaim`,
 * `AddWebhookBatchSecrets`), which joins `outbox_events` for the payload.
 */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `fn` in one transaction. */
  transaction<T>(fn: (db: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(fn);
  }

  /**
   * One round trip of a drain (`fieldwork_webhook_batch`): records the attempts of the batch just
   * sent (only claims still `in_flight` with `recordedLock`), then claims up to `cap` of the
   * endpoint's oldest due deliveries (none when `cap` is 0) until `lockedUntil`, under the
   * endpoint's row lock, so the cap holds across workers.
   * @param anyDelivered whether a recorded attempt was delivered (clears the endpoint's `failing_since`, else sets it)
   */
  async recordAndClaim(args: {
    endpointId: string;
    /** the endpoint's company (null: found by the endpoint's id alone, which a distributed database asks of every node) */
    companyId: string | null;
    now: number;
    cap: number;
    lockedUntil: number;
    record: AttemptRecord[] | null;
    recordedLock: number | null;
    anyDelivered: boolean;
  }): Promise<ClaimedDelivery[]> {
    return query<ClaimedDelivery>(
      this.dataSource,
      `SELECT id, company_id AS "companyId", event_id AS "eventId", failures, url, headers, failing_since::float8 AS "failingSince",
              action, form_id AS "formId", payload, secret, previous_secret AS "previousSecret",
              previous_expires_at::float8 AS "previousExpiresAt",
              'endpoint' AS target, $1::varchar AS "targetId", NULL::float8 AS "eventCreatedAt", NULL::float8 AS "eventStampedAt"
         FROM fieldwork_webhook_batch($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9)`,
      [
        args.endpointId,
        args.now,
        args.cap,
        args.lockedUntil,
        args.record ? JSON.stringify(args.record) : null,
        args.recordedLock,
        args.anyDelivered,
        PROCESS_ID,
        args.companyId,
      ],
    );
  }

  /**
   * The claim of a company's REST hook subscriptions (`fieldwork_webhook_hooks_claim`): each
   * subscription with due deliveries and none in flight gets up to `size` of its oldest due
   * deliveries (one holder per subscription across workers: claims of one company are serialised),
   * claimed until `lockedUntil`, in one round trip; answered by subscription, oldest due first.
   * `payload` is null when the event was pruned.
   */
  async claimHooks(companyId: string, now: number, size: number, lockedUntil: number): Promise<ClaimedDelivery[]> {
    const rows = await query<ClaimedDelivery>(
      this.dataSource,
      `SELECT id, company_id AS "companyId", event_id AS "eventId", failures, url, headers, failing_since::float8 AS "failingSince",
              action, form_id AS "formId", payload, secret, NULL AS "previousSecret", NULL::float8 AS "previousExpiresAt",
              'subscription' AS target, target_id AS "targetId", event_created_at::float8 AS "eventCreatedAt",
              event_stamped_at::float8 AS "eventStampedAt"
         FROM fieldwork_webhook_hooks_claim($1, $2, $3, $4, $5)`,
      [companyId, now, size, lockedUntil, PROCESS_ID],
    );
    // the function answers each event's payload on one of its rows: the others share that string
    const payloads = new Map(rows.filter((r) => r.payload !== null).map((r) => [r.eventId, r.payload]));
    for (const r of rows) r.payload = r.eventCreatedAt === null ? null : (payloads.get(r.eventId) ?? null);
    return rows;
  }

  /**
   * Records attempts of a company's subscriptions claimed with `recordedLock` (only claims still
   * `in_flight` with it), their attempt rows, and each subscription's failure streak
   * (`fieldwork_webhook_hooks_record`), in one round trip.
   */
  async recordHooks(companyId: string, now: number, records: HookAttemptRecord[], recordedLock: number): Promise<void> {
    await query(this.dataSource, `SELECT fieldwork_webhook_hooks_record($1, $2, $3::jsonb, $4)`, [
      companyId,
      now,
      JSON.stringify(records),
      recordedLock,
    ]);
  }

  /**
   * Abandons the due pending deliveries of subscriptions that are gone (made by an event written
   * while its subscription was being removed; the removal's own abandon could not see them).
   * @returns how many.
   */
  async abandonOrphanHookDeliveries(now: number): Promise<number> {
    const row = await queryOne<{ n: number }>(
      this.dataSource,
      `WITH a AS (UPDATE webhook_deliveries d SET state = 'abandoned', last_error = 'subscription removed', finished_at = $1, locked_until = NULL
                   WHERE d.state = 'pending' AND d.next_attempt_at <= $1 AND d.target = 'subscription'
                     AND NOT EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.company_id = d.company_id AND s.id = d.endpoint_id)
                  RETURNING 1)
       SELECT count(*)::int AS n FROM a`,
      [now],
    );
    return row?.n ?? 0;
  }

  /** Abandons claimed deliveries whose event was pruned. */
  async abandonPruned(ids: string[], now: number): Promise<void> {
    await query(
      this.dataSource,
      `UPDATE webhook_deliveries SET state = 'abandoned', locked_until = NULL, finished_at = $2, last_error = 'event pruned' WHERE id = ANY($1::text[])`,
      [ids, now],
    );
  }

  /**
   * Puts claimed deliveries that were never attempted back to `pending` (due as they were, no attempt
   * counted), if still `in_flight` under the claim `lockedUntil`: what a drain that stopped sending
   * part-way through its claim (the process stopping, an answer disabling the endpoint) did not send.
   * @returns how many.
   */
  async releaseUnattempted(companyId: string, ids: string[], lockedUntil: number): Promise<number> {
    const row = await queryOne<{ n: number }>(
      this.dataSource,
      `WITH r AS (
         UPDATE webhook_deliveries d SET state = 'pending', locked_until = NULL
          WHERE d.company_id = $1 AND d.id = ANY($2::text[]) AND d.state = 'in_flight' AND d.locked_until = $3
         RETURNING 1)
       SELECT count(*)::int AS n FROM r`,
      [companyId, ids, lockedUntil],
    );
    return row?.n ?? 0;
  }

  /**
   * Abandons an endpoint's open (pending or in-flight) deliveries, in the caller's transaction
   * when given one (the endpoint's row lock taken first, as the batch claim does).
   * @returns how many.
   */
  async abandonOpen(db: Queryable, endpointId: string, reason: string, now: number): Promise<number> {
    const row = await queryOne<{ n: number }>(
      db,
      `WITH a AS (UPDATE webhook_deliveries SET state = 'abandoned', last_error = $2, finished_at = $3, locked_until = NULL
                   WHERE endpoint_id = $1 AND state IN ('pending', 'in_flight') RETURNING 1)
       SELECT count(*)::int AS n FROM a`,
      [endpointId, reason, now],
    );
    return row?.n ?? 0;
  }

  /**
   * The drains that pending deliveries of these events or these deliveries need (an endpoint's, or a
   * company's subscriptions'), each with its earliest due time.
   */
  async dueEndpoints(eventIds: string[], deliveryIds: string[]): Promise<DrainPoint[]> {
    return query<DrainPoint>(
      this.dataSource,
      `SELECT ${DRAIN_KEY} AS "endpointId", company_id AS "companyId", target, min(next_attempt_at)::float8 AS next FROM webhook_deliveries
        WHERE (event_id = ANY($1::text[]) OR id = ANY($2::text[])) AND state = 'pending' GROUP BY 1, 2, 3`,
      [eventIds, deliveryIds],
    );
  }

  /** Puts back to pending the claims whose `locked_until` passed before `now` (their worker died). @returns how many. */
  async releaseLostClaims(now: number): Promise<number> {
    const row = await queryOne<{ n: number }>(
      this.dataSource,
      `WITH r AS (UPDATE webhook_deliveries SET state = 'pending', locked_until = NULL WHERE state = 'in_flight' AND locked_until < $1 RETURNING 1)
       SELECT count(*)::int AS n FROM r`,
      [now],
    );
    return row?.n ?? 0;
  }

  /**
   * Puts back to pending the `in_flight` claims of the given workers (`claimed_by`; they stopped
   * beating: `WorkerHeartbeatsRead.deadClaimOwners`) whatever their `locked_until`.
   * @returns how many claims were released, and the drains they belong to (`next`: their oldest due time).
   */
  async releaseClaimsOf(workers: string[]): Promise<{ released: number; points: DrainPoint[] }> {
    if (!workers.length) return { released: 0, points: [] };
    const rows = await query<DrainPoint & { n: number }>(
      this.dataSource,
      `WITH r AS (
         UPDATE webhook_deliveries d SET state = 'pending', locked_until = NULL
          WHERE d.state = 'in_flight' AND d.claimed_by = ANY($1::text[])
         RETURNING CASE WHEN d.target = 'subscription' THEN d.company_id ELSE d.endpoint_id END AS "endpointId",
                   d.company_id AS "companyId", d.target, d.next_attempt_at)
       SELECT "endpointId", "companyId", target, min(next_attempt_at)::float8 AS next, count(*)::int AS n FROM r
        GROUP BY "endpointId", "companyId", target`,
      [workers],
    );
    return {
      released: rows.reduce((sum, r) => sum + r.n, 0),
      points: rows.map(({ endpointId, companyId, target, next }) => ({ endpointId, companyId, target, next })),
    };
  }

  /**
   * For every drain (an endpoint's, a company's subscriptions') with never-tried pending deliveries
   * (`attempts = 0`) due between `from` and `to` (ms): its earliest such due time. What a lost
   * wake-up leaves behind (an api killed between its commit and its enqueue); an index range scan of
   * `IDX_webhook_deliveries_due` over that window.
   */
  async unattemptedDrainPoints(from: number, to: number): Promise<DrainPoint[]> {
    return query<DrainPoint>(
      this.dataSource,
      `SELECT ${DRAIN_KEY} AS "endpointId", company_id AS "companyId", target, min(next_attempt_at)::float8 AS next FROM webhook_deliveries
        WHERE state = 'pending' AND next_attempt_at BETWEEN $1 AND $2 AND attempts = 0 GROUP BY 1, 2, 3`,
      [from, to],
    );
  }

  /**
   * For every drain (an endpoint's, a company's subscriptions') with pending deliveries due by
   * `until`: the distinct due times of its `perEndpoint` oldest ones (a drain takes every delivery
   * due by its time; later ones get theirs).
   */
  async drainPoints(until: number, perEndpoint: number): Promise<DrainPoint[]> {
    return query<DrainPoint>(
      this.dataSource,
      `SELECT DISTINCT "endpointId", "companyId", target, next FROM (
         SELECT ${DRAIN_KEY} AS "endpointId", company_id AS "companyId", target, next_attempt_at::float8 AS next,
                row_number() OVER (PARTITION BY ${DRAIN_KEY}, target ORDER BY next_attempt_at, id) AS n
           FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= $1) d
        WHERE n <= $2`,
      [until, perEndpoint],
    );
  }

  /**
   * Deletes, in statements of {@link PRUNE_BATCH} rows, attempts started before `before`, then
   * finished (delivered or abandoned) deliveries made before it (the pruner then deletes the outbox
   * events left without a delivery). @returns rows deleted.
   */
  async pruneBefore(before: number): Promise<number> {
    let total = 0;
    for (const sql of [
      `DELETE FROM webhook_attempts WHERE (company_id, id) IN (SELECT company_id, id FROM webhook_attempts WHERE started_at < $1 LIMIT $2)`,
      `DELETE FROM webhook_deliveries WHERE (company_id, id) IN (SELECT company_id, id FROM webhook_deliveries WHERE state IN ('delivered', 'abandoned') AND created_at < $1 LIMIT $2)`,
    ]) {
      for (;;) {
        const row = await queryOne<{ n: number }>(this.dataSource, `WITH x AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM x`, [
          before,
          PRUNE_BATCH,
        ]);
        const n = row?.n ?? 0;
        total += n;
        if (n < PRUNE_BATCH) break;
      }
    }
    return total;
  }

  /** The attempts of these deliveries of the company, oldest first. */
  async attemptsOf(companyId: string, deliveryIds: string[]): Promise<AttemptRow[]> {
    return query<AttemptRow>(
      this.dataSource,
      `SELECT delivery_id AS "deliveryId", started_at::float8 AS at, duration_ms AS "durationMs", http_status AS "httpStatus", error, outcome
         FROM webhook_attempts WHERE company_id = $1 AND delivery_id = ANY($2::text[]) ORDER BY started_at, id`,
      [companyId, deliveryIds],
    );
  }

  /**
   * Locks a delivery of the company for a replay (`FOR UPDATE` of the delivery only) in transaction
   * `db`, with its target (a nine-key endpoint, or a subscription: never disabled).
   * @returns undefined for an unknown (or other company's) delivery
   */
  lockForReplay(db: EntityManager, companyId: string, deliveryId: string): Promise<ReplayTarget | undefined> {
    return queryOne<ReplayTarget>(
      db,
      `SELECT d.id, d.target, coalesce(e.id, s.id) AS endpoint, CASE WHEN s.id IS NOT NULL THEN false ELSE e.disabled END AS disabled,
              d.event_id AS "eventId"
         FROM webhook_deliveries d
         LEFT JOIN webhook_endpoints e ON d.target = 'endpoint' AND e.company_id = d.company_id AND e.id = d.endpoint_id
         LEFT JOIN webhook_subscriptions s ON d.target = 'subscription' AND s.company_id = d.company_id AND s.id = d.endpoint_id
        WHERE d.id = $1 AND d.company_id = $2 FOR UPDATE OF d`,
      [deliveryId, companyId],
    );
  }

  /** Puts a delivery back to pending, due `now`, with its failures reset (replay), in transaction `db`. */
  async resetToPending(db: EntityManager, id: string, now: number): Promise<void> {
    await query(
      db,
      `UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = $2, failures = 0, finished_at = NULL, locked_until = NULL WHERE id = $1`,
      [id, now],
    );
  }
}
