import type { GeoPoint, TourOptions } from '../types';
import type { RouteEnds } from './route-ends';

/** A job as the optimizeroute plan needs it (a subset of {@link DayJob}). */
export interface RouteJob {
  id: string;
  /** ms, 0 = not done */
  tsDoneSuccess: number;
  /** ms, 0 = not done */
  tsDoneFailed: number;
  /** degrees; null when the job (and its place) has no position */
  lat: number | null;
  lng: number | null;
}

/** What optimizeroute asks the solver, and how to read its answer back. */
export interface RoutePlan {
  /** Completed jobs' ids by completion time (they keep the front of the route). */
  completed: string[];
  /** Ids of the open jobs with coordinates: node `offset + i` of the matrix is `routable[i]`. */
  routable: string[];
  /** Open jobs without coordinates, in their current order (they follow the routed ones). */
  unrouted: string[];
  /** The matrix's points: [start?] + the routable jobs + [end?] (degrees). */
  points: GeoPoint[];
  /** Index of the first job node in `points` (1 when a start point is node 0, else 0). */
  offset: number;
  /** The solver's options, or null when the order is trivial (at most one routable job). */
  options: TourOptions | null;
}

const doneAt = (j: RouteJob) => Math.max(j.tsDoneSuccess, j.tsDoneFailed);

/**
 * Splits a member's day (`jobs` in their current order) for optimizeroute (CONTRACTS.md "Dispatch"):
 * completed jobs first by completion time (ties keep the current order); the open jobs with
 * coordinates are the solver's nodes; open jobs without coordinates keep their relative order after
 * them. A fixed start or end point is a node of its own that the solver pins: the start as node 0
 * (`start: 0`), the end as the last node (`end: n − 1`); with `ends.closed` (the company's location)
 * a closed tour from node 0. Without fixed ends it is a path whose ends the solver picks.
 */
export function planRoute(jobs: readonly RouteJob[], ends: RouteEnds): RoutePlan {
  const completed = jobs
    .map((j, i) => ({ j, i }))
    .filter(({ j }) => doneAt(j) > 0)
    .sort((a, b) => doneAt(a.j) - doneAt(b.j) || a.i - b.i)
    .map(({ j }) => j.id);
  const open = jobs.filter((j) => doneAt(j) === 0);
  const routed = open.filter((j) => j.lat !== null && j.lng !== null);
  const unrouted = open.filter((j) => j.lat === null || j.lng === null).map((j) => j.id);
  const points: GeoPoint[] = [];
  if (ends.start) points.push(ends.start);
  const offset = points.length;
  for (const j of routed) points.push({ lat: j.lat!, lng: j.lng! });
  let options: TourOptions | null = null;
  if (ends.closed) {
    options = { kind: 'closed', start: 0 };
  } else {
    if (ends.end) points.push(ends.end);
    options = { kind: 'path', ...(ends.start ? { start: 0 } : {}), ...(ends.end ? { end: points.length - 1 } : {}) };
  }
  if (routed.length <= 1) options = null;
  return { completed, routable: routed.map((j) => j.id), unrouted, points, offset, options };
}

/**
 * The route's job ids in their new order: completed, then the routable jobs in the solver's order
 * (`order` a permutation of the plan's points; the start/end nodes dropped), then the unrouted.
 * With no solver call (`order` null) the routable jobs keep their current order.
 * @throws Error when `order` is not a permutation of the plan's points (a solver bug, never a client's).
 */
export function routeOrder(plan: RoutePlan, order: readonly number[] | null): string[] {
  let routed = plan.routable;
  if (order) {
    const n = plan.points.length;
    const seen = new Uint8Array(n);
    for (const k of order) {
      if (!Number.isInteger(k) || k < 0 || k >= n || seen[k]) throw new Error(`the solver's order is not a permutation of 0..${n - 1}`);
      seen[k] = 1;
    }
    if (order.length !== n) throw new Error(`the solver's order is not a permutation of 0..${n - 1}`);
    routed = order.filter((k) => k >= plan.offset && k < plan.offset + plan.routable.length).map((k) => plan.routable[k - plan.offset]);
  }
  return [...plan.completed, ...routed, ...plan.unrouted];
}

/**
 * What the route's order depends on, per job: id, coordinates and completion. The writing
 * transaction compares it with what `compute` read: a job added, removed, moved or completed
 * meanwhile means the computed order no longer fits (other changes — notes, windows, a `number`
 * written by someone else — do not).
 */
export function routeFingerprint(jobs: readonly RouteJob[]): string {
  return jobs
    .map((j) => `${j.id}:${j.lat ?? ''},${j.lng ?? ''}:${doneAt(j)}`)
    .sort()
    .join('|');
}
