import { AuthContext, DomainError, invalid, mayCallAction } from '@app/core';
import { EndpointInput, isWebhookKey, parseEndpointInput, PutWebhooksBody, WebhookConfigService, WebhookKey } from '@app/webhooks';
import { Body, Controller, Get, HttpCode, Put } from '@nestjs/common';
import { ACTION_ROLES } from '../envelope/action-roles';
import { Caller, ConnectorAuth } from '../envelope/decorators';

/** `/v1/webhooks`: read and set the configuration (`headers`, plural; no secret). */
@Controller('v1/webhooks')
@ConnectorAuth()
export class WebhooksConnectorController {
  constructor(private readonly config: WebhookConfigService) {}

  @Get()
  async get(@Caller() ctx: AuthContext) {
    if (!mayCallAction(ACTION_ROLES, ctx.role, 'getwebhooks')) throw new DomainError('forbidden', `a ${ctx.role} may not read webhooks`);
    return { data: { webhooks: await this.config.get(ctx.companyId) } };
  }

  @Put()
  @HttpCode(200)
  async put(@Caller() ctx: AuthContext, @Body() body: PutWebhooksBody) {
    if (!mayCallAction(ACTION_ROLES, ctx.role, 'setwebhooks')) throw new DomainError('forbidden', `a ${ctx.role} may not set webhooks`);
    const changes: Partial<Record<WebhookKey, EndpointInput>> = {};
    for (const [key, value] of Object.entries(body.webhooks)) {
      if (!isWebhookKey(key)) throw invalid(`body.webhooks.${key}`, 'unknown webhook key');
      changes[key] = parseEndpointInput(value, `body.webhooks.${key}`, 'headers', this.config.allowPrivate);
    }
    return { data: { webhooks: await this.config.set(ctx, changes) } };
  }
}
