import { OutboxAction, STREAM_ONLY_KEY } from '@app/core';
import { WEBHOOK_KEYS } from '../webhook-keys';

/** A delivered action a REST hook may subscribe to: every outbox action but the stream's own `notification`. */
export type SubscribableAction = Exclude<OutboxAction, typeof STREAM_ONLY_KEY>;

/**
 * Every action a subscription may name, typed against core's `OutboxEvents` (filled by each lib): the
 * build fails until an event a lib adds is listed here, as the live stream's list does.
 */
const ACTIONS: Record<SubscribableAction, true> = {
  jobcreated: true,
  jobupdated: true,
  jobcompleted: true,
  jobarchived: true,
  jobdeleted: true,
  jobcheckin: true,
  jobcheckout: true,
  placecheckin: true,
  placecheckout: true,
  clockin: true,
  clockout: true,
  alerttriggered: true,
};

/** The actions, in the order above. */
export const SUBSCRIBABLE_ACTIONS = Object.keys(ACTIONS) as SubscribableAction[];

/**
 * What `POST /v1/hooks` takes as `event`: a delivered action (`jobcreated`: that action only) or one
 * of the nine webhook keys (`job_checked`: every action of that key — `jobcheckin` and `jobcheckout`).
 * A subscription gets the events whose action or key is its `event` (the outbox trigger matches both).
 */
export const SUBSCRIBABLE_EVENTS: readonly string[] = [...SUBSCRIBABLE_ACTIONS, ...WEBHOOK_KEYS];

/** The rule `event` breaks, in words: what it must be. */
export const SUBSCRIBABLE_EVENT_RULE = `must be an event action (${SUBSCRIBABLE_ACTIONS.join(', ')}) or a webhook key (${WEBHOOK_KEYS.join(', ')})`;
