/** autoassign's assignment search: what `assignJobs` is asked and answers (pure, structured-clone data). */
import type { GeoPoint } from '../types';

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
