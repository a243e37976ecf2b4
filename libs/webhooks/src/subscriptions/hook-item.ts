import { alertFiringItemForEvent } from '@app/alerts';
import type { StampedEventOf } from '@app/core';
import { JobView, toConnectorJob } from '@app/jobs';
import { checkinItemForEvent, clockEventItemForEvent } from '@app/locations';

/**
 * The `data` of a REST hook delivery (CONTRACTS.md "Wave 3: connector for automation platforms"):
 * the item the matching connector polling route returns, built from the outbox event's payload
 * (delivery never re-reads the database). Never throws: a payload it cannot map goes out as stored.
 */

/** An outbox event as a REST hook body needs it. */
export interface HookEvent {
  /** the outbox event id (`msg_…`), the webhook-id */
  id: string;
  action: string;
  /** ms, the event's creation time (database clock) */
  ts: number;
  /** ms, the event's commit-ordered stamp (`stamped_at`), the polled items' `createdAt`; null before stamping */
  stampedAt: number | null;
  /** the stored payload, parsed (the nine keys' form `data`) */
  data: unknown;
}

/** Job events (every action whose payload is `[job]`, `jobcheckin`/`jobcheckout` included): the connector job, as `/v1/jobs` returns it. */
const JOB_ACTIONS = new Set(['jobcreated', 'jobupdated', 'jobcompleted', 'jobarchived', 'jobdeleted', 'jobcheckin', 'jobcheckout']);

/**
 * The item for one event: for job events the connector job (`toConnectorJob`, the very function
 * `/v1/jobs` answers with); for check-in, clock and alert events the very mappers of `/v1/checkins`,
 * `/v1/clock-events` and `/v1/alert-firings` ({@link pollingItem}).
 */
export function hookItem(event: HookEvent): unknown {
  try {
    if (JOB_ACTIONS.has(event.action) && Array.isArray(event.data) && event.data.length === 1) {
      return toConnectorJob(event.data[0] as JobView);
    }
    return pollingItem(event) ?? event.data;
  } catch {
    return event.data;
  }
}

/**
 * The polling routes' item for a check-in, clock or alert event (`placecheckin`, `placecheckout`,
 * `clockin`, `clockout`, `alerttriggered`): `id` the event id, `createdAt` its commit-ordered stamp
 * (its creation time if it is not stamped yet: the drain stamps before it builds a body, so only an
 * event committed between that stamping and the claim goes out so), as `/v1/checkins`,
 * `/v1/clock-events` and `/v1/alert-firings` list it.
 * @returns undefined for an action it does not know (the caller sends the payload as stored)
 */
export function pollingItem(event: HookEvent): unknown {
  const createdAt = event.stampedAt ?? event.ts;
  switch (event.action) {
    case 'placecheckin':
    case 'placecheckout':
      return checkinItemForEvent({ id: event.id, action: event.action, data: event.data, createdAt } as StampedEventOf<'placecheckin'>);
    case 'clockin':
    case 'clockout':
      return clockEventItemForEvent({ id: event.id, action: event.action, data: event.data, createdAt } as StampedEventOf<'clockin'>);
    case 'alerttriggered':
      return alertFiringItemForEvent({
        id: event.id,
        action: 'alerttriggered',
        data: event.data,
        createdAt,
      } as StampedEventOf<'alerttriggered'>);
    default:
      return undefined;
  }
}
