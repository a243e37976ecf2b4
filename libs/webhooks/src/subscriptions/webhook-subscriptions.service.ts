import { AuthContext, DomainError, newId, notFound } from '@app/core';
import { Injectable, Logger } from '@nestjs/common';
import { MAX_SUBSCRIPTIONS_PER_COMPANY } from '../entities/webhook-subscription.entity';
import { newWebhookSecret } from '../signing';
import { HookInput } from './hook-input';
import { HookView, hookView } from './subscription-view';
import { WebhookSubscriptionsRepository } from './webhook-subscriptions.repository';

/**
 * REST hooks (CONTRACTS.md "Wave 3: connector for automation platforms"; docs/connector.md "REST
 * hooks"): subscribe, list, unsubscribe. Apart from the nine-key configuration, which they never
 * touch. Each subscription signs with a secret of its own, answered once, by the create.
 */
@Injectable()
export class WebhookSubscriptionsService {
  private readonly logger = new Logger('Webhooks');

  constructor(private readonly subscriptions: WebhookSubscriptionsRepository) {}

  /**
   * Subscribes `input.url` to `input.event`. Events written from the commit on are delivered to it.
   * @returns the subscription with its signing secret (never answered again)
   * @throws DomainError forbidden when the company already has {@link MAX_SUBSCRIPTIONS_PER_COMPANY}
   */
  async create(ctx: AuthContext, input: HookInput): Promise<HookView & { secret: string }> {
    const row = {
      companyId: ctx.companyId,
      id: newId(),
      event: input.event,
      url: input.url,
      headers: input.headers,
      secret: newWebhookSecret(),
      createdBy: ctx.memberId,
      createdAt: Date.now(),
    };
    await this.subscriptions.transaction(async (m) => {
      await this.subscriptions.lockCompany(m, ctx.companyId);
      if ((await this.subscriptions.countByCompany(m, ctx.companyId)) >= MAX_SUBSCRIPTIONS_PER_COMPANY) {
        throw new DomainError(
          'forbidden',
          `hook limit reached (${MAX_SUBSCRIPTIONS_PER_COMPANY} per company): delete a subscription (DELETE /v1/hooks/{id}) first`,
        );
      }
      await this.subscriptions.insert(m, row);
    });
    return { ...hookView(row), secret: row.secret };
  }

  /** The company's subscriptions, oldest first, header values masked. */
  async list(ctx: AuthContext): Promise<HookView[]> {
    return (await this.subscriptions.listByCompany(ctx.companyId)).map(hookView);
  }

  /**
   * Unsubscribes: the subscription goes, and its deliveries not yet made are abandoned
   * (`subscription removed`); one in flight may still arrive.
   * @throws DomainError not_found for an unknown (or another company's) id
   */
  async remove(ctx: AuthContext, id: string): Promise<void> {
    const abandoned = await this.subscriptions.transaction((m) =>
      this.subscriptions.delete(m, ctx.companyId, id, 'subscription removed', Date.now()),
    );
    if (abandoned === null) throw notFound(`hook ${id}`);
    this.logger.log(`company ${ctx.companyId} removed hook ${id}; ${abandoned} pending deliveries abandoned`);
  }
}
