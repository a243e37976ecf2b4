/** The route solver of `optimizeroute` (docs/route-solver.md), and the pure plan around it (docs/dispatch.md). */
export { defaultTourBudgetMs, EXACT_MAX_N, iteratedLocalSearch, nearestNeighbourTwoOpt, solveTour } from './solve-tour';
export type { IlsOptions } from './solve-tour';
export { geodesicMatrix, tourLength } from './matrix';
export { heldKarpTour } from './held-karp';
/** optimizeroute's plan around the solver: a member's route ends, the points and options, the new order. */
export * from './route-ends';
export * from './optimize-route.plan';
