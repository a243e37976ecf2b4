/**
 * The jobs lib's Nest-free entry (`@app/jobs/pure`): what report threads and other pure code load
 * without the lib's index (which pulls Nest and TypeORM in). Job progress only, for now.
 */
export * from './progress';
