export * from './data-source-options';
export * from './database.module';
export * from './table-owners';
export * from './table-kinds';
