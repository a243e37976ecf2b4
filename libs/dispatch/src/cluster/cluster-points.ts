import { distanceM } from '@app/core/pure';
import type { GeoPoint } from '../types';
import { balancedCapacity, balancedKMeans, randomSwap } from './balance';
import { seedKMeansPlusPlus, sphericalKMeans } from './kmeans';
import { mulberry32, restartSeed } from '../random';
import { toGeoPoint, toUnitVectors } from './sphere';

/** What {@link clusterPoints} is asked. */
export interface ClusterOptions {
  /** Number of clusters, an integer in 1..n. */
  k: number;
  /**
   * `distance`: spherical k-means, the partition with the smallest spread. `size`: the same, then
   * rebalanced so that no cluster holds more than {@link balancedCapacity}(n, k) = ⌈1.1 · n / k⌉ points.
   */
  method: 'distance' | 'size';
  /** Seed of the k-means++ draws; the same seed (and no `budgetMs` cut) gives the same answer. Default 1. */
  seed?: number;
  /** k-means++ restarts, the best kept; default {@link DEFAULT_RESTARTS}. */
  restarts?: number;
  /**
   * Time budget, ms: no new restart starts after it (the first always runs, and `size`'s rebalancing
   * of the best one after it). Unset = no budget, all `restarts` run. A budget that cuts restarts makes
   * the answer depend on the machine's speed.
   */
  budgetMs?: number;
}

/** The answer of {@link clusterPoints}. */
export interface ClusterResult {
  /** Cluster index 0..k-1 of each point, in input order; every index is used. */
  assignment: number[];
  /** Each cluster's centre: the spherical mean of its points, degrees. */
  centers: GeoPoint[];
  /** Σ over points of the squared WGS84 geodesic distance to its cluster's centre, m². */
  sse: number;
}

/**
 * Restarts when the caller names none. Measured on 2,000 jobs around Croatia's cities, k = 20
 * (`BENCH_ONLY=distribute npm run bench`): a restart costs ~5–7 ms, and 10 greedy k-means++ restarts
 * with first-variation refinement beat the best of 10 plain k-means++ runs (docs/clustering.md).
 */
export const DEFAULT_RESTARTS = 10;

/** `size`: random swaps tried on the best balanced solution (fewer when `budgetMs` runs out). */
export const SIZE_SWAPS = 30;
/** `size` also balances from this many fresh k-means++ seeds besides the best unbalanced solutions. */
const SIZE_FRESH_STARTS = 3;

/** Candidates (the best by the spherical cost) re-scored on the ellipsoid before the best is kept. */
const RESCORED = 3;

/**
 * Partitions positions into k clusters for `distributejobs` (CONTRACTS.md "Dispatch").
 *
 * - `distance`: spherical k-means (I. S. Dhillon & D. S. Modha, "Concept decompositions for large sparse
 *   text data using clustering", Machine Learning 42, 2001): points as 3-D unit vectors, assigned by the
 *   largest dot product (= the smallest great-circle distance), centres the spherical means; seeded by
 *   greedy k-means++ (D. Arthur & S. Vassilvitskii, SODA 2007) and refined by first-variation moves
 *   (Dhillon, Guan & Kogan, ICDM 2002); `restarts` seeds, the best kept.
 * - `size`: from the best few `distance` solutions and a few fresh seeds, alternates an exact capacitated assignment
 *   (min-cost transportation by successive shortest paths, balance.ts) with centre updates, so no
 *   cluster exceeds ⌈1.1 · n / k⌉; then up to {@link SIZE_SWAPS} random swaps (Fränti 2018, balance.ts
 *   `randomSwap`) move one centre at a time out of the alternation's local optimum.
 *
 * Restarts are ranked by their spherical cost Σ |u − c|² (squared chords on the unit sphere, which for
 * a region ≤ 1,000 km across is the squared great-circle distance within 0.1 %); the best
 * {@link RESCORED} are then scored by `sse` on the WGS84 ellipsoid (Karney's geodesics, ~5 µs a
 * point) and the smallest kept.
 *
 * Always answers exactly k non-empty clusters (empty ones are re-seeded) covering every point once.
 * Deterministic for a seed unless `budgetMs` cuts the restarts short.
 *
 * @param points n ≥ k positions, degrees (lat in [-90, 90], lng in [-180, 180]).
 * @throws RangeError for k outside 1..n or a position out of range.
 */
