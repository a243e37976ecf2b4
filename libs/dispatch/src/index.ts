/**
 * `@app/dispatch`: the pure dispatch algorithms of CONTRACTS.md "Dispatch" — the route solver
 * (optimizeroute), spherical k-means with size balancing (distributejobs) and the assignment of jobs
 * to workers (autoassign). Plain functions, no Nest and no database, run in the worker's CPU pool.
 */
export * from './types';
export * from './assign';
export * from './route';
export * from './cluster';
