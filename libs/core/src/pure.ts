/**
 * `@app/core/pure`: the Nest-free part of core — time, geometry, domain errors, the CPU task table —
 * for code that must not load Nest, TypeORM or a connection: the worker's thread pools (report and
 * CPU threads) and the pure folders of the domain libs. Everything here is also exported by
 * `@app/core`; import it from here where the importer runs in a thread or must stay pure.
 */
export * from './time';
export * from './group-by';
export * from './errors/domain-error';
export * from './geo/geodesic';
export * from './geo/bounding-box';
export * from './geo/polyline';
export * from './geo/moving';
export * from './worker-results/cpu-tasks';
export * from './database/pg-errors';
export * from './database/read-routing';
