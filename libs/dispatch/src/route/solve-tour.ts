import { DistanceMatrix, TourOptions, TourResult } from '../types';
import { greedyEdgeTour, nearestNeighbourTour, twoOptFull } from './construct';
import { heldKarpTour } from './held-karp';
import { neighbourLists, TourSearch } from './local-search';
import { tourLength } from './matrix';
import { randomInt } from './random';

/** Up to this many nodes `solveTour` answers the proven optimum (Held–Karp, ≤ 13 nodes with the path's extra node). */
export const EXACT_MAX_N = 12;
/** Candidates per node in the neighbour lists (Johnson & McGeoch 1997 use 8–20 quadrant neighbours for 2-opt/3-opt). */
const NEIGHBOURS = 12;
/** Kicks without a better tour after which the search stops before its budget: max(STALL_MIN, STALL_PER_NODE · n). */
const STALL_MIN = 1000;
const STALL_PER_NODE = 20;
/** Temperature of the acceptance test, as a share of the mean edge of the best tour (see iteratedLocalSearch). */
const TEMPERATURE = 0.01;
/** Kicks without a better tour after which the walk goes back to the best tour. */
const BACK_TO_BEST = 3000;

/**
 * The default time budget of {@link solveTour} for n nodes, ms: n²/100 clamped to [10, 2000] — 10 ms up
 * to 31 nodes, 36 ms at 60, 100 ms at 100, 400 ms at 200, 625 ms at 250, 2,000 ms from 448 on. The
 * search often stops earlier (no better tour after max(1,000, 20·n) kicks); docs/route-solver.md has
 * the measured gaps.
 */
export function defaultTourBudgetMs(n: number): number {
  return Math.min(2000, Math.max(10, Math.round((n * n) / 100)));
}

/**
 * The shortest closed tour or open path through all nodes of `m` that we can find in the time budget.
 *
 * - n ≤ {@link EXACT_MAX_N}: the proven optimum by Held–Karp (`exact: true`).
 * - Otherwise an iterated local search (H. R. Lourenço, O. C. Martin and T. Stützle, "Iterated Local
 *   Search", in Handbook of Metaheuristics, Kluwer, 2003; the large-step Markov chain of Martin, Otto &
 *   Felten 1991): the better of two local optima — greedy edge, and nearest neighbour + full 2-opt,
 *   each then improved by the local search — is kicked by a double bridge on nearby segments (two
 *   segments of 1–50 consecutive nodes swapped), re-optimised by 2-opt, Or-opt and Lin–Kernighan
 *   chains of depth 6 over 12-nearest neighbour lists with don't-look bits ({@link TourSearch}); the
 *   result is kept when not longer than the current tour, or longer by Δ with probability exp(−Δ/T),
 *   T = 1 % of the best tour's mean edge, else undone; after 3,000 kicks without a better tour the walk
 *   restarts from the best. It stops at `budgetMs` (default {@link defaultTourBudgetMs}) or after
 *   max(1,000, 20·n) kicks without a shorter tour.
 *   The answer is never longer than nearest neighbour + 2-opt ({@link nearestNeighbourTwoOpt}).
 * - Open paths are solved as closed tours with one extra node X: d(X, i) = 0 for a free end, and for
 *   fixed ends d(X, start) = d(X, end) = 0 and d(X, other) = M, M larger than any tour, so every
 *   tour worth keeping has X between the fixed ends; the path is the tour cut at X.
 *
 * Deterministic for a given seed as long as the stop is the stall rule, not the clock.
 * @throws RangeError for a `start`/`end` outside 0..n-1, an `end` on a closed tour, or a path whose
 *   start and end are one node (n > 1).
 */
