/**
 * The outbox's events, checked by the compiler: each delivered action (the form's `action`, e.g.
 * `jobcreated`) maps to its webhook configuration key, the type of its form `id` and the type of its
 * `data` payload (spec "Events"; CONTRACTS.md, "Events and webhooks"). Core declares the map empty;
 * each domain lib adds the events it fires by module augmentation, beside the payload types:
 *
 * ```ts
 * declare module '@app/core' {
 *   interface OutboxEvents {
 *     jobcreated: { key: 'job_created'; id: string; data: [JobView] };
 *   }
 * }
 * ```
 *
 * An entry is visible wherever the declaring file is part of the program (every build; a file that
 * imports the lib): jobs' `job-events.ts`, locations' `location-events.ts` (place checks, clock),
 * alerts' `alert-events.ts` (`alerttriggered`).
 */
export interface OutboxEvents {
  /**
   * A notification (core's own event, CONTRACTS.md "Wave 3: live stream"): written with the
   * `notifications` row, carried by the live stream to its addressee, never by a webhook (its key is
   * {@link STREAM_ONLY_KEY}, which no endpoint can be configured with).
   */
  notification: { key: typeof STREAM_ONLY_KEY; id: string; data: NotificationEventData };
}

/** The webhook key of events only the live stream carries (no webhook configuration has it). */
export const STREAM_ONLY_KEY = 'notification';

/** A `notification` event's `data`: the notification as `getnotifications` answers it. */
export interface NotificationEventData {
  id: string;
  kind: string;
  /** the addressee's id; null = company-wide */
  memberUid: string | null;
  jobId: string | null;
  /** ms, database clock */
  ts: number;
}

/**
 * Who sees an event on the live stream (CONTRACTS.md "Wave 3: live stream", "Audience"), written
 * with the event: the company's administrators and operators (`staff`, default true) and the
 * `members` listed (a job's assignees before and after the change, a notification's addressee, the
 * member a check-in, clock or alert event concerns). Empty entries are dropped, repeats kept once.
 */
export interface EventAudience {
  staff?: boolean;
  members?: ReadonlyArray<string | null | undefined>;
}

/** The members of an audience: non-empty ids, each once, in the order given. */
export function audienceMembers(audience: EventAudience | undefined): string[] {
  return [...new Set((audience?.members ?? []).filter((m): m is string => typeof m === 'string' && m !== ''))];
}

/** What every entry of {@link OutboxEvents} gives. */
export interface OutboxEventSpec {
  /** webhook configuration key (spec "Webhook configuration"), e.g. `job_checked` */
  key: string;
  /** form field `id` */
  id: string;
  /** form field `data`, before `JSON.stringify` */
  data: unknown;
}

/** A delivered action the outbox knows. */
export type OutboxAction = keyof OutboxEvents;

/** The webhook configuration key of action `A`. */
export type OutboxEventKey<A extends OutboxAction> = (OutboxEvents[A] & OutboxEventSpec)['key'];

/**
 * The keys of several actions, as a domain's runtime table declares them (`JOB_EVENT_KEYS:
 * OutboxEventKeys<JobAction>`): checked against the map, and indexing it with a generic action
 * gives that action's own key type.
 */
export type OutboxEventKeys<A extends OutboxAction> = { readonly [K in A]: OutboxEventKey<K> };

/** One event as a domain service records it, for action `A`. */
export interface OutboxEventOf<A extends OutboxAction> {
  companyId: string;
  /** webhook configuration key, e.g. `job_updated` */
  eventKey: OutboxEventKey<A>;
  /** delivered action, e.g. `jobupdated` */
  action: A;
  /** form field `id` */
  formId: (OutboxEvents[A] & OutboxEventSpec)['id'];
  /** form field `data`, serialised by the outbox with `JSON.stringify` */
  data: (OutboxEvents[A] & OutboxEventSpec)['data'];
  /**
   * `JSON.stringify(data)` as UTF-8 bytes, byte for byte, when the caller has them already
   * (createjobs answers the same job views, encoded once: {@link wrappedJsonUtf8}): the outbox
   * writes them instead of serialising and encoding `data` again.
   */
  dataUtf8?: Buffer;
  /** who sees it on the live stream; default: staff only */
  audience?: EventAudience;
}

/** Every event input by action: indexed with a union of actions it gives the union of their inputs. */
export type OutboxEventInputs = { [A in OutboxAction]: OutboxEventOf<A> };

/**
 * What a domain service records: the webhook key, action, form `id` and `data` of one of `A` (by
 * default any action of {@link OutboxEvents}), the key, id and payload checked against the action.
 */
export type OutboxEventInput<A extends OutboxAction = OutboxAction> = OutboxEventInputs[A];

/**
 * One event of `action`, its webhook key taken from the domain's key table (itself checked against
 * {@link OutboxEvents}), its `formId` and `data` checked against the action's entry. Call it with a
 * concrete action or a union of actions that share a payload type (the payload of a union is
 * checked against the union of the payloads).
 * @example outboxEvent(JOB_EVENT_KEYS, action, { companyId, formId: view.id, data: [view] })
 */
export function outboxEvent<A extends OutboxAction>(
  keys: OutboxEventKeys<NoInfer<A>>,
  action: A,
  event: {
    companyId: string;
    formId: OutboxEventOf<A>['formId'];
    data: OutboxEventOf<A>['data'];
    dataUtf8?: Buffer;
    audience?: EventAudience;
  },
): OutboxEventInput<A> {
  const input: OutboxEventOf<A> = {
    companyId: event.companyId,
    eventKey: keys[action],
    action,
    formId: event.formId,
    data: event.data,
    audience: event.audience,
  };
  if (event.dataUtf8 !== undefined) input.dataUtf8 = event.dataUtf8;
  // for a union A the compiler can't pair each action with its own key (a correlated union); the key
  // table's type pairs them, so this is the one place the pairing is asserted
  return input as unknown as OutboxEventInput<A>;
}