export function clusterPoints(points: readonly GeoPoint[], opts: ClusterOptions): ClusterResult {
  const n = points.length;
  const { k, method } = opts;
  if (!Number.isInteger(k) || k < 1 || k > n) throw new RangeError(`k must be an integer in 1..${n} (the number of points), got ${k}`);
  if (method !== 'distance' && method !== 'size') throw new RangeError(`method must be 'distance' or 'size', got ${String(method)}`);
  points.forEach((p, i) => {
    if (!(Math.abs(p.lat) <= 90 && Math.abs(p.lng) <= 180)) throw new RangeError(`point ${i} is not a position: ${p.lat}, ${p.lng}`);
  });
  const restarts = Math.max(1, Math.floor(opts.restarts ?? DEFAULT_RESTARTS));
  const seed = opts.seed ?? 1;
  const started = performance.now();
  const v = toUnitVectors(points);

  // the best few restarts by spherical cost, cheapest first
  let kept: Candidate[] = [];
  for (let r = 0; r < restarts; r++) {
    if (r > 0 && opts.budgetMs !== undefined && performance.now() - started >= opts.budgetMs) break;
    const centres = seedKMeansPlusPlus(v, n, k, mulberry32(restartSeed(seed, r)));
    const { assignment, cost } = sphericalKMeans(v, n, k, centres);
    kept = keepBest(kept, { assignment, centres, cost }, RESCORED);
  }
  if (method === 'size') {
    const capacity = balancedCapacity(n, k);
    // balancing gets stuck in local optima that depend on the start: start from the best unbalanced
    // solutions and from a few fresh k-means++ seeds
    const starts = [
      ...kept.map((c) => c.centres.slice()),
      ...Array.from({ length: SIZE_FRESH_STARTS }, (_, i) => seedKMeansPlusPlus(v, n, k, mulberry32(restartSeed(seed, restarts + i)))),
    ];
    let balanced: Candidate[] = [];
    for (const [i, centres] of starts.entries()) {
      if (i > 0 && opts.budgetMs !== undefined && performance.now() - started >= opts.budgetMs) break;
      const { assignment, cost } = balancedKMeans(v, n, k, centres, capacity);
      balanced = keepBest(balanced, { assignment, centres, cost }, RESCORED);
    }
    // the alternation stops in its start's local optimum: random swaps from the best one
    const top = balanced[0];
    const swapCentres = top.centres.slice();
    const swapped = randomSwap(v, n, k, swapCentres, capacity, top, mulberry32(restartSeed(seed, restarts + SIZE_FRESH_STARTS)), {
      trials: SIZE_SWAPS,
      deadline: opts.budgetMs !== undefined ? started + opts.budgetMs : undefined,
    });
    kept = swapped === top ? balanced : keepBest(balanced, { ...swapped, centres: swapCentres }, RESCORED);
  }

  let best: ClusterResult | undefined;
  for (const c of kept) {
    const assignment = Array.from(c.assignment);
    const centers = clusterCenters(points, assignment, k);
    const sse = clusterSse(points, assignment, centers);
    if (!best || sse < best.sse) best = { assignment, centers, sse };
  }
  return best!;
}

interface Candidate {
  assignment: Int32Array;
  centres: Float64Array;
  cost: number;
}

/** `list` plus `c`, cheapest first, at most `size` long; a candidate with an identical assignment is not kept twice. */
function keepBest(list: Candidate[], c: Candidate, size: number): Candidate[] {
  if (list.some((o) => o.cost === c.cost && o.assignment.every((a, i) => a === c.assignment[i]))) return list;
  return [...list, c].sort((a, b) => a.cost - b.cost).slice(0, size);
}

/**
 * Each cluster's spherical mean (the normalised sum of its points' unit vectors, summed in input order
 * — the same numbers as `sphericalMean` of the cluster's points). An empty cluster's centre is NaN.
 */
export function clusterCenters(points: readonly GeoPoint[], assignment: readonly number[], k: number): GeoPoint[] {
  const v = toUnitVectors(points);
  const sums = new Float64Array(3 * k);
  const first: (GeoPoint | undefined)[] = new Array<GeoPoint | undefined>(k);
  for (let p = 0; p < points.length; p++) {
    const a = assignment[p];
    first[a] ??= points[p];
    sums[3 * a] += v[3 * p];
    sums[3 * a + 1] += v[3 * p + 1];
    sums[3 * a + 2] += v[3 * p + 2];
  }
  return Array.from({ length: k }, (_, j) =>
    first[j] ? toGeoPoint(sums[3 * j], sums[3 * j + 1], sums[3 * j + 2], first[j]) : { lat: NaN, lng: NaN },
  );
}

/**
 * The within-cluster sum of squared distances, m²: Σ over points of the squared geodesic distance on
 * the WGS84 ellipsoid (`distanceM`, Karney 2013) to its cluster's centre. The one score used for our
 * clusters and the benchmark's baseline alike.
 */
export function clusterSse(points: readonly GeoPoint[], assignment: readonly number[], centers: readonly GeoPoint[]): number {
  let sse = 0;
  for (let p = 0; p < points.length; p++) sse += distanceM(points[p], centers[assignment[p]]) ** 2;
  return sse;
}
