import { MembersModule } from '@app/members';
import { PlacesModule } from '@app/places';
import { Module } from '@nestjs/common';
import { JobRefs } from './job-refs.service';
import { JobTeamReferences } from './job-team-references.service';
import { JobsQueryService } from './jobs-query.service';
import { JobsRepository } from './jobs.repository';
import { JobsService } from './jobs.service';

/** Jobs: writes with their events, reads, the connector mapping. */
@Module({
  imports: [MembersModule, PlacesModule],
  providers: [JobsRepository, JobsService, JobsQueryService, JobRefs, JobTeamReferences],
  exports: [JobsService, JobsQueryService],
})
export class JobsModule {}
