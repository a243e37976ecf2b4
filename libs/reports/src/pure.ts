/**
 * The reports lib's Nest-free entry (`@app/reports/pure`): what the worker's report threads load (the
 * thread's body, the render, the definitions and formats) and pure code or tests may import without the
 * lib's index (which pulls Nest and TypeORM in).
 */
export * from './report-types';
export * from './report-table';
export * from './report-definition';
export * from './report-run';
export * from './report-errors';
export { definitionOf, REPORT_DEFINITIONS } from './definitions';
export { loadReportContext } from './render/load-context';
export { renderJob } from './render/render-job';
export * from './render/report-thread';
