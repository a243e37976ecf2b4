import { Queryable } from '@app/core';
import { Job } from './entities/job.entity';
import type { JobsRepository } from './jobs.repository';

/** A worker's day: the unit a route number counts in. `day` is YYYYMMDD (never 0). */
export interface WorkerDay {
  workerId: string;
  day: number;
}

/** The largest `number` a job can hold (the column is a PostgreSQL integer). */
export const MAX_ROUTE_NUMBER = 2147483647;

/**
 * One job of a write, for numbering: its state before (null for a new job) and after the write, and
 * whether the write sent a `number` itself (then it is kept as sent).
 */
export interface RouteEntry {
  before: Job | null;
  after: Job;
  numberSent: boolean;
}

/** The map key of a worker-day. */
export const workerDayKey = (workerId: string, day: number): string => `${workerId}:${day}`;

/** Whether a job's state is on a route: a live job (not a template, not archived) with a worker and a day. */
const onRoute = (job: Job): boolean => !job.isTemplate && !job.archived && job.workerId !== null && job.day !== 0;

/**
 * Whether the write lands the job on a worker-day it was not on (created there, assigned, reassigned or
 * moved to another day) without sending a `number`: then it takes the worker-day's next number.
 */
export function landsOnRoute(e: RouteEntry): boolean {
  if (e.numberSent || !onRoute(e.after)) return false;
  const b = e.before;
  return b === null || b.workerId !== e.after.workerId || b.day !== e.after.day;
}

/** The distinct worker-days the entries land on (in first-landing order). */
export function landingDays(entries: readonly RouteEntry[]): WorkerDay[] {
  const days = new Map<string, WorkerDay>();
  for (const e of entries) {
    if (!landsOnRoute(e)) continue;
    const key = workerDayKey(e.after.workerId!, e.after.day);
    if (!days.has(key)) days.set(key, { workerId: e.after.workerId!, day: e.after.day });
  }
  return [...days.values()];
}

/**
 * Gives each landing job (see {@link landsOnRoute}) its worker-day's next `number`, in the entries'
 * order: max(0, the highest number on that worker-day) + 1, then + 1 for each further job of the call.
 * "On that worker-day" counts `tops` (the stored jobs, the entries' own jobs left out) and every entry
 * whose state after the write stays on or is sent onto it with a number, so a call never hands out a
 * number it holds elsewhere on the route. Past {@link MAX_ROUTE_NUMBER} the number stays there.
 * Sets `after.number` of the landing entries; leaves every other entry as it is.
 * @param tops {@link workerDayKey} → the highest stored `number` of the worker-day's live jobs (missing: none)
 */
export function assignRouteNumbers(entries: readonly RouteEntry[], tops: ReadonlyMap<string, number>): void {
  const top = new Map(tops);
  const raise = (key: string, n: number) => top.set(key, Math.max(top.get(key) ?? 0, n));
  for (const e of entries) if (onRoute(e.after) && !landsOnRoute(e)) raise(workerDayKey(e.after.workerId!, e.after.day), e.after.number);
  for (const e of entries) {
    if (!landsOnRoute(e)) continue;
    const key = workerDayKey(e.after.workerId!, e.after.day);
    const next = Math.min(Math.max(top.get(key) ?? 0, 0) + 1, MAX_ROUTE_NUMBER);
    e.after.number = next;
    top.set(key, next);
  }
}

/** `items` with the indexes `first` lists first (in that order; out-of-range ones ignored), then the rest in their order. */
export function inOrder<T>(items: readonly T[], first: readonly number[] = []): T[] {
  const listed = new Set(first.filter((i) => i >= 0 && i < items.length));
  return [...listed, ...[...items.keys()].filter((i) => !listed.has(i))].map((i) => items[i]);
}

/**
 * Route numbers of a job write (CONTRACTS.md "Wave 3: reports and the demo", docs/jobs-writes.md):
 * each entry the write lands on a worker-day without a `number` of its own gets that worker-day's
 * next number ({@link assignRouteNumbers}), under the worker-day's lock
 * ({@link JobsRepository.lockRouteDays}, taken after the caller's row locks, held until the commit),
 * so concurrent writes never share one. Sets `after.number`; writes nothing else. `db` must be the
 * write's transaction.
 */
export async function numberRoutes(
  repo: Pick<JobsRepository, 'lockRouteDays' | 'routeNumberTops'>,
  db: Queryable,
  companyId: string,
  entries: readonly RouteEntry[],
): Promise<void> {
  const days = landingDays(entries);
  if (!days.length) return;
  await repo.lockRouteDays(db, companyId, days);
  const exclude = entries.flatMap((e) => (e.before ? [e.before.id] : []));
  assignRouteNumbers(entries, await repo.routeNumberTops(db, companyId, days, exclude));
}
