import { AuthContext, StampedEvents } from '@app/core';
import { Injectable } from '@nestjs/common';
import { AlertFiringItem, alertFiringItemForEvent } from './alert-firing-items';

/**
 * The connector's polling trigger for alert firings (`GET /v1/alert-firings`; docs/connector.md,
 * "Polling triggers"): the company's stamped `alerttriggered` events, newest first by their
 * commit-ordered stamp (ties by id), mapped to items. Administrators and operators see every
 * member's; a worker the firings about itself (the live stream's audience).
 */
@Injectable()
export class AlertFiringsPollingService {
  constructor(private readonly events: StampedEvents) {}

  /** `since` ms inclusive (absent: from the first), `limit` 0–100. */
  async firings(ctx: AuthContext, q: { since?: number; limit: number }): Promise<AlertFiringItem[]> {
    return (await this.events.poll(ctx, { actions: ['alerttriggered'], since: q.since, limit: q.limit })).map(alertFiringItemForEvent);
  }
}
