import { AuthContext, connectorPollLimit } from '@app/core';
import { CheckinKind, CheckinsQueryDto, ClockEventsQueryDto, LocationPollingService } from '@app/locations';
import { Controller, Get, Query } from '@nestjs/common';
import { Caller, ConnectorAuth, Examples } from '../envelope/decorators';
import { LIST_CHECKINS, LIST_CLOCK_EVENTS } from './checkins.connector.examples';

/**
 * The connector's polling triggers for check-ins and clock events (CONTRACTS.md "Wave 3: connector
 * for automation platforms"; docs/connector.md, "Polling triggers"): newest first by `createdAt`, the
 * commit-ordered stamp, `createdSince` inclusive, `limit` default and at most 100. Administrators and
 * operators see every member's items, a worker its own.
 */
@Controller('v1')
@ConnectorAuth()
export class CheckinsConnectorController {
  constructor(private readonly polling: LocationPollingService) {}

  /** Place and job check-ins and check-outs; `kind` narrows them (comma-separated). */
  @Get('checkins')
  @Examples(LIST_CHECKINS)
  async checkins(@Caller() ctx: AuthContext, @Query() q: CheckinsQueryDto) {
    const items = await this.polling.checkins(ctx, {
      since: q.createdSince,
      limit: connectorPollLimit(q.limit),
      kinds: q.kind?.split(',') as CheckinKind[] | undefined,
    });
    return { data: { items } };
  }

  /** Clock-ins and clock-outs (tracking turned on or off in the app). */
  @Get('clock-events')
  @Examples(LIST_CLOCK_EVENTS)
  async clockEvents(@Caller() ctx: AuthContext, @Query() q: ClockEventsQueryDto) {
    return { data: { items: await this.polling.clockEvents(ctx, { since: q.createdSince, limit: connectorPollLimit(q.limit) }) } };
  }
}
