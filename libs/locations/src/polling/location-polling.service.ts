import { AuthContext, StampedEvents } from '@app/core';
import { Injectable } from '@nestjs/common';
import {
  CheckinItem,
  CheckinKind,
  CHECKIN_KINDS,
  checkinItemForEvent,
  CLOCK_KINDS,
  ClockEventItem,
  clockEventItemForEvent,
} from './connector-items';

/** A polling request as the route resolved it: `since` ms inclusive (absent: from the first), `limit` 0–100. */
export interface PollingPage {
  since?: number;
  limit: number;
}

/**
 * The connector's polling triggers for check-ins and clock events (`GET /v1/checkins`,
 * `GET /v1/clock-events`; docs/connector.md, "Polling triggers"): the company's stamped outbox events
 * of those actions, newest first by their commit-ordered stamp (ties by id), mapped to items.
 * Administrators and operators see every member's; a worker its own (the live stream's audience).
 */
@Injectable()
export class LocationPollingService {
  constructor(private readonly events: StampedEvents) {}

  /** Check-ins and check-outs, of places and of jobs; `kinds` narrows them (default: all four). */
  async checkins(ctx: AuthContext, q: PollingPage & { kinds?: readonly CheckinKind[] }): Promise<CheckinItem[]> {
    const actions = q.kinds?.length ? [...new Set(q.kinds)] : CHECKIN_KINDS;
    return (await this.events.poll(ctx, { actions, since: q.since, limit: q.limit })).map(checkinItemForEvent);
  }

  /** Clock-ins and clock-outs. */
  async clockEvents(ctx: AuthContext, q: PollingPage): Promise<ClockEventItem[]> {
    return (await this.events.poll(ctx, { actions: CLOCK_KINDS, since: q.since, limit: q.limit })).map(clockEventItemForEvent);
  }
}
