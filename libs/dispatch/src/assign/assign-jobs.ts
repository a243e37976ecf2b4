import { GeoPoint } from '../types';
import { PairSearch } from './pair-search';
import { cheapestInsertion, detour, improvePath, nextAt, pathLength, PathRoute, prevAt } from './path-route';
import { SphereMetric } from './sphere-metric';
import { mulberry32 } from '../random';

/** A job to assign. Item counts are integers ≥ 0 (negative or missing = 0). */
export interface AssignJob {
  id: string;
  point: GeoPoint | null;
  pickup: number;
  dropoff: number;
  /** Worker ids allowed to take it (method zones, team limits); null/undefined = any. Ids not in `workers` are ignored. */
  eligible?: string[] | null;
}

/** A candidate worker (the caller has already kept only the active members who work that day). */
export interface AssignWorker {
  id: string;
  /** Where its route starts; null = free (the route may start at any of its jobs). */
  start: GeoPoint | null;
  /** Where its route must end; null/undefined = open end. */
  end?: GeoPoint | null;
  /** Items; null = unlimited. */
  pickupCapacity: number | null;
  dropoffCapacity: number | null;
  /** The worker's jobs already on that day: count toward capacity and route (never moved to another worker). */
  existing: { point: GeoPoint | null; pickup: number; dropoff: number }[];
}

export interface AssignInput {
  jobs: AssignJob[];
  workers: AssignWorker[];
  method: 'distance' | 'size' | 'zones';
  /** Seed of the improvement's scan order (default 1). */
  seed?: number;
  /** Time budget of the call, ms from its start (default {@link defaultAssignBudgetMs}(jobs)); the improvement stops there. 0 = construction only. */
  budgetMs?: number;
  /** Regret order k of the construction (2 or 3; default 3). */
  regret?: 2 | 3;
  /** Candidate workers per job in the construction: the nearest this many (default 8); all when there are fewer. */
  candidates?: number;
  /** Ruin-and-recreate rounds after the local search converges (`distance`, `zones`; default 40; 0 = none). */
  ruinRounds?: number;
  /** Workers each worker tries moves with in the improvement: those whose routes' centres are nearest (default 8). */
  neighbours?: number;
}

export interface AssignOutput {
  /** job id → worker id */
  assigned: Record<string, string>;
  /** job id → reason, a short sentence */
  unassigned: Record<string, string>;
  /** worker id → its new jobs in the order of the search's route (existing jobs left out); every worker has an entry. */
  routes: Record<string, string[]>;
  /** Sum of the workers' path lengths (existing + new jobs), m on the sphere, after the search. */
  objectiveM: number;
  /** The same after the construction alone (before any improvement). */
  constructionObjectiveM: number;
  /** ms spent in the construction (the rest of `elapsedMs` is the improvement). */
  constructionMs: number;
  /** Improving moves applied between workers (relocate + exchange). */
  moves: number;
  /** Ruin-and-recreate rounds kept (each shortened the routes). */
  ruins: number;
  /** True when the improvement stopped at a local optimum (not at the budget): then the result depends on the seed only. */
  converged: boolean;
  elapsedMs: number;
}

/** The reasons an unassigned job comes back with. */
export const ASSIGN_REASONS = {
  noCoordinates: 'job has no coordinates',
  noWorker: 'no available worker',
  noZoneWorker: "no available worker in its zones' teams",
  notEligible: 'no available worker is allowed to take it',
  pickup: 'no worker has pickup capacity left',
  dropoff: 'no worker has dropoff capacity left',
  both: 'no worker has both pickup and dropoff capacity left',
} as const;

/**
 * Default time budget of a call, ms, counted from its start: 100 + 0.175 per job, at most 1,000
 * (2,000 jobs → 450 ms). The construction always completes; the improvement stops at the budget or
 * earlier at a local optimum (on an idle core a 2,000 × 100 instance converges in ~250 ms).
 */
export function defaultAssignBudgetMs(jobs: number): number {
  return Math.min(1000, 100 + 0.175 * jobs);
}

const BIG = 1e9; // m: the missing k-th option of a job's regret


/** A usable position: present, with finite coordinates (anything else counts as "no coordinates"). */
const located = (p: GeoPoint | null | undefined): p is GeoPoint => !!p && Number.isFinite(p.lat) && Number.isFinite(p.lng);

