import { chord2, clusterSums, normaliseInto, partitionCost, reseedEmpty } from './kmeans';

/**
 * The most points a cluster may hold for `method: 'size'` (CONTRACTS.md "Dispatch"): ⌈1.1 · n / k⌉,
 * computed in integers (⌈11n / 10k⌉) so that e.g. n = 100, k = 10 gives 11, not 12 as 1.1 · 100 / 10 =
 * 11.000000000000002 would.
 */
export function balancedCapacity(n: number, k: number): number {
  return Math.floor((11 * n + 10 * k - 1) / (10 * k));
}

/**
 * A binary min-heap of "move point p out of cluster a into b" candidates keyed by the move's cost
 * change, with lazy deletion: an entry is live while its point's stamp is the one it was pushed with.
 */
class MoveHeap {
  readonly keys: number[] = [];
  readonly points: number[] = [];
  readonly stamps: number[] = [];

  push(key: number, point: number, stamp: number): void {
    let i = this.keys.length;
    this.keys.push(key);
    this.points.push(point);
    this.stamps.push(stamp);
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (this.keys[up] <= key) break;
      this.set(i, this.keys[up], this.points[up], this.stamps[up]);
      i = up;
    }
    this.set(i, key, point, stamp);
  }

  pop(): void {
    const last = this.keys.length - 1;
    const key = this.keys[last];
    const point = this.points[last];
    const stamp = this.stamps[last];
    this.keys.pop();
    this.points.pop();
    this.stamps.pop();
    if (last === 0) return;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= last) break;
      if (child + 1 < last && this.keys[child + 1] < this.keys[child]) child++;
      if (this.keys[child] >= key) break;
      this.set(i, this.keys[child], this.points[child], this.stamps[child]);
      i = child;
    }
    this.set(i, key, point, stamp);
  }

  private set(i: number, key: number, point: number, stamp: number): void {
    this.keys[i] = key;
    this.points[i] = point;
    this.stamps[i] = stamp;
  }
}

/**
 * The minimum-cost assignment of n points to k centres with at most `capacity` points per centre,
 * cost = squared chord to the centre — the transportation problem, solved exactly by successive
 * shortest paths with Dijkstra on reduced costs (R. K. Ahuja, T. L. Magnanti & J. B. Orlin, "Network
 * Flows", Prentice Hall 1993, §9.7 and §9.10), specialised to few sinks:
 *
 * - Points are added one at a time; after each the partial assignment is optimal for the points so far.
 * - The search runs over the k centres and the super-sink S only: the edge a → b is the cheapest move
 *   of a point now in a to b, min over p in a of C[p][b] − C[p][a], read from a lazy min-heap per ordered
 *   pair of centres; a → S exists while a has room, S → a while a holds a point.
 * - Node potentials π keep every residual edge's reduced cost c + π(u) − π(v) ≥ 0, so Dijkstra (dense,
 *   k + 1 nodes, stopped when S is settled) finds the cheapest augmenting path; then π(v) += min(D(v),
 *   D(S)). An uncontested point costs O(k); one that displaces others O(k²) plus k − 1 heap pushes per move.
 *
 * May leave a centre empty (when it is nobody's good choice); the caller re-seeds it.
 *
 * @param capacity ≥ ⌈n / k⌉.
 * @returns the assignment and its cost Σ |u − c|² (unit sphere).
 */
