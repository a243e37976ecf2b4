/**
 * The shapes shared by the dispatch algorithms (pure: no Nest, no database, structured-clone data
 * only, so they run in the worker's CPU pool). Coordinates are WGS84 degrees; distances metres on the
 * ellipsoid unless a function says otherwise; times ms.
 */

/** A point on the WGS84 ellipsoid, degrees. */
export interface GeoPoint {
  lat: number;
  lng: number;
}

/**
 * A symmetric n×n distance matrix, row-major: the distance from i to j is `d[i * n + j]` (metres for
 * geodesic matrices; TSPLIB's integer units in the benchmark).
 */
export interface DistanceMatrix {
  n: number;
  d: Float64Array;
}

/**
 * What the route solver is asked (`solveTour`).
 * - `closed`: a tour through all n nodes returning to its first; `start` (when set) is written first.
 * - `path`: an open path through all n nodes; `start` / `end` fix its first / last node when set, else
 *   the solver picks them.
 */
export interface TourOptions {
  kind: 'closed' | 'path';
  start?: number;
  end?: number;
  /** Time budget, ms; default {@link defaultTourBudgetMs}(n). The search stops earlier when iterated kicks stop improving. */
  budgetMs?: number;
  /** Seed of the search's pseudo-random kicks (same seed, same budget-independent result). */
  seed?: number;
}

/** The solver's answer. */
export interface TourResult {
  /** A permutation of 0..n-1 (for `closed`, starting at `start` when set). */
  order: number[];
  /** Length of the tour or path in the matrix's units (closed tours include the closing edge). */
  length: number;
  /** True when the order is a proven optimum (exact method for small n). */
  exact: boolean;
  /** ms spent. */
  elapsedMs: number;
  /** ms from start until the final tour was first found. */
  timeToBestMs: number;
}
