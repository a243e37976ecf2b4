import { mulberry32 } from '../random';
import { AssignSearch } from './assign-search';
import { AssignInput, AssignOutput, defaultAssignBudgetMs } from './assign-types';
import { PairDescent } from './pair-descent';
import { improvePath } from './path-route';
import { RegretInsertion } from './regret-insertion';
import { ruinAndRecreate } from './ruin-recreate';
import { constructEvenly } from './size-balance';

export * from './assign-types';

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
  const budgetMs = input.budgetMs ?? defaultAssignBudgetMs(input.jobs.length);
  const random = mulberry32(input.seed ?? 1);
  const s = new AssignSearch(input);
  const insertion = new RegretInsertion(s, input);

  // ---- construction
  if (!s.sizeMode) insertion.insert(s.locatedJobs);
  else constructEvenly(s, insertion);
  const constructionObjectiveM = s.totalLength();
  const constructionMs = performance.now() - t0;

  // ---- improvement
  let ruins = 0;
  let converged = true;
  if (budgetMs > 0) {
    const deadline = t0 + budgetMs;
    for (const r of s.routes) improvePath(s.m, r);
    const descent = new PairDescent(s, input.neighbours, deadline);
    converged = descent.descend(descent.initialPairs(random));
    // ruin and recreate (distance, zones): remove a neighbourhood of jobs, re-insert it by regret, descend; keep if shorter
    if (converged && !s.sizeMode && s.locatedJobs.length > 1) {
      ({ ruins, converged } = ruinAndRecreate(s, insertion, descent, input.ruinRounds ?? 40, random, deadline));
    }
  }

  return {
    ...s.answer(),
    objectiveM: s.totalLength(),
    constructionObjectiveM,
    constructionMs,
    moves: s.moves,
    ruins,
    converged,
    elapsedMs: performance.now() - t0,
  };
}
