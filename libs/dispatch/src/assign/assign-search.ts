import { GeoPoint } from '../types';
import { ASSIGN_REASONS, AssignInput, AssignJob, AssignWorker } from './assign-types';
import { pathLength, PathRoute } from './path-route';
import { SphereMetric } from './sphere-metric';

/** A usable position: present, with finite coordinates (anything else counts as "no coordinates"). */
export const located = (p: GeoPoint | null | undefined): p is GeoPoint => !!p && Number.isFinite(p.lat) && Number.isFinite(p.lng);

const items = (v: number | null | undefined) => (typeof v === 'number' && v > 0 ? v : 0);

/** The spherical mean of points (normalised mean of unit vectors), or null for none. */
export function sphericalMean(points: GeoPoint[]): GeoPoint | null {
  if (!points.length) return null;
  const rad = Math.PI / 180;
  let x = 0,
    y = 0,
    z = 0;
  for (const p of points) {
    const c = Math.cos(p.lat * rad);
    x += c * Math.cos(p.lng * rad);
    y += c * Math.sin(p.lng * rad);
    z += Math.sin(p.lat * rad);
  }
  const h = Math.hypot(x, y);
  if (h === 0 && z === 0) return points[0];
  return { lat: Math.atan2(z, h) / rad, lng: Math.atan2(y, x) / rad };
}

/**
 * The state of one `assignJobs` call, shared by its phases (regret insertion, `size`'s rebalancing,
 * the pair search, ruin and recreate — each in a file of its own): the nodes on the sphere, the
 * workers' routes, their rooms and counts, the jobs' needs, eligibility and assignment.
 *
 * Nodes: the located jobs first (node v < {@link nJobNodes} is job `nodeJob[v]`), then the workers'
 * starts, ends, existing jobs and anchors. Workers and jobs are indices into the input's arrays.
 * Every array here is allocated once: the phases change their contents, never the arrays (except a
 * route's `nodes`, which a restore may replace).
 */
export class AssignSearch {
  readonly jobs: AssignJob[];
  readonly workers: AssignWorker[];
  readonly method: AssignInput['method'];
  readonly sizeMode: boolean;
  /** workers */
  readonly W: number;
  /** jobs */
  readonly n: number;
  readonly points: GeoPoint[] = [];
  /** job → its node, -1 when it has no coordinates */
  readonly jobNode: Int32Array;
  /** job node → job */
  readonly nodeJob: number[] = [];
  /** nodes 0..nJobNodes-1 are the located jobs */
  readonly nJobNodes: number;
  readonly routes: PathRoute[] = [];
  /** worker → the node its candidate lists are measured from (start, else existing jobs' centre, else a seed job), -1 = none */
  readonly anchor: Int32Array;
  /** items a worker may still take (Infinity = unlimited) */
  readonly pickRoom: Float64Array;
  readonly dropRoom: Float64Array;
  /** worker → its jobs (existing + new) */
  readonly count: Int32Array;
  /** worker → its existing jobs */
  readonly baseCount: Int32Array;
  readonly m: SphereMetric;
  readonly pickNeed: Float64Array;
  readonly dropNeed: Float64Array;
  /** job → its eligible workers in index order; null = every worker */
  readonly eligible: Array<Int32Array | null>;
  /** job → worker, -1 = unplaced */
  readonly assignedTo: Int32Array;
  /** the smallest positive pickup / dropoff of any job (-Infinity when none needs any) */
  readonly minPickAll: number;
  readonly minDropAll: number;
  /** worker → the total it may reach in the construction (`size`'s water-filling; else Infinity) */
  readonly quota: Float64Array;
  /** jobs with / without coordinates, in input order */
  readonly locatedJobs: number[] = [];
  readonly unlocatedJobs: number[] = [];
  /** Improving moves applied between workers (the answer's `moves`). */
  moves = 0;
  /** Whether the node is a new (located) job's, not a start, end, existing job or anchor. */
  readonly isNew: (node: number) => boolean;
  /** Whether worker `w` may take job `j` (its `eligible` list). */
  readonly allowed: (j: number, w: number) => boolean;
  private readonly allWorkers: Int32Array;

