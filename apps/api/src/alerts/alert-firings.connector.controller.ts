import { AlertFiringsPollingService, AlertFiringsQueryDto } from '@app/alerts';
import { AuthContext, connectorPollLimit } from '@app/core';
import { Controller, Get, Query } from '@nestjs/common';
import { Caller, ConnectorAuth, Examples } from '../envelope/decorators';
import { LIST_ALERT_FIRINGS } from './alert-firings.connector.examples';

/**
 * The connector's polling trigger for alert firings (CONTRACTS.md "Wave 3: connector for automation
 * platforms"; docs/connector.md, "Polling triggers"): newest first by `createdAt`, the commit-ordered
 * stamp, `createdSince` inclusive, `limit` default and at most 100. Administrators and operators see
 * every member's firings, a worker the firings about itself.
 */
@Controller('v1/alert-firings')
@ConnectorAuth()
export class AlertFiringsConnectorController {
  constructor(private readonly polling: AlertFiringsPollingService) {}

  @Get()
  @Examples(LIST_ALERT_FIRINGS)
  async list(@Caller() ctx: AuthContext, @Query() q: AlertFiringsQueryDto) {
    return { data: { items: await this.polling.firings(ctx, { since: q.createdSince, limit: connectorPollLimit(q.limit) }) } };
  }
}