export function capacitatedAssign(
  v: Float64Array,
  n: number,
  k: number,
  centres: Float64Array,
  capacity: number,
): { assignment: Int32Array; cost: number } {
  if (capacity * k < n) throw new RangeError(`capacity ${capacity} × ${k} clusters cannot hold ${n} points`);
  const cost = new Float64Array(n * k);
  for (let p = 0; p < n; p++) for (let j = 0; j < k; j++) cost[p * k + j] = chord2(v, p, centres, j);
  const assignment = new Int32Array(n).fill(-1);
  const stamp = new Int32Array(n);
  const load = new Int32Array(k);
  const heaps: MoveHeap[] = Array.from({ length: k * k }, () => new MoveHeap());

  const place = (p: number, a: number) => {
    assignment[p] = a;
    const s = ++stamp[p];
    const base = p * k;
    const here = cost[base + a];
    for (let b = 0; b < k; b++) if (b !== a) heaps[a * k + b].push(cost[base + b] - here, p, s);
  };
  /** The heap of moves a → b with its top live (stale entries dropped), or undefined when it has none. */
  const liveMoves = (a: number, b: number): MoveHeap | undefined => {
    const h = heaps[a * k + b];
    while (h.keys.length > 0 && stamp[h.points[0]] !== h.stamps[0]) h.pop();
    return h.keys.length > 0 ? h : undefined;
  };

  const S = k; // the super-sink's index in the node arrays
  const pi = new Float64Array(k + 1);
  const dist = new Float64Array(k + 1);
  const done = new Uint8Array(k + 1);
  const pred = new Int32Array(k + 1);
  const predPoint = new Int32Array(k + 1);

  // insertion order changes only the work, not the optimum: points with the most to lose (largest
  // regret, second-nearest minus nearest) first, so fewer are displaced later
  const regret = new Float64Array(n);
  for (let p = 0; p < n; p++) {
    let first = Infinity;
    let second = Infinity;
    for (let j = 0; j < k; j++) {
      const c = cost[p * k + j];
      if (c < first) [first, second] = [c, first];
      else if (c < second) second = c;
    }
    regret[p] = k > 1 ? second - first : 0;
  }
  const order = Array.from({ length: n }, (_, p) => p).sort((a, b) => regret[b] - regret[a] || a - b);

  for (const p of order) {
    const base = p * k;
    // the new point's edges p → j, reduced with π(p) chosen so that the cheapest is 0
    let minReduced = Infinity;
    for (let j = 0; j < k; j++) minReduced = Math.min(minReduced, cost[base + j] - pi[j]);
    for (let j = 0; j < k; j++) {
      dist[j] = cost[base + j] - pi[j] - minReduced;
      pred[j] = -1;
      done[j] = 0;
    }
    dist[S] = Infinity;
    done[S] = 0;
    pred[S] = -1;
    // dense Dijkstra until S is settled (never relaxing out of S: no simple path goes S → … → S)
    for (;;) {
      let a = -1;
      for (let j = 0; j <= k; j++) if (!done[j] && (a < 0 || dist[j] < dist[a])) a = j;
      done[a] = 1;
      if (a === S) break;
      const da = dist[a];
      if (load[a] < capacity) {
        const d = da + Math.max(0, pi[a] - pi[S]);
        if (d < dist[S]) {
          dist[S] = d;
          pred[S] = a;
        }
      }
      if (load[a] === 0) continue;
      for (let b = 0; b < k; b++) {
        if (done[b] || b === a) continue;
        const h = liveMoves(a, b);
        if (!h) continue;
        const d = da + Math.max(0, h.keys[0] + pi[a] - pi[b]); // ≥ 0 but for rounding
        if (d < dist[b]) {
          dist[b] = d;
          pred[b] = a;
          predPoint[b] = h.points[0];
        }
      }
    }
    const dS = dist[S];
    for (let j = 0; j <= k; j++) pi[j] += Math.min(dist[j], dS);
    // the path's moves, from the centre that gains a point back to the one p enters
    const sink = pred[S];
    load[sink]++;
    let b = sink;
    while (pred[b] >= 0) {
      const a = pred[b];
      place(predPoint[b], b);
      b = a;
    }
    place(p, b);
  }

  let total = 0;
  for (let p = 0; p < n; p++) total += cost[p * k + assignment[p]];
  return { assignment, cost: total };
}

/**
 * Size-balanced spherical k-means: alternates the exact capacitated assignment above with centre :=
 * spherical mean of each cluster (M. I. Malinen & P. Fränti, "Balanced K-Means for Clustering", S+SSPR
 * 2014, with a transportation problem in place of their full assignment problem, as in P. S. Bradley,
 * K. P. Bennett & A. Demiriz, "Constrained K-Means Clustering", Microsoft Research MSR-TR-2000-65).
 * Each half-step can only lower the cost, so it stops when the assignment no longer improves (or after
 * `maxIterations`). Empty clusters are re-seeded with the point farthest from its centre.
 *
 * @param centres packed start centres (length 3k; e.g. the best unbalanced solution's), overwritten.
 * @returns k non-empty clusters of at most `capacity` points, centres = their spherical means.
 */