  constructor(input: AssignInput) {
    const { jobs, workers, method } = input;
    this.jobs = jobs;
    this.workers = workers;
    this.method = method;
    this.sizeMode = method === 'size';
    const W = (this.W = workers.length);
    const n = (this.n = jobs.length);
    const { points, nodeJob, routes } = this;

    const jobNode = (this.jobNode = new Int32Array(n).fill(-1));
    for (let j = 0; j < n; j++) {
      const p = jobs[j].point;
      if (located(p)) {
        jobNode[j] = points.length;
        nodeJob.push(j);
        points.push(p);
      }
    }
    const nJobNodes = (this.nJobNodes = points.length);
    const anchor = (this.anchor = new Int32Array(W).fill(-1));
    const pickRoom = (this.pickRoom = new Float64Array(W));
    const dropRoom = (this.dropRoom = new Float64Array(W));
    const count = (this.count = new Int32Array(W));
    const workerIndex = new Map<string, number>();
    for (let w = 0; w < W; w++) {
      const wk = workers[w];
      if (!workerIndex.has(wk.id)) workerIndex.set(wk.id, w);
      const start = located(wk.start) ? points.push(wk.start) - 1 : -1;
      const end = located(wk.end) ? points.push(wk.end) - 1 : -1;
      const nodes: number[] = [];
      let pick = 0;
      let drop = 0;
      const existingPoints: GeoPoint[] = [];
      for (const e of wk.existing) {
        pick += items(e.pickup);
        drop += items(e.dropoff);
        if (located(e.point)) {
          nodes.push(points.push(e.point) - 1);
          existingPoints.push(e.point);
        }
      }
      routes.push({ start, end, nodes });
      count[w] = wk.existing.length;
      pickRoom[w] = wk.pickupCapacity === null || wk.pickupCapacity === undefined ? Infinity : wk.pickupCapacity - pick;
      dropRoom[w] = wk.dropoffCapacity === null || wk.dropoffCapacity === undefined ? Infinity : wk.dropoffCapacity - drop;
      if (start >= 0) anchor[w] = start;
      else {
        const mean = sphericalMean(existingPoints);
        if (mean) anchor[w] = points.push(mean) - 1;
      }
    }
    this.m = new SphereMetric(points);
    this.isNew = (node: number) => node < nJobNodes;

    const pickNeed = (this.pickNeed = new Float64Array(n));
    const dropNeed = (this.dropNeed = new Float64Array(n));
    for (let j = 0; j < n; j++) {
      pickNeed[j] = items(jobs[j].pickup);
      dropNeed[j] = items(jobs[j].dropoff);
    }
    // eligibility: null = every worker
    this.eligible = jobs.map((job) => {
      if (job.eligible === null || job.eligible === undefined) return null;
      const set = new Set<number>();
      for (const id of job.eligible) {
        const w = workerIndex.get(id);
        if (w !== undefined) set.add(w);
      }
      return Int32Array.from([...set].sort((a, b) => a - b));
    });
    const allowedMask = this.eligible.map((list) => {
      if (!list) return null;
      const mask = new Uint8Array(W);
      for (const w of list) mask[w] = 1;
      return mask;
    });
    this.allowed = (j: number, w: number) => allowedMask[j]?.[w] !== 0;
    this.allWorkers = Int32Array.from({ length: W }, (_, i) => i);

    this.assignedTo = new Int32Array(n).fill(-1);
    this.baseCount = Int32Array.from(count);
    let minPickAll = Infinity;
    let minDropAll = Infinity;
    for (let j = 0; j < n; j++) {
      if (pickNeed[j] > 0) minPickAll = Math.min(minPickAll, pickNeed[j]);
      if (dropNeed[j] > 0) minDropAll = Math.min(minDropAll, dropNeed[j]);
    }
    this.minPickAll = minPickAll === Infinity ? -Infinity : minPickAll;
    this.minDropAll = minDropAll === Infinity ? -Infinity : minDropAll;
    this.quota = new Float64Array(W).fill(Infinity);
    this.seedAnchors();
    for (let j = 0; j < n; j++) (jobNode[j] >= 0 ? this.locatedJobs : this.unlocatedJobs).push(j);
  }

  /** The job's eligible workers (every worker when it names none). */
  eligibleOf(j: number): Int32Array {
    return this.eligible[j] ?? this.allWorkers;
  }

  /** Whether worker `w` has the items' room for job `j`. */
  fitsItems(w: number, j: number): boolean {
    return this.pickRoom[w] >= this.pickNeed[j] && this.dropRoom[w] >= this.dropNeed[j];
  }

  /** {@link fitsItems}, and below its quota. */
  fits(w: number, j: number): boolean {
    return this.fitsItems(w, j) && this.count[w] < this.quota[w];
  }

  /** Whether some eligible worker has the items' room for job `j`. */
  workable(j: number): boolean {
    return this.eligibleOf(j).some((w) => this.fitsItems(w, j));
  }

