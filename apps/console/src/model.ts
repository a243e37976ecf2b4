/**
 * The console's data: the wire shapes it reads (the ordinary actions' answers and the live stream's
 * events, CONTRACTS.md) and pure functions over them. No DOM here: unit-tested in model.spec.ts.
 */

/** The server's member state (CONTRACTS.md "Wave 3: live stream", "Member state"). */
export type MemberState = 'moving' | 'halted' | 'stale' | 'off';
export const MEMBER_STATES: readonly MemberState[] = ['moving', 'halted', 'stale', 'off'];

/** A `position` event's data, and each member of a `snapshot`: ms, degrees, m, m/s, %. */
export interface PositionRecord {
  member: { uid: string; username: string; name: string };
  lat: number;
  lng: number;
  ts: number;
  acc: number | null;
  spd: number | null;
  dir: number | null;
  bat: number | null;
  state: MemberState;
}

/** A member as the console shows it: who, and the position last received (none until located). */
export interface Member {
  uid: string;
  username: string;
  name: string;
  role: string;
  state: MemberState;
  lat?: number;
  lng?: number;
  /** ms of the position */
  ts?: number;
  bat?: number | null;
}

/** The job fields the console reads (getjobs' job, version 2; job events carry the same). */
export interface Job {
  id: string;
  destinationName: string;
  destinationText: string;
  destinationLat: number | null;
  destinationLng: number | null;
  worker?: string;
  workerName?: string;
  receiverUid?: string;
  number: number;
  day: number;
  windowStart: number;
  windowEnd: number;
  priority: number;
  onSiteSeconds: number;
  teamId: number;
  contactName: string;
  contactPhone: string;
  textDispatcher: string;
  textReceiver: string;
  placeName?: string;
  status?: string;
  tsCreated: number;
  tsAssigned: number;
  tsAccepted: number;
  tsRejected: number;
  tsDoneSuccess: number;
  tsDoneFailed: number;
  tsCheckIn: number;
  tsCheckOut: number;
  /** ms, the last write: an older copy (a late event) never replaces a newer one */
  tsSaved?: number;
}

/** A place (getplaces): location degrees, radius m. */
export interface Place {
  uid: string;
  name: string;
  address?: string;
  location: { lat: number; lng: number } | null;
  radius: number;
  color?: string;
}

/** A zone (getzones): a GeoJSON Polygon of [lng, lat] rings. */
export interface Zone {
  id: string;
  name: string;
  polygon: { type: 'Polygon'; coordinates: number[][][] };
  danger: boolean;
  color: string;
}

/** An alert firing in the feed: the firing's id once known (getalertfirings), the event's otherwise. */
export interface Firing {
  /** the firing's id (getalertfirings); null until known — a worker cannot list firings */
  firingId: string | null;
  /** the stream event's id (`msg_…`), when it came live */
  eventId: string | null;
  ruleId: string;
  memberUid: string;
  title: string;
  message: string;
  /** ms */
  ts: number;
}

/** A distributejobs answer kept for drawing: each region's jobs and centre. */
export interface Region {
  center: { lat: number; lng: number };
  jobs: string[];
}

/** A stamped stream event's data: `{id, seq, action, ts, data}`. */
export interface StreamEvent<T = unknown> {
  id: string;
  seq: number;
  action: string;
  ts: number;
  data: T;
}

/** The connector's progress values (CONTRACTS.md "Jobs"), in `sort.status` order. */
export type Progress = 'scheduled' | 'accepted' | 'rejected' | 'started' | 'success' | 'failed';

/** A job's progress: success/failed > rejected > started (checked in) > accepted > scheduled. */
export function progressOf(j: Pick<Job, 'tsDoneSuccess' | 'tsDoneFailed' | 'tsRejected' | 'tsCheckIn' | 'tsAccepted'>): Progress {
  if (j.tsDoneSuccess > 0) return 'success';
  if (j.tsDoneFailed > 0) return 'failed';
  if (j.tsRejected > 0) return 'rejected';
  if (j.tsCheckIn > 0) return 'started';
  if (j.tsAccepted > 0) return 'accepted';
  return 'scheduled';
}

