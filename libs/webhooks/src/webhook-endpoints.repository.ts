import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

/** `webhook_endpoints`: one row per configured (company, key). Writes take the caller's transaction manager. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  /** Runs `fn` in one transaction. */
  transaction<T>(fn: (db: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(fn);
  }

  /** Every endpoint of the company. */
  async findByCompany(companyId: string): Promise<WebhookEndpoint[]> {
    return this.dataSource.getRepository(WebhookEndpoint).findBy({ companyId });
  }

  /** The company's endpoint for `key`, row-locked until the transaction ends, or null. */
  async lockByKey(m: EntityManager, companyId: string, key: string): Promise<WebhookEndpoint | null> {
    return m
      .getRepository(WebhookEndpoint)
      .createQueryBuilder('e')
      .setLock('pessimistic_write')
      .where('e.company_id = :c AND e.key = :k', { c: companyId, k: key })
      .getOne();
  }

  /** Adds an endpoint. */
  async insert(
    m: EntityManager,
    endpoint: Pick<WebhookEndpoint, 'id' | 'companyId' | 'key' | 'url' | 'headers' | 'createdAt' | 'updatedAt'>,
  ): Promise<void> {
    await m.getRepository(WebhookEndpoint).insert(endpoint);
  }

  /** Sets an endpoint's URL and headers and enables it again (clearing its failure streak). */
  async replace(m: EntityManager, id: string, url: string, headers: Record<string, string>, now: number): Promise<void> {
    await m
      .getRepository(WebhookEndpoint)
      .update({ id }, { url, headers, disabled: false, disabledReason: null, disabledAt: null, failingSince: null, updatedAt: now });
  }

  /** Deletes an endpoint. */
  async delete(m: EntityManager, id: string): Promise<void> {
    await m.getRepository(WebhookEndpoint).delete({ id });
  }

  /**
   * Disables an endpoint and abandons its open deliveries, in one transaction (endpoint row first:
   * the lock order of the batch claim). @returns how many deliveries were abandoned.
   */
  async disable(endpointId: string, reason: string, now: number): Promise<number> {
    return this.dataSource.transaction(async (m) => {
      await m.getRepository(WebhookEndpoint).update({ id: endpointId }, { disabled: true, disabledReason: reason, disabledAt: now });
      return this.deliveries.abandonOpen(m, endpointId, `endpoint disabled: ${reason}`, now);
    });
  }
}
