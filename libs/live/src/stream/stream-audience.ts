import { invalid, OutboxAction, Role, STAFF } from '@app/core';

/** Who holds a stream: the member its key or token belongs to, with its role. */
export interface StreamViewer {
  companyId: string;
  memberId: string;
  role: Role;
}

/** An event's audience as written with it (CONTRACTS.md "Wave 3: live stream", "Audience"). */
export interface StoredAudience {
  audienceStaff: boolean;
  audienceMembers: readonly string[];
}

/**
 * Whether `viewer` may see an event: administrators and operators see what staff may see; anyone
 * sees what names them among its members (a worker: its jobs before and after a change, its
 * notifications, its own check-ins, clock and alert events).
 */
export function maySeeEvent(viewer: StreamViewer, e: StoredAudience): boolean {
  return (e.audienceStaff && STAFF.includes(viewer.role)) || e.audienceMembers.includes(viewer.memberId);
}

/** Whether `viewer` may see `memberId`'s position: staff every member's, a worker its own only. */
export function maySeePosition(viewer: StreamViewer, memberId: string): boolean {
  return STAFF.includes(viewer.role) || memberId === viewer.memberId;
}

/**
 * Every action the stream carries, stamped events and `position`. Typed against core's `OutboxEvents`
 * (filled by each lib): the build fails until an event a lib adds is listed here.
 */
const STAMPED: Record<OutboxAction, true> = {
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
  notification: true,
};

/** The names `?events=` accepts: every stamped action and `position`. */
export const STREAM_ACTIONS: readonly string[] = [...Object.keys(STAMPED), 'position'];

/**
 * `?events=a,b` → the set of actions to send, or null for all. `snapshot` and `reset` are the
 * protocol's own and always sent. Names are matched as sent (actions are lower case).
 * @throws DomainError invalid naming `events` on an empty name or one the stream does not carry.
 */
export function parseEventsFilter(value: unknown): ReadonlySet<string> | null {
  if (value === undefined) return null;
  if (typeof value !== 'string') throw invalid('events', 'must be one comma-separated list of event names');
  const names = value.split(',').map((n) => n.trim());
  const unknown = names.find((n) => !STREAM_ACTIONS.includes(n));
  if (unknown !== undefined) {
    throw invalid(
      'events',
      unknown === '' ? 'holds an empty name' : `unknown event ${JSON.stringify(unknown.slice(0, 40))}; known: ${STREAM_ACTIONS.join(', ')}`,
    );
  }
  return new Set(names);
}
