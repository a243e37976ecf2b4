import { JobView, toConnectorJob } from '@app/jobs';

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
  /** the form `id` (a job's id; a check-in's `<member>-<place>-<ts>`; a firing's id…) */
  formId: string;
  /** ms, the event's creation time (database clock) */
  ts: number;
  /** the stored payload, parsed (the nine keys' form `data`) */
  data: unknown;
}

/** Job events (every action whose payload is `[job]`, `jobcheckin`/`jobcheckout` included): the connector job, as `/v1/jobs` returns it. */
const JOB_ACTIONS = new Set(['jobcreated', 'jobupdated', 'jobcompleted', 'jobarchived', 'jobdeleted', 'jobcheckin', 'jobcheckout']);

/**
 * The item for one event: for job events the connector job (`toConnectorJob`, the very function
 * `/v1/jobs` answers with); for the others {@link provisionalHookItem}.
 */
export function hookItem(event: HookEvent): unknown {
  try {
    if (JOB_ACTIONS.has(event.action) && Array.isArray(event.data) && event.data.length === 1) {
      return toConnectorJob(event.data[0] as JobView);
    }
    return provisionalHookItem(event) ?? event.data;
  } catch {
    return event.data;
  }
}

type Obj = Record<string, any>;
const member = (who: Obj | undefined) => (who ? { id: who.uid, username: who.username, name: who.name } : null);
const place = (p: Obj | undefined) => (p ? { id: p.uid, name: p.name, location: p.location ?? null } : undefined);

/**
 * PROVISIONAL — check-in, clock and alert events (`placecheckin`, `placecheckout`, `clockin`,
 * `clockout`, `alerttriggered`). The polling routes of those items (`/v1/checkins`,
 * `/v1/clock-events`, `/v1/alert-firings`, CONTRACTS.md) are being written on another branch with
 * their own pure mappers; when they land, THIS FUNCTION is the one to switch to them, so that a hook's
 * `data` is exactly the polling route's item. Until then it builds the items' documented fields from
 * the event payload: `id` is the event's form id (the outbox payload does not carry the check-in's
 * or clock row's own id; an alert's form id is its firing's id), `createdAt` the event's time.
 * @returns undefined for an action it does not know (the caller sends the payload as stored)
 */
export function provisionalHookItem(event: HookEvent): unknown {
  const d = event.data as Obj;
  switch (event.action) {
    case 'placecheckin':
    case 'placecheckout':
      return { id: event.formId, kind: event.action, member: member(d.who), place: place(d.place), ts: d.ts, createdAt: event.ts };
    case 'clockin':
    case 'clockout':
      return { id: event.formId, kind: event.action, member: member(d.who), ts: d.ts, location: d.location ?? null, createdAt: event.ts };
    case 'alerttriggered':
      return {
        id: event.formId,
        action: d.alert?.action,
        rule: { id: d.alert?.id, title: d.alert?.title },
        member: member(d.member),
        ...(d.place ? { place: place(d.place) } : {}),
        ...(d.zone ? { zone: d.zone } : {}),
        message: d.alert?.message,
        ts: event.ts,
        createdAt: event.ts,
      };
    default:
      return undefined;
  }
}
