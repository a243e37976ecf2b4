import { JobsModule } from '@app/jobs';
import { Module } from '@nestjs/common';
import { CreateJobsAutoassignKind } from './autoassign-create.kind';
import { DispatchReadRepository } from './autoassign.repository';
import { AutoassignKind } from './autoassign.kind';
import { AutoassignService } from './autoassign.service';
import { ClusterMapsRepository } from './distribute-maps.repository';
import { DispatchZoneSource, NoZones } from './distribute-zones';
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
 * registered at init. `DispatchZoneSource` is where issue #12's zones plug in (today {@link NoZones}:
 * no job lies in a zone).
 */
@Module({
  imports: [JobsModule],
  providers: [
    DispatchReadRepository,
    ClusterMapsRepository,
    { provide: DispatchZoneSource, useClass: NoZones },
    DistributeJobsKind,
    AutoassignKind,
    CreateJobsAutoassignKind,
  ],
})
export class DispatchAssignWorkerModule {}
