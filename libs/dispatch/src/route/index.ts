/** The route solver of `optimizeroute` (docs/route-solver.md). */
export { defaultTourBudgetMs, EXACT_MAX_N, iteratedLocalSearch, nearestNeighbourTwoOpt, solveTour } from './solve-tour';
export type { IlsOptions } from './solve-tour';
export { geodesicMatrix, tourLength } from './matrix';
export { heldKarpTour } from './held-karp';
