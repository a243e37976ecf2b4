/** autoassign's pure parts: the assignment of jobs to workers and the working-day rule. */
export * from './assign-jobs';
export * from './availability';
