import { MsColumn } from '@app/core';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * `pending` (waiting for `next_attempt_at`), `in_flight` (claimed by a worker until `locked_until`),
 * `delivered`, `abandoned` (retries exhausted, or the endpoint was disabled or removed).
 */
export type DeliveryState = 'pending' | 'in_flight' | 'delivered' | 'abandoned';

/** What a delivery's `endpoint_id` names: a nine-key endpoint, or a REST hook subscription. */
export type DeliveryTarget = 'endpoint' | 'subscription';

/**
 * One (event, target) pair: the source of truth for at-least-once delivery. Rows are made by a
 * trigger on `outbox_events` in the writing transaction, for the endpoints configured and the
 * REST hooks subscribed then.
 */
@Entity('webhook_deliveries')
@Index('IDX_webhook_deliveries_id', ['id'])
@Index('IDX_webhook_deliveries_due', ['state', 'nextAttemptAt'])
@Index('IDX_webhook_deliveries_event', ['eventId'])
@Index('IDX_webhook_deliveries_company_created', ['companyId', 'createdAt'])
@Index('IDX_webhook_deliveries_endpoint_state', ['endpointId', 'state', 'nextAttemptAt'])
export class WebhookDelivery {
  /** `dlv_<event ulid><endpoint id>` */
  @PrimaryColumn({ type: 'varchar', length: 60, primaryKeyConstraintName: 'PK_webhook_deliveries' })
  id: string;

  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 26, primaryKeyConstraintName: 'PK_webhook_deliveries' })
  companyId: string;

  /** The outbox event (`msg_<ulid>`): the `webhook-id` of every attempt. */
  @Column({ name: 'event_id', type: 'varchar', length: 40 })
  eventId: string;

  /** The target's id: a `webhook_endpoints` row, or a `webhook_subscriptions` row (see `target`). */
  @Column({ name: 'endpoint_id', type: 'varchar', length: 26 })
  endpointId: string;

  /** `endpoint` (a nine-key endpoint: the form body) or `subscription` (a REST hook: the JSON body). */
  @Column({ type: 'varchar', length: 12, default: 'endpoint' })
  target: DeliveryTarget;

  @Column({ name: 'event_key', type: 'varchar', length: 32 })
  eventKey: string;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  state: DeliveryState;

  /** HTTP attempts made (all outcomes). */
  @Column({ type: 'integer', default: 0 })
  attempts: number;

  /** Failed attempts counted against the retry schedule (429 answers are not). */
  @Column({ type: 'integer', default: 0 })
  failures: number;

  /** ms */
  @MsColumn({ name: 'next_attempt_at' })
  nextAttemptAt: number;

  /** ms; an in-flight claim past this is considered lost (the worker died) */
  @MsColumn({ name: 'locked_until', nullable: true })
  lockedUntil: number | null;

  /** the claiming worker's heartbeat id (`worker_heartbeats.id`); meaningful while `in_flight` */
  @Column({ name: 'claimed_by', type: 'varchar', length: 200, nullable: true })
  claimedBy: string | null;

  @Column({ name: 'last_status', type: 'integer', nullable: true })
  lastStatus: number | null;

  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError: string | null;

  @MsColumn({ name: 'created_at' })
  createdAt: number;

  @MsColumn({ name: 'finished_at', nullable: true })
  finishedAt: number | null;
}
