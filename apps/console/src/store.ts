import { Firing, Job, jobEventEffect, Member, Place, PositionRecord, Region, StreamEvent, Zone } from './model';

/** What changed, for the views that listen: a topic and, for members and jobs, which ones. */
export type Change =
  | { topic: 'members'; uids: string[] }
  | { topic: 'jobs'; ids: string[] }
  | { topic: 'day' }
  | { topic: 'geo' }
  | { topic: 'firings' }
  | { topic: 'selection' }
  | { topic: 'regions' };

/** Who signed in and the company's settings the console needs. */
export interface Session {
  memberUid: string;
  username: string;
  name: string;
  role: string;
  companyName: string;
  timezone: string;
}

/**
 * The console's state — members with their last positions, the day's jobs, places, zones, the alert
 * feed, the selection — and one `subscribe` for views. Mutations come from the actions' answers and
 * the stream's events; both go through the same upserts, so an answer and its event agree.
 */
export class Store {
  session!: Session;
  day = 0;
  readonly members = new Map<string, Member>();
  readonly jobs = new Map<string, Job>();
  /** job id → the live events seen for it since sign-in */
  readonly jobEvents = new Map<string, Array<{ action: string; ts: number }>>();
  places: Place[] = [];
  zones: Zone[] = [];
  readonly firings: Firing[] = [];
  /** member uid → until when (ms) it is highlighted for an alert */
  readonly alerted = new Map<string, number>();
  regions: Region[] = [];
  selectedMember: string | null = null;
  selectedJob: string | null = null;
  private readonly listeners = new Set<(c: Change) => void>();

  subscribe(fn: (c: Change) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  emit(c: Change): void {
    for (const fn of this.listeners) fn(c);
  }

  isStaff(): boolean {
    return this.session.role !== 'worker';
  }

  /** Adds or updates members (getaccounts; a snapshot's or position's member), keeping positions. */
  putMembers(list: Array<Pick<Member, 'uid' | 'username' | 'name'> & Partial<Member>>): void {
    const uids: string[] = [];
    for (const m of list) {
      const old = this.members.get(m.uid);
      this.members.set(m.uid, { role: 'worker', state: 'off', ...old, ...m });
      uids.push(m.uid);
    }
    this.emit({ topic: 'members', uids });
  }

  /** Positions from a snapshot or `position` events. */
  applyPositions(records: PositionRecord[]): void {
    const uids: string[] = [];
    for (const r of records) {
      const old = this.members.get(r.member.uid);
      this.members.set(r.member.uid, {
        role: old?.role ?? 'worker',
        ...old,
        uid: r.member.uid,
        username: r.member.username,
        name: r.member.name,
        state: r.state,
        lat: r.lat,
        lng: r.lng,
        ts: r.ts,
        bat: r.bat,
      });
      uids.push(r.member.uid);
    }
    if (uids.length) this.emit({ topic: 'members', uids });
  }

  /** The day's jobs, replacing what was shown (a day change or the first load). */
  setJobs(day: number, jobs: Job[]): void {
    this.day = day;
    this.jobs.clear();
    for (const j of jobs) if (j.status !== 'archived') this.jobs.set(j.id, j);
    this.regions = [];
    this.emit({ topic: 'day' });
  }

  /** Jobs from an action's answer (editjobs, optimizeroute): upserted when on the day shown. */
  putJobs(jobs: Job[]): void {
    const ids: string[] = [];
    for (const j of jobs) {
      if (jobEventEffect('jobupdated', j, this.day) === 'upsert') this.jobs.set(j.id, j);
      else this.jobs.delete(j.id);
      ids.push(j.id);
    }
    if (ids.length) this.emit({ topic: 'jobs', ids });
  }

  /** A job event from the stream: the job upserted or removed, the event kept for its details. */
  applyJobEvent(e: StreamEvent<Job[]>): void {
    const ids: string[] = [];
    for (const job of e.data ?? []) {
      const seen = this.jobEvents.get(job.id) ?? [];
      seen.push({ action: e.action, ts: e.ts });
      this.jobEvents.set(job.id, seen);
      const held = this.jobs.get(job.id);
      if (held && (held.tsSaved ?? 0) > (job.tsSaved ?? 0)) continue;
      if (jobEventEffect(e.action, job, this.day) === 'upsert') this.jobs.set(job.id, job);
      else this.jobs.delete(job.id);
      ids.push(job.id);
    }
    if (ids.length) this.emit({ topic: 'jobs', ids });
  }

  /** A firing for the feed (newest first); its member highlighted for `highlightMs`. */
  addFiring(f: Firing, highlightMs = 120_000): void {
    if (f.firingId && this.firings.some((x) => x.firingId === f.firingId)) return;
    this.firings.unshift(f);
    this.firings.sort((a, b) => b.ts - a.ts);
    if (Date.now() - f.ts < highlightMs) this.alerted.set(f.memberUid, Date.now() + highlightMs);
    this.emit({ topic: 'firings' });
    this.emit({ topic: 'members', uids: [f.memberUid] });
  }

  select(member: string | null, job: string | null = this.selectedJob): void {
    this.selectedMember = member;
    this.selectedJob = job;
    this.emit({ topic: 'selection' });
  }

  /** The member whose username is `username` (case-insensitive). */
  memberByUsername(username: string): Member | undefined {
    const u = username.toLowerCase();
    for (const m of this.members.values()) if (m.username.toLowerCase() === u) return m;
    return undefined;
  }
}