export function solveTour(m: DistanceMatrix, opts: TourOptions): TourResult {
  const t0 = performance.now();
  const { n } = m;
  const { kind, start, end } = opts;
  for (const [name, v] of [
    ['start', start],
    ['end', end],
  ] as const) {
    if (v !== undefined && !(Number.isInteger(v) && v >= 0 && v < n)) throw new RangeError(`solveTour: ${name} ${v} is not a node of 0..${n - 1}`);
  }
  if (kind === 'closed' && end !== undefined) throw new RangeError('solveTour: `end` applies to open paths only');
  if (kind === 'path' && n > 1 && start !== undefined && start === end) throw new RangeError('solveTour: a path cannot start and end at the same node');
  if (n <= 1) return { order: n === 1 ? [0] : [], length: 0, exact: true, elapsedMs: performance.now() - t0, timeToBestMs: 0 };

  const problem = kind === 'closed' ? { d: m.d, n, dummy: -1 } : withPathNode(m, start, end);
  const from = kind === 'closed' ? (start ?? 0) : problem.dummy;
  let cycle: ArrayLike<number>;
  let exact = false;
  let timeToBestMs = 0;
  if (n <= EXACT_MAX_N) {
    cycle = heldKarpTour(problem.d, problem.n).order;
    exact = true;
  } else {
    const r = iteratedLocalSearch(problem.d, problem.n, {
      from,
      budgetMs: opts.budgetMs ?? defaultTourBudgetMs(n),
      seed: opts.seed ?? 1,
      t0,
    });
    cycle = r.tour;
    timeToBestMs = r.timeToBestMs;
  }
  const order = kind === 'closed' ? rotate(cycle, from) : cutPath(cycle, problem.dummy, start, end);
  const elapsedMs = performance.now() - t0;
  return { order, length: tourLength(m, order, kind), exact, elapsedMs, timeToBestMs: exact ? elapsedMs : timeToBestMs };
}

/** Options of {@link iteratedLocalSearch}. */
export interface IlsOptions {
  /** The node the nearest-neighbour start begins with. */
  from: number;
  /** Wall-clock budget from `t0`, ms. */
  budgetMs: number;
  seed: number;
  /** `performance.now()` at the start of the call (time to best is measured from it); default now. */
  t0?: number;
  /** Kicks without improvement before stopping; default max(1,000, 20·n). */
  stallKicks?: number;
}

/**
 * The iterated local search of {@link solveTour} on a closed tour of the row-major n×n matrix `d`
 * (n ≥ 1), without its exact shortcut: exported for tests and the benchmark. Answers the best tour
 * found and when (ms from `t0`).
 */
export function iteratedLocalSearch(d: Float64Array, n: number, o: IlsOptions): { tour: Int32Array; length: number; timeToBestMs: number; kicks: number } {
  const t0 = o.t0 ?? performance.now();
  if (n <= 3) {
    const tour = Int32Array.from({ length: n }, (_, i) => i);
    return { tour, length: tourLength({ n, d }, Array.from(tour), 'closed'), timeToBestMs: 0, kicks: 0 };
  }
  const eps = epsilonOf(d, n);
  const k = Math.min(NEIGHBOURS, n - 1);
  const nbr = neighbourLists(d, n, k);
  const search = new TourSearch(d, n, nbr, k, eps);

  // start 1: nearest neighbour + full 2-opt, then 2-opt/Or-opt (the bound the answer never exceeds)
  const nn = nearestNeighbourTour(d, n, o.from);
  twoOptFull(d, n, nn, eps);
  search.setTour(nn);
  search.pushAll();
  search.run();
  let bestLen = search.length();
  let best = Int32Array.from(search.tour);
  // start 2: greedy edge, then 2-opt/Or-opt
  search.setTour(greedyEdgeTour(d, n, nbr, k));
  search.pushAll();
  search.run();
  const greedyLen = search.length();
  if (greedyLen < bestLen - eps) {
    bestLen = greedyLen;
    best = Int32Array.from(search.tour);
  } else search.setTour(best);
  let timeToBestMs = performance.now() - t0;
  if (n < 5) return { tour: best, length: bestLen, timeToBestMs, kicks: 0 };

  const random = randomInt(o.seed);
  const stall = o.stallKicks ?? Math.max(STALL_MIN, STALL_PER_NODE * n);
  const maxSeg = Math.max(1, Math.min(50, Math.floor((n - 2) / 3)));
  const deadline = t0 + o.budgetMs;
  let current = bestLen;
  const temp = TEMPERATURE * (bestLen / n);
  let kicks = 0;
  let lastBetter = 0;
  search.commit();
  while (kicks - lastBetter < stall) {
    if ((kicks & 15) === 0 && performance.now() >= deadline) break;
    kicks++;
    let delta = search.doubleBridge(random(n), 1 + random(maxSeg), 1 + random(maxSeg));
    delta += search.run();
    const len = current + delta;
    if (len < bestLen - eps) {
      current = bestLen = search.length(); // exact again, no drift
      best.set(search.tour);
      lastBetter = kicks;
      timeToBestMs = performance.now() - t0;
      search.commit();
    } else if (len <= current + eps || random(1 << 30) < Math.exp(-(len - current) / temp) * (1 << 30)) {
      current = len;
      search.commit();
    } else search.undo();
    if (current > bestLen + eps && (kicks - lastBetter) % BACK_TO_BEST === 0) {
      search.setTour(best);
      current = bestLen;
    }
  }
  return { tour: best, length: bestLen, timeToBestMs, kicks };
}