const items = (v: number | null | undefined) => (typeof v === 'number' && v > 0 ? v : 0);

/** The spherical mean of points (normalised mean of unit vectors), or null for none. */
function sphericalMean(points: GeoPoint[]): GeoPoint | null {
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
 * Assigns jobs to workers — autoassign's three methods (CONTRACTS.md "Dispatch"). Pure and
 * deterministic for a seed when the search converges within the budget (`converged`).
 *
 * Objective (`distance`, `zones`): the sum of the workers' open paths from `start` (free when null)
 * through their existing and new jobs (to `end` when set), metres on the sphere ({@link SphereMetric}:
 * chord distances, within ~0.5 % of the WGS84 geodesic at city scale). Capacities are hard:
 * existing + new pickups ≤ `pickupCapacity`, dropoffs ≤ `dropoffCapacity`. `zones` is `distance`
 * restricted by each job's `eligible` (which every method honours).
 *
 * 1. Construction: regret-k insertion (J.-Y. Potvin & J.-M. Rousseau, "A parallel route building
 *    algorithm for the vehicle routing and scheduling problem with time windows", EJOR 66, 1993;
 *    the regret-k form of S. Ropke & D. Pisinger, Transportation Science 40(4), 2006): every unplaced
 *    job keeps its cheapest insertion (Rosenkrantz, Stearns & Lewis 1977) into each of its candidate
 *    workers — the `candidates` nearest by start (or by their existing jobs' centre; workers with
 *    neither get a seed job's position by farthest-first traversal, Gonzalez 1985) — and the job with
 *    the largest regret
 *    Σ_{i=2..k}(c_i − c_1) is inserted first (a job with fewer than k feasible workers counts the
 *    missing ones as +1e9 m: it goes before the others lose it). Insertion costs are updated
 *    incrementally: only the edge the last insertion replaced can invalidate a stored best position.
 * 2. Improvement, within `budgetMs`: 2-opt and Or-opt inside every route, then a local search between
 *    pairs of neighbouring workers (each with the `neighbours` whose route centres are nearest) with the
 *    relocate and exchange (swap) moves of M. W. P. Savelsbergh, "The vehicle routing problem with
 *    time windows: minimizing route duration", ORSA J. Computing 4(2), 1992, and P. Toth & D. Vigo
 *    (eds.), "Vehicle Routing", SIAM 2014, ch. 5: each move is scored exactly from the three cheapest
 *    insertion positions of every job of one route into the other; the best improving move of the pair
 *    is applied, both routes are re-optimised by 2-opt/Or-opt, and the pairs of those two workers are
 *    queued again, until no pair improves (a local optimum) or the budget ends.
 * 3. Ruin and recreate (`distance`, `zones`; G. Schrimpf, J. Schneider, H. Stamm-Wilbrandt &
 *    G. Dueck, "Record breaking optimization results using the ruin and recreate principle", J. Comput.
 *    Physics 159, 2000; the related removal of P. Shaw, CP 1998): `ruinRounds` times (default 40), remove
 *    the 8–24 placed jobs nearest a random one, re-insert them by the same regret insertion, run the pair
 *    search from the touched workers, and keep the result only if every job found a place and the routes
 *    got shorter (else restore). The objective never increases.
 *
 * `size`: even job counts — a worker's total (existing + new) is balanced by water-filling: each job
 * slot goes to the worker with the fewest jobs that still has room, so two workers' totals differ by
 * more than one only when the larger received no new job or the smaller is full or not eligible;
 * the same regret insertion places the jobs within those quotas (distance as the tie-breaker), a
 * rebalance then moves jobs from a worker two above one that can take them, and the search uses
 * exchanges and only those relocations that keep the multiset of counts (from a worker with c + 1 jobs
 * to one with c), undoing any move that gives room to a worker two jobs short of the busiest one.
 * Jobs without coordinates are assigned under `size` (they count,
 * without distance) to the eligible worker with the fewest jobs that has room; under `distance` and
 * `zones` they come back unassigned ("job has no coordinates").
 */
export function assignJobs(input: AssignInput): AssignOutput {
  const t0 = performance.now();
  const { jobs, workers, method } = input;
  const sizeMode = method === 'size';
  const kRegret = input.regret ?? 3;
  const budgetMs = input.budgetMs ?? defaultAssignBudgetMs(jobs.length);
  const random = mulberry32(input.seed ?? 1);
  const W = workers.length;
  const n = jobs.length;

  // ---- nodes: located jobs first (node = index into `located`), then starts, ends, existing, anchors
  const points: GeoPoint[] = [];
  const jobNode = new Int32Array(n).fill(-1);
  const nodeJob: number[] = [];
  for (let j = 0; j < n; j++) {
    const p = jobs[j].point;
    if (located(p)) {
      jobNode[j] = points.length;
      nodeJob.push(j);
      points.push(p);
    }
  }
  const nJobNodes = points.length;
  const routes: PathRoute[] = [];
  const anchor = new Int32Array(W).fill(-1);
  const pickRoom = new Float64Array(W);
  const dropRoom = new Float64Array(W);
  const count = new Int32Array(W);
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
  const m = new SphereMetric(points);
  const isNew = (node: number) => node < nJobNodes;

  const pickNeed = new Float64Array(n);
  const dropNeed = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    pickNeed[j] = items(jobs[j].pickup);
    dropNeed[j] = items(jobs[j].dropoff);
  }
  // eligibility: null = every worker
  const eligible: Array<Int32Array | null> = jobs.map((job) => {
    if (job.eligible === null || job.eligible === undefined) return null;
    const set = new Set<number>();
    for (const id of job.eligible) {
      const w = workerIndex.get(id);
      if (w !== undefined) set.add(w);
    }
    return Int32Array.from([...set].sort((a, b) => a - b));
  });
  const allowedMask = eligible.map((list) => {
    if (!list) return null;
    const mask = new Uint8Array(W);
    for (const w of list) mask[w] = 1;
    return mask;
  });
  const allowed = (j: number, w: number) => allowedMask[j]?.[w] !== 0;
  const allWorkers = Int32Array.from({ length: W }, (_, i) => i);
  const eligibleOf = (j: number) => eligible[j] ?? allWorkers;

  const assignedTo = new Int32Array(n).fill(-1);
  const baseCount = Int32Array.from(count);
  let minPickAll = Infinity;
  let minDropAll = Infinity;
  for (let j = 0; j < n; j++) {
    if (pickNeed[j] > 0) minPickAll = Math.min(minPickAll, pickNeed[j]);
    if (dropNeed[j] > 0) minDropAll = Math.min(minDropAll, dropNeed[j]);
  }
  if (minPickAll === Infinity) minPickAll = -Infinity;
  if (minDropAll === Infinity) minDropAll = -Infinity;
  const quota = new Float64Array(W).fill(Infinity);
  const fitsItems = (w: number, j: number) => pickRoom[w] >= pickNeed[j] && dropRoom[w] >= dropNeed[j];
  const fits = (w: number, j: number) => fitsItems(w, j) && count[w] < quota[w];

  const K = Math.max(1, Math.min(W, input.candidates ?? 8));
  seedAnchors();
  const anchorless: number[] = [];
  for (let w = 0; w < W; w++) if (anchor[w] < 0) anchorless.push(w);

  /**
   * Workers with neither a start nor located jobs get a seed job's position as their anchor (it only
   * chooses candidate lists; their route still starts free): farthest-first traversal (T. F. Gonzalez,
   * "Clustering to minimize the maximum intercluster distance", Theoretical Computer Science 38, 1985),
   * the seed-customer rule of insertion heuristics (M. M. Solomon, Operations Research 35(2), 1987),
   * so they spread over the jobs instead of being candidates of every job.
   */
  function seedAnchors(): void {
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

  /** The job's candidate workers: the K nearest feasible eligible ones by anchor, plus every feasible anchorless one. */
  const candidatesOf = (j: number): number[] => {
    const node = jobNode[j];
    const bestW: number[] = [];
    const bestD: number[] = [];
    const out: number[] = [];
    for (const w of eligibleOf(j)) {
      if (!fits(w, j)) continue;
      if (anchor[w] < 0) {
        out.push(w);
        continue;
      }
      const dist = m.d(node, anchor[w]);
      if (bestW.length < K || dist < bestD[bestD.length - 1]) {
        let i = bestW.length;
        if (bestW.length === K) {
          bestW.pop();
          bestD.pop();
          i = K - 1;
        }
        while (i > 0 && bestD[i - 1] > dist) i--;
        bestW.splice(i, 0, w);
        bestD.splice(i, 0, dist);
      }
    }
    return [...bestW, ...out];
  };

  // ---- construction: regret-k insertion
  const cand: number[][] = new Array<number[]>(n);
  const candCost: number[][] = new Array<number[]>(n);
  const candPrev: number[][] = new Array<number[]>(n);
  const candNext: number[][] = new Array<number[]>(n);
  const jobsOf: number[][] = Array.from({ length: W }, () => []);
  const registered = new Uint8Array(n * W); // j * W + w: j is in jobsOf[w]
  const regretOf = new Float64Array(n);
  const bestCostOf = new Float64Array(n);
  const bestSlot = new Int32Array(n); // index into cand[j] of the cheapest feasible
  const feasibleCount = new Int32Array(n);

  const setInsertion = (j: number, c: number) => {
    const r = routes[cand[j][c]];
    const { pos, cost } = cheapestInsertion(m, r, jobNode[j]);
    candCost[j][c] = cost;
    candPrev[j][c] = prevAt(r, pos);
    candNext[j][c] = nextAt(r, pos);
  };
  const buildCandidates = (j: number) => {
    const list = candidatesOf(j);
    cand[j] = list;
    candCost[j] = new Array<number>(list.length);
    candPrev[j] = new Array<number>(list.length);
    candNext[j] = new Array<number>(list.length);
    for (let c = 0; c < list.length; c++) {
      const w = list[c];
      if (!registered[j * W + w]) {
        registered[j * W + w] = 1;
        jobsOf[w].push(j);
      }
      setInsertion(j, c);
    }
  };
  const scoreJob = (j: number) => {
    let c1 = Infinity,
      c2 = Infinity,
      c3 = Infinity;
    let slot = -1;
    let feasible = 0;
    const list = cand[j];
    for (let c = 0; c < list.length; c++) {
      if (!fits(list[c], j)) continue;
      feasible++;
      const v = candCost[j][c];
      if (v < c1 || (v === c1 && list[c] < list[slot])) {
        c3 = c2;
        c2 = c1;
        c1 = v;
        slot = c;
      } else if (v < c2) {
        c3 = c2;
        c2 = v;
      } else if (v < c3) c3 = v;
    }
    feasibleCount[j] = feasible;
    bestSlot[j] = slot;
    bestCostOf[j] = c1;
    const r2 = feasible >= 2 ? c2 - c1 : BIG;
    const r3 = kRegret >= 3 ? (feasible >= 3 ? c3 - c1 : BIG) : 0;
    regretOf[j] = r2 + r3;
  };

  /** The jobs still to place: a dense list with O(1) removal (swap with the last). */
  const pending = new PendingSet(n);
  const placeJob = (j: number, w: number, prev: number) => {
    const r = routes[w];
    const pos = prev === r.start ? 0 : r.nodes.indexOf(prev) + 1;
    const next = nextAt(r, pos);
    const node = jobNode[j];
    r.nodes.splice(pos, 0, node);
    assignedTo[j] = w;
    count[w]++;
    pickRoom[w] -= pickNeed[j];
    dropRoom[w] -= dropNeed[j];
    pending.delete(j);
    // update the stored insertions into w of the jobs that have w as a candidate (dropping placed ones)
    const list = jobsOf[w];
    let kept = 0;
    for (let x = 0; x < list.length; x++) {
      const u = list[x];
      if (!pending.has(u)) {
        registered[u * W + w] = 0;
        continue;
      }
      list[kept++] = u;
      const c = cand[u].indexOf(w);
      if (c < 0) continue;
      if (candPrev[u][c] === prev && candNext[u][c] === next) setInsertion(u, c);
      else {
        const un = jobNode[u];
        const a = detour(m, prev, un, node);
        const b = detour(m, node, un, next);
        if (a < candCost[u][c]) {
          candCost[u][c] = a;
          candPrev[u][c] = prev;
          candNext[u][c] = node;
        }
        if (b < candCost[u][c]) {
          candCost[u][c] = b;
          candPrev[u][c] = node;
          candNext[u][c] = next;
        }
      }
      scoreJob(u);
    }
    list.length = kept;
  };

  /**
   * Regret insertion of every pending job. A job whose candidates are all full gets a fresh list (the
   * nearest workers that still have room); one that has none left stays unplaced (rooms only shrink).
   */
  const construct = () => {
    for (let i = 0; i < pending.size; i++) {
      const j = pending.items[i];
      buildCandidates(j);
      scoreJob(j);
    }
    while (pending.size) {
      let pick = -1;
      for (let i = pending.size - 1; i >= 0; i--) {
        const j = pending.items[i];
        if (feasibleCount[j] === 0) {
          buildCandidates(j);
          scoreJob(j);
          if (feasibleCount[j] === 0) {
            pending.delete(j);
            continue;
          }
        }
        if (
          pick < 0 ||
          regretOf[j] > regretOf[pick] ||
          (regretOf[j] === regretOf[pick] && (bestCostOf[j] < bestCostOf[pick] || (bestCostOf[j] === bestCostOf[pick] && j < pick)))
        ) {
          pick = j;
        }
      }
      if (pick < 0) break;
      const c = bestSlot[pick];
      placeJob(pick, cand[pick][c], candPrev[pick][c]);
    }
  };

  const locatedJobs: number[] = [];
  const unlocatedJobs: number[] = [];
  for (let j = 0; j < n; j++) (jobNode[j] >= 0 ? locatedJobs : unlocatedJobs).push(j);
  const workable = (j: number) => eligibleOf(j).some((w) => fitsItems(w, j));

  if (!sizeMode) {
    for (const j of locatedJobs) pending.add(j);
    construct();
  } else {
    // water-filling quotas, raised while jobs remain that some eligible worker has room for
    let remaining = locatedJobs.filter(workable);
    for (let round = 0; round < 50 && remaining.length; round++) {
      setQuotas(remaining);
      for (const j of remaining) pending.add(j);
      construct();
      pending.clear();
      const left = remaining.filter((j) => assignedTo[j] < 0 && workable(j));
      if (left.length === remaining.length) break;
      remaining = left;
    }
    quota.fill(Infinity);
    for (const j of unlocatedJobs) {
      let best = -1;
      for (const w of eligibleOf(j)) if (fitsItems(w, j) && (best < 0 || count[w] < count[best])) best = w;
      if (best < 0) continue;
      assignedTo[j] = best;
      count[best]++;
      pickRoom[best] -= pickNeed[j];
      dropRoom[best] -= dropNeed[j];
    }
    rebalance();
  }

  /**
   * `size`'s rule broken how often: workers that have room for the smallest job yet two jobs fewer
   * than the busiest worker that got new ones.
   */
  function imbalance(): number {
    let maxNew = -1;
    for (let w = 0; w < W; w++) if (count[w] > baseCount[w] && count[w] > maxNew) maxNew = count[w];
    let bad = 0;
    for (let w = 0; w < W; w++) if (count[w] <= maxNew - 2 && pickRoom[w] >= minPickAll && dropRoom[w] >= minDropAll) bad++;
    return bad;
  }

  /**
   * `size`: while a worker A has two jobs more than a worker B that may take one of A's new jobs
   * (eligible, with room), move the one whose move lengthens the routes least — the quotas are
   * estimates when item counts differ, and a job that needs capacity can leave a slot to one that
   * needs none. Ends: Σ count² falls with every move.
   */
  function rebalance(): void {
    const order = Array.from({ length: W }, (_, w) => w);
    for (;;) {
      order.sort((x, y) => count[y] - count[x] || x - y);
      let moved = false;
      for (let ia = 0; ia < W && !moved; ia++) {
        const a = order[ia];
        for (let ib = W - 1; ib > ia && !moved; ib--) {
          const b = order[ib];
          if (count[a] <= count[b] + 1) break;
          let bestJob = -1;
          let bestDelta = Infinity;
          let bestPos = -1;
          for (let j = 0; j < n; j++) {
            if (assignedTo[j] !== a || !allowed(j, b) || !fitsItems(b, j)) continue;
            let delta = 0;
            let pos = -1;
            if (jobNode[j] >= 0) {
              const ra = routes[a];
              const at = ra.nodes.indexOf(jobNode[j]);
              const ins = cheapestInsertion(m, routes[b], jobNode[j]);
              delta = ins.cost - detour(m, prevAt(ra, at), jobNode[j], nextAt(ra, at + 1));
              pos = ins.pos;
            }
            if (delta < bestDelta) {
              bestDelta = delta;
              bestJob = j;
              bestPos = pos;
            }
          }
          if (bestJob < 0) continue;
          if (jobNode[bestJob] >= 0) {
            const ra = routes[a];
            ra.nodes.splice(ra.nodes.indexOf(jobNode[bestJob]), 1);
            routes[b].nodes.splice(bestPos, 0, jobNode[bestJob]);
          }
          assignedTo[bestJob] = b;
          count[a]--;
          count[b]++;
          pickRoom[a] += pickNeed[bestJob];
          dropRoom[a] += dropNeed[bestJob];
          pickRoom[b] -= pickNeed[bestJob];
          dropRoom[b] -= dropNeed[bestJob];
          moved = true;
        }
      }
      if (!moved) return;
    }
  }

  /** quota[w] = the worker's total after water-filling `jobList.length` slots over the workers with room. */
  function setQuotas(jobList: number[]): void {
    const minPos = (need: Float64Array) => {
      let v = Infinity;
      for (const j of jobList) if (need[j] > 0 && need[j] < v) v = need[j];
      return v;
    };
    const minPick = minPos(pickNeed);
    const minDrop = minPos(dropNeed);
    let free = 0; // jobs that need no capacity at all: any worker can take them all
    for (const j of jobList) if (pickNeed[j] === 0 && dropNeed[j] === 0) free++;
    const useful = new Uint8Array(W);
    for (const j of jobList) for (const w of eligibleOf(j)) if (fitsItems(w, j)) useful[w] = 1;
    const cap = new Float64Array(W);
    for (let w = 0; w < W; w++) {
      const byPick = minPick === Infinity ? Infinity : Math.floor(pickRoom[w] / minPick);
      const byDrop = minDrop === Infinity ? Infinity : Math.floor(dropRoom[w] / minDrop);
      cap[w] = useful[w] ? free + Math.max(0, Math.min(byPick, byDrop)) : 0;
      quota[w] = count[w];
    }
    for (let s = 0; s < jobList.length; s++) {
      let best = -1;
      for (let w = 0; w < W; w++) if (quota[w] - count[w] < cap[w] && (best < 0 || quota[w] < quota[best])) best = w;
      if (best < 0) break;
      quota[best]++;
    }
  }

  const totalLength = () => routes.reduce((s, r) => s + pathLength(m, r), 0);
  const constructionObjectiveM = totalLength();
  const constructionMs = performance.now() - t0;

  // ---- improvement
  let moves = 0;
  let ruins = 0;
  let converged = true;
  if (budgetMs > 0) {
    const deadline = t0 + budgetMs;
    for (const r of routes) improvePath(m, r);
    // neighbouring worker pairs: each worker with the `neighbours` workers whose routes' centres are nearest
    const centres = routes.map((r) => {
      const pts: GeoPoint[] = [];
      if (r.start >= 0) pts.push(points[r.start]);
      for (const v of r.nodes) pts.push(points[v]);
      return sphericalMean(pts);
    });
    const cm = new SphereMetric(centres.map((c) => c ?? { lat: 0, lng: 0 }));
    const P = Math.min(W - 1, input.neighbours ?? 8);
    const nb: Array<Set<number>> = Array.from({ length: W }, () => new Set<number>());
    const near = new Int32Array(Math.max(P, 0));
    const nearD = new Float64Array(Math.max(P, 0));
    for (let a = 0; a < W; a++) {
      if (!centres[a] || P <= 0) continue;
      // the P nearest other centres (insertion into a short sorted list; ties by index)
      let len = 0;
      for (let b = 0; b < W; b++) {
        if (b === a || !centres[b]) continue;
        const dist = cm.d(a, b);
        if (len === P && dist >= nearD[P - 1]) continue;
        let i = len < P ? len++ : P - 1;
        while (i > 0 && nearD[i - 1] > dist) {
          nearD[i] = nearD[i - 1];
          near[i] = near[i - 1];
          i--;
        }
        nearD[i] = dist;
        near[i] = b;
      }
      for (let i = 0; i < len; i++) {
        nb[a].add(near[i]);
        nb[near[i]].add(a);
      }
    }
    const pairKey = (a: number, b: number) => (a < b ? a * W + b : b * W + a);
    const search = new PairSearch(m, isNew, nodeJob, pickNeed, dropNeed, allowed);
    const queued = new Set<number>();

    /** Pair local search from `keys` until no queued pair improves (true) or the deadline (false). */
    const descend = (keys: number[]): boolean => {
      const queue: number[] = [];
      for (const key of keys) {
        if (queued.has(key)) continue;
        queued.add(key);
        queue.push(key);
      }
      let head = 0;
      while (head < queue.length) {
        if (performance.now() > deadline) {
          queued.clear();
          return false;
        }
        const key = queue[head++];
        queued.delete(key);
        const a = Math.floor(key / W);
        const b = key % W;
        const move = search.best(routes[a], routes[b], a, b, pickRoom, dropRoom, count, sizeMode);
        if (!move) continue;
        if (sizeMode) {
          // an exchange or relocation keeps the counts but can give room to a worker two jobs short: undo it then
          const before = imbalance();
          const saved: [number[], number[], number, number, number, number, number, number] = [
            [...routes[a].nodes],
            [...routes[b].nodes],
            pickRoom[a],
            pickRoom[b],
            dropRoom[a],
            dropRoom[b],
            count[a],
            count[b],
          ];
          search.apply(move, routes[a], routes[b], a, b, pickRoom, dropRoom, count, assignedTo);
          if (imbalance() > before) {
            [routes[a].nodes, routes[b].nodes, pickRoom[a], pickRoom[b], dropRoom[a], dropRoom[b], count[a], count[b]] = saved;
            for (const v of routes[a].nodes) if (isNew(v)) assignedTo[nodeJob[v]] = a;
            for (const v of routes[b].nodes) if (isNew(v)) assignedTo[nodeJob[v]] = b;
            continue;
          }
        } else search.apply(move, routes[a], routes[b], a, b, pickRoom, dropRoom, count, assignedTo);
        moves++;
        improvePath(m, routes[a]);
        improvePath(m, routes[b]);
        for (const w of [a, b]) {
          for (const o of nb[w]) {
            const k2 = pairKey(w, o);
            if (!queued.has(k2)) {
              queued.add(k2);
              queue.push(k2);
            }
          }
        }
        if (head > 4096 && head * 2 > queue.length) {
          queue.splice(0, head);
          head = 0;
        }
      }
      return true;
    };

    const initial: number[] = [];
    for (let a = 0; a < W; a++) for (const b of nb[a]) if (a < b) initial.push(pairKey(a, b));
    for (let i = initial.length - 1; i > 0; i--) {
      const k = Math.floor(random() * (i + 1));
      const t = initial[i];
      initial[i] = initial[k];
      initial[k] = t;
    }
    converged = descend(initial);

    // ruin and recreate (distance, zones): remove a neighbourhood of jobs, re-insert it by regret, descend; keep if shorter
    if (converged && !sizeMode && locatedJobs.length > 1) {
      const rounds = input.ruinRounds ?? 40;
      let best = totalLength();
      const placed: number[] = [];
      const dist = new Float64Array(n);
      for (let round = 0; round < rounds; round++) {
        if (performance.now() > deadline) {
          converged = false;
          break;
        }
        placed.length = 0;
        for (const j of locatedJobs) if (assignedTo[j] >= 0) placed.push(j);
        if (placed.length < 2) break;
        const q = Math.min(placed.length, 8 + Math.floor(random() * 17)); // 8..24 jobs
        const seedJob = placed[Math.floor(random() * placed.length)];
        for (const j of placed) dist[j] = m.d(jobNode[seedJob], jobNode[j]);
        placed.sort((x, y) => dist[x] - dist[y] || x - y);
        const removed = placed.slice(0, q);
        const saved = { nodes: routes.map((r) => [...r.nodes]), pickRoom: Float64Array.from(pickRoom), dropRoom: Float64Array.from(dropRoom), count: Int32Array.from(count), assignedTo: Int32Array.from(assignedTo), moves };
        const touched = new Set<number>();
        for (const j of removed) {
          const w = assignedTo[j];
          touched.add(w);
          const r = routes[w];
          r.nodes.splice(r.nodes.indexOf(jobNode[j]), 1);
          assignedTo[j] = -1;
          count[w]--;
          pickRoom[w] += pickNeed[j];
          dropRoom[w] += dropNeed[j];
        }
        for (const j of removed) pending.add(j);
        construct();
        pending.clear();
        let complete = true;
        for (const j of removed) {
          if (assignedTo[j] < 0) complete = false;
          else touched.add(assignedTo[j]);
        }
        if (complete) {
          for (const w of touched) improvePath(m, routes[w]);
          const keys: number[] = [];
          for (const w of touched) for (const o of nb[w]) keys.push(pairKey(w, o));
          if (!descend(keys)) converged = false;
        }
        const now = totalLength();
        if (complete && now < best - 1e-6) {
          best = now;
          ruins++;
        } else {
          for (let w = 0; w < W; w++) routes[w].nodes = saved.nodes[w];
          pickRoom.set(saved.pickRoom);
          dropRoom.set(saved.dropRoom);
          count.set(saved.count);
          assignedTo.set(saved.assignedTo);
          moves = saved.moves;
        }
        if (!converged) break;
      }
    }
  }

  // ---- answer
  const assigned: Record<string, string> = {};
  const unassigned: Record<string, string> = {};
  for (let j = 0; j < n; j++) {
    const id = jobs[j].id;
    if (assignedTo[j] >= 0) assigned[id] = workers[assignedTo[j]].id;
    else unassigned[id] = reasonFor(j);
  }
  const routeIds: Record<string, string[]> = {};
  for (let w = 0; w < W; w++) {
    const ids = routes[w].nodes.filter(isNew).map((node) => jobs[nodeJob[node]].id);
    if (sizeMode) for (const j of unlocatedJobs) if (assignedTo[j] === w) ids.push(jobs[j].id);
    routeIds[workers[w].id] = [...(routeIds[workers[w].id] ?? []), ...ids];
  }
  return {
    assigned,
    unassigned,
    routes: routeIds,
    objectiveM: totalLength(),
    constructionObjectiveM,
    constructionMs,
    moves,
    ruins,
    converged,
    elapsedMs: performance.now() - t0,
  };

  function reasonFor(j: number): string {
    if (jobNode[j] < 0 && !sizeMode) return ASSIGN_REASONS.noCoordinates;
    if (W === 0) return ASSIGN_REASONS.noWorker;
    const list = eligibleOf(j);
    if (list.length === 0) return method === 'zones' ? ASSIGN_REASONS.noZoneWorker : ASSIGN_REASONS.notEligible;
    let pick = false;
    let drop = false;
    for (const w of list) {
      if (pickRoom[w] >= pickNeed[j]) pick = true;
      if (dropRoom[w] >= dropNeed[j]) drop = true;
    }
    if (!pick) return ASSIGN_REASONS.pickup;
    if (!drop) return ASSIGN_REASONS.dropoff;
    return ASSIGN_REASONS.both;
  }
}

/** A set of job indices 0..n-1 with O(1) add, delete and membership, iterable as `items[0..size)`. */
class PendingSet {
  readonly items: Int32Array;
  private readonly at: Int32Array;
  size = 0;

  constructor(n: number) {
    this.items = new Int32Array(n);
    this.at = new Int32Array(n).fill(-1);
  }

  has(j: number): boolean {
    return this.at[j] >= 0;
  }

  add(j: number): void {
    if (this.at[j] >= 0) return;
    this.at[j] = this.size;
    this.items[this.size++] = j;
  }

  delete(j: number): void {
    const i = this.at[j];
    if (i < 0) return;
    const last = this.items[--this.size];
    this.items[i] = last;
    this.at[last] = i;
    this.at[j] = -1;
  }

  clear(): void {
    for (let i = 0; i < this.size; i++) this.at[this.items[i]] = -1;
    this.size = 0;
  }
}