export function balancedKMeans(
  v: Float64Array,
  n: number,
  k: number,
  centres: Float64Array,
  capacity: number,
  maxIterations = 15,
): { assignment: Int32Array; cost: number } {
  let best: { assignment: Int32Array; cost: number; centres: Float64Array } | undefined;
  for (let it = 0; it < maxIterations; it++) {
    const { assignment } = capacitatedAssign(v, n, k, centres, capacity);
    const { sums, counts } = clusterSums(v, n, k, assignment);
    for (let j = 0; j < k; j++) if (counts[j] > 0) normaliseInto(sums, j, centres, v, assignment, n);
    reseedEmpty(v, n, k, centres, assignment, sums, counts); // a re-seeded cluster holds 1 ≤ capacity
    const cost = partitionCost(v, n, centres, assignment);
    const improved = !best || cost < best.cost * (1 - 1e-9);
    if (!best || cost < best.cost) best = { assignment, cost, centres: centres.slice() };
    // stop when a round gains nothing (ties can keep swapping equal-cost points for ever)
    if (!improved) break;
  }
  centres.set(best!.centres);
  return { assignment: best!.assignment, cost: best!.cost };
}

/** What {@link randomSwap} may spend: at most `trials` swaps, none started after `deadline` (a `performance.now()` ms). */
export interface SwapLimits {
  trials: number;
  deadline?: number;
}

/**
 * Random swap for the capacitated problem (P. Fränti, "Efficiency of random swap clustering", Journal
 * of Big Data 5:13, 2018): repeatedly move one centre, chosen uniformly, onto a point drawn with
 * probability ∝ its squared distance to its own centre (the k-means++ draw, so the moved centre lands
 * where the spread is), re-balance from there with a few {@link balancedKMeans} rounds, and keep the
 * result only when its cost is lower. The alternation alone stops in the local optimum of its start
 * (on uneven data several times the best spread); a swap escapes it by re-placing a whole cluster.
 *
 * @param centres packed centres of the solution `start` (length 3k), overwritten with the best found.
 * @param start that solution (every cluster non-empty, none above `capacity`).
 * @param random a seeded generator in [0, 1) (deterministic for a seed when `deadline` does not cut it).
 * @returns the best solution found: never costlier than `start`, same capacity.
 */
export function randomSwap(
  v: Float64Array,
  n: number,
  k: number,
  centres: Float64Array,
  capacity: number,
  start: { assignment: Int32Array; cost: number },
  random: () => number,
  limits: SwapLimits,
): { assignment: Int32Array; cost: number } {
  let best = start;
  const weight = new Float64Array(n);
  for (let trial = 0; trial < limits.trials && k > 1; trial++) {
    if (limits.deadline !== undefined && performance.now() >= limits.deadline) break;
    let total = 0;
    for (let p = 0; p < n; p++) total += weight[p] = chord2(v, p, centres, best.assignment[p]);
    let r = random() * total;
    let p = 0;
    while (p < n - 1 && (r -= weight[p]) > 0) p++;
    const j = Math.min(k - 1, Math.floor(random() * k));
    const trialCentres = centres.slice();
    trialCentres[3 * j] = v[3 * p];
    trialCentres[3 * j + 1] = v[3 * p + 1];
    trialCentres[3 * j + 2] = v[3 * p + 2];
    const candidate = balancedKMeans(v, n, k, trialCentres, capacity, SWAP_ROUNDS);
    if (candidate.cost < best.cost) {
      best = candidate;
      centres.set(trialCentres);
    }
  }
  return best;
}

/** Rounds of {@link balancedKMeans} after a swap: most of a swap's gain shows within a few. */
const SWAP_ROUNDS = 4;
