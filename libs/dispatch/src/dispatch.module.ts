import { JobsModule } from '@app/jobs';
import { MembersModule } from '@app/members';
import { ZonesModule } from '@app/zones';
import { Module } from '@nestjs/common';
import { CreateJobsAutoassignKind } from './autoassign/autoassign-create.kind';
import { AutoassignKind } from './autoassign/autoassign.kind';
import { AutoassignService } from './autoassign/autoassign.service';
import { JobsAutoassignRead } from './autoassign/jobs-autoassign.read';
import { MembersAutoassignRead } from './autoassign/members-autoassign.read';
import { PlacesAutoassignRead } from './autoassign/places-autoassign.read';
import { ClusterMapsRepository } from './distribute/cluster-maps.repository';
import { DistributeJobsKind } from './distribute/distribute.kind';
import { DistributeService } from './distribute/distribute.service';
import { DispatchZoneSource, ZonesDispatchSource } from './distribute/zone-source.service';
import { LatestLocationsRead } from './locations-latest.read';
import { JobsDayRead } from './optimize-route/jobs-day.read';
import { OptimizeRouteKind } from './optimize-route/optimize-route.kind';
import { OptimizeRouteService } from './optimize-route/optimize-route.service';

/**
 * optimizeroute for the api (CONTRACTS.md "Dispatch"): the action's service, which checks a call and
 * runs its kind in the worker through `WorkerResultsService` (from the global `WorkerResultsModule`).
 */
@Module({
  imports: [MembersModule, JobsModule],
  providers: [OptimizeRouteService],
  exports: [OptimizeRouteService],
})
export class DispatchModule {}

/**
 * optimizeroute for the worker: its run kind's handler, registered in the global `RunKindRegistry`
 * at module init and computed with the worker's CPU pool (`CpuRunner`).
 */
@Module({
  imports: [MembersModule, JobsModule],
  providers: [JobsDayRead, LatestLocationsRead, OptimizeRouteKind],
})
export class DispatchWorkerModule {}

/**
 * distributejobs, autoassign and createjobs with autoassign for the api: the services that check a
 * call and run its kind in the worker (`WorkerResultsService`), and the map previews' reads.
 */
@Module({
  providers: [ClusterMapsRepository, DistributeService, AutoassignService],
  exports: [DistributeService, AutoassignService],
})
export class DispatchAssignModule {}

/**
 * The same for the worker: the run kinds `distributejobs`, `autoassign` and `createjobs.autoassign`,
 * registered at init. `DispatchZoneSource` is the zones' spatial lookup ({@link ZonesDispatchSource},
 * over `@app/zones`).
 */
@Module({
  imports: [JobsModule, ZonesModule],
  providers: [
    JobsAutoassignRead,
    MembersAutoassignRead,
    LatestLocationsRead,
    PlacesAutoassignRead,
    ClusterMapsRepository,
    { provide: DispatchZoneSource, useClass: ZonesDispatchSource },
    DistributeJobsKind,
    AutoassignKind,
    CreateJobsAutoassignKind,
  ],
})
export class DispatchAssignWorkerModule {}
