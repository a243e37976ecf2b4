/**
 * The Nest-free parts of `@app/locations` (`@app/locations/pure`): what worker threads and pure code
 * (the reports' definitions) load without the lib's modules, services and entities.
 */
export * from './fix';
export * from './tracks/split';
export * from './tracks/render';
export * from './tracks/gpx-read';