  /** Sum of the routes' path lengths, m. */
  totalLength(): number {
    return this.routes.reduce((s, r) => s + pathLength(this.m, r), 0);
  }

  /** Places job `j` (without a node in any route) on worker `w`: its assignee, count and rooms. */
  take(j: number, w: number): void {
    this.assignedTo[j] = w;
    this.count[w]++;
    this.pickRoom[w] -= this.pickNeed[j];
    this.dropRoom[w] -= this.dropNeed[j];
  }

  /** Why job `j` stayed unplaced (one of {@link ASSIGN_REASONS}). */
  reasonFor(j: number): string {
    if (this.jobNode[j] < 0 && !this.sizeMode) return ASSIGN_REASONS.noCoordinates;
    if (this.W === 0) return ASSIGN_REASONS.noWorker;
    const list = this.eligibleOf(j);
    if (list.length === 0) return this.method === 'zones' ? ASSIGN_REASONS.noZoneWorker : ASSIGN_REASONS.notEligible;
    let pick = false;
    let drop = false;
    for (const w of list) {
      if (this.pickRoom[w] >= this.pickNeed[j]) pick = true;
      if (this.dropRoom[w] >= this.dropNeed[j]) drop = true;
    }
    if (!pick) return ASSIGN_REASONS.pickup;
    if (!drop) return ASSIGN_REASONS.dropoff;
    return ASSIGN_REASONS.both;
  }

  /** The answer's `assigned`, `unassigned` and `routes` (ids), from the current state. */
  answer(): { assigned: Record<string, string>; unassigned: Record<string, string>; routes: Record<string, string[]> } {
    const { jobs, workers, assignedTo, routes, nodeJob } = this;
    const assigned: Record<string, string> = {};
    const unassigned: Record<string, string> = {};
    for (let j = 0; j < this.n; j++) {
      const id = jobs[j].id;
      if (assignedTo[j] >= 0) assigned[id] = workers[assignedTo[j]].id;
      else unassigned[id] = this.reasonFor(j);
    }
    const routeIds: Record<string, string[]> = {};
    for (let w = 0; w < this.W; w++) {
      const ids = routes[w].nodes.filter(this.isNew).map((node) => jobs[nodeJob[node]].id);
      if (this.sizeMode) for (const j of this.unlocatedJobs) if (assignedTo[j] === w) ids.push(jobs[j].id);
      routeIds[workers[w].id] = [...(routeIds[workers[w].id] ?? []), ...ids];
    }
    return { assigned, unassigned, routes: routeIds };
  }

  /**
   * Workers with neither a start nor located jobs get a seed job's position as their anchor (it only
   * chooses candidate lists; their route still starts free): farthest-first traversal (T. F. Gonzalez,
   * "Clustering to minimize the maximum intercluster distance", Theoretical Computer Science 38, 1985),
   * the seed-customer rule of insertion heuristics (M. M. Solomon, Operations Research 35(2), 1987),
   * so they spread over the jobs instead of being candidates of every job.
   */
  private seedAnchors(): void {
    const { W, nJobNodes, anchor, m, points } = this;
    if (nJobNodes === 0 || W === 0) return;
    const minDist = new Float64Array(nJobNodes).fill(Infinity);
    let anchored = 0;
    for (let w = 0; w < W; w++) {
      if (anchor[w] < 0) continue;
      anchored++;
      for (let v = 0; v < nJobNodes; v++) minDist[v] = Math.min(minDist[v], m.d(v, anchor[w]));
    }
    if (anchored === 0) {
      // the first seed: the job farthest from the jobs' spherical mean
      const c = new SphereMetric([sphericalMean(points.slice(0, nJobNodes))!, ...points.slice(0, nJobNodes)]);
      let first = 0;
      for (let v = 1; v < nJobNodes; v++) if (c.d(0, v + 1) > c.d(0, first + 1)) first = v;
      anchor[0] = first; // W > 0 here: every worker is anchorless
      for (let v = 0; v < nJobNodes; v++) minDist[v] = m.d(v, first);
    }
    for (let w = 0; w < W; w++) {
      if (anchor[w] >= 0) continue;
      let far = 0;
      for (let v = 1; v < nJobNodes; v++) if (minDist[v] > minDist[far]) far = v;
      anchor[w] = far;
      for (let v = 0; v < nJobNodes; v++) minDist[v] = Math.min(minDist[v], m.d(v, far));
    }
  }
}
