export * from './report-types';
export * from './report-table';
export * from './report-definition';
export * from './formats/table-writer';
export * from './formats';