/** `states.moving` (getaccounts) → the member state, as the server maps it. */
export function stateOfMoving(moving: string | undefined): MemberState {
  if (moving === 'moving') return 'moving';
  if (moving === 'stopped') return 'halted';
  if (moving === 'offline') return 'stale';
  return 'off';
}

/** A worker's jobs in route order: `number` ascending (0 = unnumbered, last), then window start, then id. */
export function routeOrder<T extends Pick<Job, 'number' | 'windowStart' | 'id'>>(jobs: Iterable<T>): T[] {
  const key = (n: number) => (n > 0 ? n : Number.MAX_SAFE_INTEGER);
  return [...jobs].sort(
    (a, b) => key(a.number) - key(b.number) || a.windowStart - b.windowStart || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/** The day's jobs by assignee username (lower case), each in route order, and the unassigned ones. */
export function byWorker(jobs: Iterable<Job>): { workers: Map<string, Job[]>; unassigned: Job[] } {
  const workers = new Map<string, Job[]>();
  const unassigned: Job[] = [];
  for (const j of jobs) {
    if (!j.worker) {
      unassigned.push(j);
      continue;
    }
    const k = j.worker.toLowerCase();
    const list = workers.get(k) ?? [];
    list.push(j);
    workers.set(k, list);
  }
  for (const [k, list] of workers) workers.set(k, routeOrder(list));
  return { workers, unassigned: routeOrder(unassigned) };
}

/** HHMM → "08:00"; 2400 → "24:00". */
export function hhmm(v: number): string {
  const h = Math.floor(v / 100);
  const m = v % 100;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/** A job's window as text: "08:00–10:00", "from 08:00", "until 10:00", or "" when unset. */
export function windowText(start: number, end: number): string {
  if (start && end) return `${hhmm(start)}–${hhmm(end)}`;
  if (start) return `from ${hhmm(start)}`;
  if (end) return `until ${hhmm(end)}`;
  return '';
}

/** The job actions the stream sends (job events carry the one-element job array). */
export const JOB_ACTIONS = ['jobcreated', 'jobupdated', 'jobcompleted', 'jobarchived', 'jobdeleted', 'jobcheckin', 'jobcheckout'] as const;

/**
 * What a job event does to the day shown: `upsert` the job when it is on `day` and not archived,
 * else `remove` it (deleted, archived, moved to another day).
 */
export function jobEventEffect(action: string, job: Job, day: number): 'upsert' | 'remove' {
  if (action === 'jobdeleted' || action === 'jobarchived' || job.status === 'archived') return 'remove';
  return job.day === day ? 'upsert' : 'remove';
}

/** Labels for a job's timeline, from its own timestamps (what happened before the console opened). */
export const JOB_MILESTONES: Array<[keyof Job, string]> = [
  ['tsCreated', 'created'],
  ['tsAssigned', 'assigned'],
  ['tsAccepted', 'accepted'],
  ['tsRejected', 'rejected'],
  ['tsCheckIn', 'checked in'],
  ['tsCheckOut', 'checked out'],
  ['tsDoneSuccess', 'done'],
  ['tsDoneFailed', 'failed'],
];

/** A job's events so far: its milestones from its timestamps, merged with the live events seen, by time. */
export function jobTimeline(job: Job, live: Array<{ action: string; ts: number }>): Array<{ ts: number; label: string }> {
  const out: Array<{ ts: number; label: string }> = [];
  for (const [field, label] of JOB_MILESTONES) {
    const ts = job[field] as number;
    if (typeof ts === 'number' && ts > 0) out.push({ ts, label });
  }
  for (const e of live) out.push({ ts: e.ts, label: `event ${e.action}` });
  return out.sort((a, b) => a.ts - b.ts);
}

/** Distinct, readable colours for regions (distributejobs) and routes: cycled. */
export const PALETTE = ['#1b9e77', '#d95f02', '#7570b3', '#e7298a', '#66a61e', '#e6ab02', '#a6761d', '#1f78b4', '#b2df8a', '#fb9a99'];

/** The colour a member state is drawn in (the legend names them). */
export const STATE_COLOURS: Record<MemberState, string> = { moving: '#2e7d32', halted: '#1565c0', stale: '#ef6c00', off: '#757575' };
