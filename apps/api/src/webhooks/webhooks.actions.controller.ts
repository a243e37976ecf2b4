import { AuthContext, EmptyDto } from '@app/core';
import {
  EndpointInput,
  EndpointView,
  GetWebhookDeliveriesDto,
  parseEndpointInput,
  ReplayWebhookDeliveryDto,
  SetWebhooksDto,
  WebhookConfigService,
  WebhookKey,
  WebhookLogService,
  WebhookSecrets,
} from '@app/webhooks';
import { Controller } from '@nestjs/common';
import { Action, Caller, Data } from '../envelope/decorators';

/** One key's endpoint as the action API answers it: `header` (singular), as the spec names it. */
export type ActionEndpointView = Omit<EndpointView, 'headers'> & { header: EndpointView['headers'] };

/** getwebhooks / setwebhooks: every key, its endpoint or null; `secret` for administrators only. */
export interface ActionWebhooksAnswer {
  status: 0;
  webhooks: Record<WebhookKey, ActionEndpointView | null>;
  secret?: string;
}

/** The action API's shape of a key: `header` (singular), as the spec names it. */
export function actionShape(webhooks: Record<WebhookKey, EndpointView | null>): Record<WebhookKey, ActionEndpointView | null> {
  return Object.fromEntries(
    Object.entries(webhooks).map(([k, v]) => [
      k,
      v && { url: v.url, header: v.headers, disabled: v.disabled, disabledReason: v.disabledReason, disabledAt: v.disabledAt },
    ]),
  ) as Record<WebhookKey, ActionEndpointView | null>;
}

/** Webhook configuration, signing secret, delivery log and replay (spec "Webhook configuration"; CONTRACTS.md). */
@Controller('api')
export class WebhooksActionsController {
  constructor(
    private readonly config: WebhookConfigService,
    private readonly secrets: WebhookSecrets,
    private readonly log: WebhookLogService,
  ) {}

  @Action('getwebhooks')
  async getwebhooks(@Caller() ctx: AuthContext, @Data() _dto: EmptyDto) {
    return this.answer(ctx, await this.config.get(ctx.companyId));
  }

  @Action('setwebhooks')
  async setwebhooks(@Caller() ctx: AuthContext, @Data() dto: SetWebhooksDto) {
    const changes: Partial<Record<WebhookKey, EndpointInput>> = {};
    for (const [key, value] of Object.entries(dto) as Array<[WebhookKey, unknown]>) {
      if (value === undefined) continue;
      changes[key] = parseEndpointInput(value, `data.${key}`, 'header', this.config.allowPrivate);
    }
    return this.answer(ctx, await this.config.set(ctx, changes));
  }

  @Action('rotatewebhooksecret')
  async rotatewebhooksecret(@Caller() ctx: AuthContext, @Data() _dto: EmptyDto) {
    return { status: 0, ...(await this.secrets.rotate(ctx.companyId)) };
  }

  @Action('getwebhookdeliveries')
  async getwebhookdeliveries(@Caller() ctx: AuthContext, @Data() dto: GetWebhookDeliveriesDto) {
    return { status: 0, deliveries: await this.log.list(ctx, dto) };
  }

  @Action('replaywebhookdelivery')
  async replaywebhookdelivery(@Caller() ctx: AuthContext, @Data() dto: ReplayWebhookDeliveryDto) {
    return { status: 0, delivery: await this.log.replay(ctx, dto.deliveryId) };
  }

  /** The whole configuration; the secret for administrators only. */
  private async answer(ctx: AuthContext, webhooks: Record<WebhookKey, EndpointView | null>): Promise<ActionWebhooksAnswer> {
    const body: ActionWebhooksAnswer = { status: 0, webhooks: actionShape(webhooks) };
    if (ctx.role === 'administrator') body.secret = await this.secrets.current(ctx.companyId);
    return body;
  }
}
