import { JobsModule } from '@app/jobs';
import { MembersModule } from '@app/members';
import { Module } from '@nestjs/common';
import { OptimizeRouteService } from './optimize-route.service';

/**
 * Dispatch for the api (CONTRACTS.md "Dispatch"): the actions' services, which check a call and run
 * its kind in the worker through `WorkerResultsService` (from the global `WorkerResultsModule`).
 */
@Module({
  imports: [MembersModule, JobsModule],
  providers: [OptimizeRouteService],
  exports: [OptimizeRouteService],
})
export class DispatchModule {}

/**
 * Dispatch for the worker: the run kinds' handlers, registered in the global `RunKindRegistry` at
 * module init and computed with the worker's CPU pool (`CpuRunner`).
 */
@Module({
  imports: [MembersModule, JobsModule],
  providers: [],
})
export class DispatchWorkerModule {}
