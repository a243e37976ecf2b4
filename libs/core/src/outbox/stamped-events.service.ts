import { Injectable } from '@nestjs/common';
import { STAFF } from '../auth/policy';
import type { AuthContext } from '../auth/auth-context';
import { OutboxAction, OutboxEvents, OutboxEventSpec } from './outbox-events';
import { OutboxRepository, StampedEventsQuery } from './outbox.repository';
import { OutboxStamping } from './outbox-stamping.service';

/**
 * One stamped outbox event of action `A` (a union of actions gives the union of their events):
 * what a connector item is mapped from — by a polling route from the stored row, and by anything
 * else that holds the event (a REST hook's delivery) from the same fields.
 */
export type StampedEventOf<A extends OutboxAction> = {
  [K in A]: {
    /** the event's id, `msg_<ulid>` (the webhook-id, the stream's `id`) */
    id: string;
    action: K;
    /** the event's payload, parsed */
    data: (OutboxEvents[K] & OutboxEventSpec)['data'];
    /** ms: the event's commit-ordered stamp (`stamped_at`; before stamping, its `created_at`) */
    createdAt: number;
  };
}[A];

/** A polling trigger's request, as the route resolved it (the caller's rights are applied here). */
export interface StampedEventsPoll<A extends OutboxAction> {
  actions: readonly A[];
  /** ms, inclusive; absent: from the first */
  since?: number;
  /** 0–100 */
  limit: number;
}

/**
 * The connector's polling triggers' reads of the outbox (docs/connector.md, "Polling triggers"):
 * stamped events of some actions, newest first by their commit-ordered stamp, as the caller may
 * see them — administrators and operators every event for staff; a worker the events naming it (the
 * live stream's audience). A poll that finds events of the company not yet stamped stamps them
 * first ({@link OutboxStamping.readFresh}), so it sees everything committed before it began.
 */
@Injectable()
export class StampedEvents {
  constructor(
    private readonly repo: OutboxRepository,
    private readonly stamping: OutboxStamping,
  ) {}

  async poll<A extends OutboxAction>(ctx: AuthContext, q: StampedEventsPoll<A>): Promise<Array<StampedEventOf<A>>> {
    const read: StampedEventsQuery = {
      companyId: ctx.companyId,
      actions: q.actions,
      since: q.since,
      limit: q.limit,
      memberId: STAFF.includes(ctx.role) ? undefined : ctx.memberId,
    };
    const page = await this.stamping.readFresh(ctx.companyId, () => this.repo.stampedEventsPage(read));
    return page.events as Array<StampedEventOf<A>>;
  }
}
