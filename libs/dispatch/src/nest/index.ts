/**
 * `@app/dispatch/nest`: the Nest side of dispatch (modules, run kinds, the api's services, DTOs),
 * kept apart from the pure algorithms of `@app/dispatch` that the CPU pool's threads load.
 */
export * from './dispatch.module';
export * from './dispatch-roles';
export * from './day-jobs.read';
export * from './route-ends';
export * from './optimize-route.plan';
export * from './optimize-route.types';
export * from './optimize-route.service';
export * from './dto/optimize-route.dto';
