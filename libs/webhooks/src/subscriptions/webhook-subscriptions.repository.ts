import { query, queryOne } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { WebhookSubscription } from '../entities/webhook-subscription.entity';
import { WebhookDeliveriesRepository } from '../webhook-deliveries.repository';

/** A subscription as listed (never its secret). */
export type SubscriptionRow = Pick<WebhookSubscription, 'id' | 'event' | 'url' | 'headers' | 'createdAt'>;

const LISTED = `id, event, url, headers, created_at::float8 AS "createdAt"`;

/**
 * `webhook_subscriptions` (REST hooks), every statement scoped by `company_id` but the drain's
 * removal, which is given the id its deliveries name. Writes take the caller's transaction manager;
 * a removal locks the subscription's row before its deliveries (the batch claim's order).
 */
@Injectable()
export class WebhookSubscriptionsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  /** Runs `fn` in one transaction. */
  transaction<T>(fn: (db: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(fn);
  }

  /**
   * Serialises the company's subscription creates until the transaction ends (a transaction-scoped
   * advisory lock on the company), so two creates cannot both pass the per-company limit.
   */
  async lockCompany(m: EntityManager, companyId: string): Promise<void> {
    await query(m, `SELECT pg_advisory_xact_lock(hashtextextended('webhook_subscriptions:' || $1, 0))`, [companyId]);
  }

  /** How many subscriptions the company has. */
  async countByCompany(m: EntityManager, companyId: string): Promise<number> {
    const row = await queryOne<{ n: number }>(m, `SELECT count(*)::int AS n FROM webhook_subscriptions WHERE company_id = $1`, [companyId]);
    return row?.n ?? 0;
  }

  /** Adds a subscription. */
  async insert(m: EntityManager, row: Omit<WebhookSubscription, 'failingSince'>): Promise<void> {
    await m.getRepository(WebhookSubscription).insert(row);
  }

  /** The company's subscriptions, oldest first (then by id). */
  async listByCompany(companyId: string): Promise<SubscriptionRow[]> {
    return query<SubscriptionRow>(
      this.dataSource,
      `SELECT ${LISTED} FROM webhook_subscriptions WHERE company_id = $1 ORDER BY created_at, id`,
      [companyId],
    );
  }

  /**
   * Deletes the company's subscription `id` and abandons its open deliveries (`reason`), in
   * transaction `m`, its row locked first (the batch claim's order: target row, then deliveries).
   * @returns how many open deliveries were abandoned, or null when the company has no such subscription
   */
  async delete(m: EntityManager, companyId: string, id: string, reason: string, now: number): Promise<number | null> {
    const found = await queryOne<{ id: string }>(m, `SELECT id FROM webhook_subscriptions WHERE company_id = $1 AND id = $2 FOR UPDATE`, [
      companyId,
      id,
    ]);
    if (!found) return null;
    const abandoned = await this.deliveries.abandonOpen(m, id, reason, now);
    await query(m, `DELETE FROM webhook_subscriptions WHERE company_id = $1 AND id = $2`, [companyId, id]);
    return abandoned;
  }

  /** The drain's removal (a 410 answer, or failing continuously): {@link delete} in a transaction of its own. */
  async deleteGone(companyId: string, id: string, reason: string, now: number): Promise<number | null> {
    return this.dataSource.transaction((m) => this.delete(m, companyId, id, reason, now));
  }
}