/**
 * Nearest neighbour from `from` followed by full 2-opt ({@link twoOptFull}) on the closed tour of `m`:
 * the baseline `solveTour` never does worse than (it is one of its starts, for closed tours).
 */
export function nearestNeighbourTwoOpt(m: DistanceMatrix, from = 0): number[] {
  const order = nearestNeighbourTour(m.d, m.n, from);
  twoOptFull(m.d, m.n, order, epsilonOf(m.d, m.n));
  return Array.from(order);
}

/** The smallest gain that counts: 1e-9 of the longest edge (float ties must not cycle). */
function epsilonOf(d: Float64Array, n: number): number {
  let max = 0;
  for (let i = 0; i < n * n; i++) if (d[i] > max && Number.isFinite(d[i])) max = d[i];
  return max * 1e-9;
}

/** The (n+1)-node matrix with the extra node X = n of an open path (see {@link solveTour}). */
function withPathNode(m: DistanceMatrix, start?: number, end?: number): { d: Float64Array; n: number; dummy: number } {
  const { n, d } = m;
  const size = n + 1;
  const out = new Float64Array(size * size);
  let max = 0;
  for (let i = 0; i < n; i++) {
    out.set(d.subarray(i * n, i * n + n), i * size);
    for (let j = 0; j < n; j++) if (d[i * n + j] > max) max = d[i * n + j];
  }
  const fixed = start !== undefined || end !== undefined;
  const big = fixed ? (max + 1) * (n + 2) : 0;
  for (let i = 0; i < n; i++) {
    const v = i === start || i === end ? 0 : big;
    out[n * size + i] = v;
    out[i * size + n] = v;
  }
  return { d: out, n: size, dummy: n };
}

/** The cycle written from `from` on. */
function rotate(cycle: ArrayLike<number>, from: number): number[] {
  const n = cycle.length;
  let at = 0;
  while (cycle[at] !== from) at++;
  const order = new Array<number>(n);
  for (let i = 0; i < n; i++) order[i] = cycle[(at + i) % n];
  return order;
}

/** The path left when the extra node X is cut out of the cycle, oriented to honour `start` / `end`. */
function cutPath(cycle: ArrayLike<number>, dummy: number, start?: number, end?: number): number[] {
  const order = rotate(cycle, dummy).slice(1);
  const flip = start !== undefined ? order[0] !== start : end !== undefined && order[order.length - 1] !== end;
  return flip ? order.reverse() : order;
}
