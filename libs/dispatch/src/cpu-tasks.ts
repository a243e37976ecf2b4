/**
 * Dispatch's CPU tasks: pure functions the worker's CPU pool runs by name (CONTRACTS.md "Worker
 * results"), typed by augmenting core's `CpuTasks` and listed in `apps/worker/src/cpu/cpu-functions.ts`.
 * Loaded by every pool thread: no Nest, no TypeORM, no connections — only the pure solver modules.
 */
import { geodesicMatrix, solveTour } from './route';
import type { GeoPoint, TourOptions, TourResult } from './types';

declare module '@app/core' {
  interface CpuTasks {
    /** optimizeroute's search: the geodesic matrix of `points` (m), then {@link solveTour} on it. */
    'dispatch.solveTour': { input: { points: GeoPoint[]; options: TourOptions }; output: TourResult };
  }
}

/**
 * The route search of optimizeroute, in a pool thread: builds the WGS84 geodesic distance matrix of
 * `points` (degrees → metres, Karney's method via `geodesicMatrix`) and solves the tour or path
 * `options` asks for. Building the matrix here keeps its n² inverse problems off the event loop too.
 */
export function solveTourTask({ points, options }: { points: GeoPoint[]; options: TourOptions }): TourResult {
  return solveTour(geodesicMatrix(points), options);
}
