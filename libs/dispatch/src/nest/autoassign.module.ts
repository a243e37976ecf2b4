import { JobsModule } from '@app/jobs';
import { ZonesModule } from '@app/zones';
import { Module } from '@nestjs/common';
import { CreateJobsAutoassignKind } from './autoassign-create.kind';
import { DispatchReadRepository } from './autoassign.repository';
import { AutoassignKind } from './autoassign.kind';
import { AutoassignService } from './autoassign.service';
import { ClusterMapsRepository } from './distribute-maps.repository';
import { DispatchZoneSource, ZonesDispatchSource } from './distribute-zones';
import { DistributeJobsKind } from './distribute.kind';
import { DistributeService } from './distribute.service';

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
    DispatchReadRepository,
    ClusterMapsRepository,
    { provide: DispatchZoneSource, useClass: ZonesDispatchSource },
    DistributeJobsKind,
    AutoassignKind,
    CreateJobsAutoassignKind,
  ],
})
export class DispatchAssignWorkerModule {}
