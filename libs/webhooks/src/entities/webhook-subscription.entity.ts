import { MsColumn } from '@app/core';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A REST hook (CONTRACTS.md "Wave 3: connector for automation platforms"): a subscription made
 * through `POST /v1/hooks` — an event (an action such as `jobcreated`, or one of the nine keys,
 * which covers its actions) → a URL with custom headers, signed with the subscription's own secret.
 * Many per event, at most {@link MAX_SUBSCRIPTIONS_PER_COMPANY} per company; apart from the nine-key
 * endpoints (`webhook_endpoints`), delivered by the same outbox → deliveries → drain machinery
 * (`webhook_deliveries.target = 'subscription'`). A per-company table: `company_id` leads the
 * primary key; the plain index on `id` serves the drain, which is given the subscription's id alone.
 */
@Entity('webhook_subscriptions')
@Index('IDX_webhook_subscriptions_company_event', ['companyId', 'event'])
@Index('IDX_webhook_subscriptions_id', ['id'])
export class WebhookSubscription {
  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 26 })
  companyId: string;

  /** ULID; never the id of a `webhook_endpoints` row (deliveries name either in `endpoint_id`). */
  @PrimaryColumn({ type: 'varchar', length: 26 })
  id: string;

  /** As subscribed: a delivered action (`jobcreated`) or a webhook key (`job_checked`: both its actions). */
  @Column({ type: 'varchar', length: 32 })
  event: string;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  /** Custom headers, name → value (values are secrets: masked in answers, never logged). */
  @Column({ type: 'jsonb', default: () => `'{}'` })
  headers: Record<string, string>;

  /** The subscription's Standard Webhooks secret (`whsec_<base64>`), answered once, by the create. */
  @Column({ type: 'varchar', length: 100 })
  secret: string;

  /** The member who subscribed. */
  @Column({ name: 'created_by', type: 'varchar', length: 26 })
  createdBy: string;

  /** ms of the first failure since the last success; null while healthy. */
  @MsColumn({ name: 'failing_since', nullable: true })
  failingSince: number | null;

  @MsColumn({ name: 'created_at' })
  createdAt: number;
}

/** Subscriptions a company may hold (CONTRACTS.md: at most 50). */
export const MAX_SUBSCRIPTIONS_PER_COMPANY = 50;
