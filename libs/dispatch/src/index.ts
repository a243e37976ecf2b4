/**
 * `@app/dispatch`: dispatch (CONTRACTS.md "Dispatch") — optimizeroute, distributejobs, autoassign and
 * createjobs with autoassign. The pure algorithms (also `@app/dispatch/pure`, the only entry a CPU pool
 * thread may load) and the Nest side: the modules, the api's services, the worker's run kinds, the
 * DTOs, the role slices and the read models.
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
export * from './distribute/distribute.kind';
export * from './autoassign/autoassign.service';
export * from './autoassign/autoassign.kind';
export * from './autoassign/autoassign-create.kind';
