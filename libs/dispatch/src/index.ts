/**
 * `@app/dispatch`: dispatch (CONTRACTS.md "Dispatch") — optimizeroute, distributejobs, autoassign and
 * createjobs with autoassign. The pure algorithms (also `@app/dispatch/pure`, the only entry a CPU pool
 * thread may load) and the Nest side: the modules (the worker's carry the run kinds), the api's
 * services, the DTOs, the role slices and the run kinds' parameter and answer types.
 */
export * from './pure';
export * from './dispatch.module';
export * from './dispatch-policy';
export * from './autoassign/autoassign-policy';
export * from './dto/optimize-route.dto';
export * from './dto/distribute.dto';
export * from './dto/autoassign.dto';
export * from './optimize-route/optimize-route.types';
export * from './optimize-route/optimize-route.service';
export * from './distribute/distribute.service';
export type { DistributeCluster, DistributeParams, DistributeResult } from './distribute/distribute.kind';
export * from './autoassign/autoassign.service';
export type { AutoassignAnswer, AutoassignParams } from './autoassign/autoassign.kind';
export type { CreateJobsAutoassignAnswer, CreateJobsAutoassignParams } from './autoassign/autoassign-create.kind';
