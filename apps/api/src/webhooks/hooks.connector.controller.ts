import { AuthContext, DomainError, mayCallAction } from '@app/core';
import { CreateHookBody, HookView, parseHookInput, WebhookConfigService, WebhookSubscriptionsService } from '@app/webhooks';
import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ACTION_ROLES } from '../envelope/action-roles';
import { Caller, ConnectorAuth, Examples } from '../envelope/decorators';
import { CREATE_HOOK, DELETE_HOOK, LIST_HOOKS } from './hooks.connector.examples';

/** `GET /v1/hooks`: the company's subscriptions, oldest first. */
export interface HooksListAnswer {
  data: { items: HookView[] };
}

/** `POST /v1/hooks` (201): the subscription, with its signing secret — answered this once only. */
export interface HookCreatedAnswer {
  data: HookView & { secret: string };
}

/** `DELETE /v1/hooks/{id}`. */
export interface HookDeletedAnswer {
  data: { id: string; deleted: true };
}

/**
 * The roles of the nine-key configuration (`WEBHOOK_ACTION_ROLES`): reading as `getwebhooks`
 * (administrators and operators), subscribing and unsubscribing as `setwebhooks` (administrators).
 */
function allow(ctx: AuthContext, action: 'getwebhooks' | 'setwebhooks') {
  if (!mayCallAction(ACTION_ROLES, ctx.role, action))
    throw new DomainError('forbidden', `a ${ctx.role} may not ${action === 'getwebhooks' ? 'read' : 'subscribe or unsubscribe'} hooks`);
}

/**
 * `/v1/hooks`: REST hooks for automation platforms (CONTRACTS.md "Wave 3: connector for automation
 * platforms"; docs/connector.md "REST hooks") — subscriptions apart from the nine-key configuration.
 */
@Controller('v1/hooks')
@ConnectorAuth()
export class HooksConnectorController {
  constructor(
    private readonly hooks: WebhookSubscriptionsService,
    private readonly config: WebhookConfigService,
  ) {}

  @Get()
  @Examples(LIST_HOOKS)
  async list(@Caller() ctx: AuthContext): Promise<HooksListAnswer> {
    allow(ctx, 'getwebhooks');
    return { data: { items: await this.hooks.list(ctx) } };
  }

  @Post()
  @Examples(CREATE_HOOK)
  async create(@Caller() ctx: AuthContext, @Body() body: CreateHookBody): Promise<HookCreatedAnswer> {
    allow(ctx, 'setwebhooks');
    return { data: await this.hooks.create(ctx, parseHookInput(body, this.config.allowPrivate)) };
  }

  @Delete(':id')
  @HttpCode(200)
  @Examples(DELETE_HOOK)
  async remove(@Caller() ctx: AuthContext, @Param('id') id: string): Promise<HookDeletedAnswer> {
    allow(ctx, 'setwebhooks');
    await this.hooks.remove(ctx, id);
    return { data: { id, deleted: true } };
  }
}
