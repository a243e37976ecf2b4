/**
 * `@app/dispatch/pure`: the pure dispatch algorithms of CONTRACTS.md "Dispatch" — the route solver
 * and optimizeroute's plan (route ends, points, order), spherical k-means with size balancing
 * (distributejobs), the assignment of jobs to workers (autoassign), the seeded random numbers, and the
 * CPU pool's task functions. Plain functions, no Nest, no TypeORM and no connections: this is what the
 * CPU pool's worker threads (`apps/worker/src/cpu/cpu-functions.ts`) and the benchmarks load.
 */
export * from './types';
export * from './random';
export * from './assign';
export * from './route';
export * from './cluster';
export * from './cpu-tasks';
export * from './cpu-tasks-assign';
