import { MembersModule } from '@app/members';
import { Module } from '@nestjs/common';
import { JobRefs } from './job-refs';
import { JobsQueryService } from './jobs-query.service';
import { JobsRepository } from './jobs.repository';
import { JobsService } from './jobs.service';

/** Jobs: writes with their events, reads, the connector mapping. */
@Module({
  imports: [MembersModule],
  providers: [JobsRepository, JobsService, JobsQueryService, JobRefs],
  exports: [JobsService, JobsQueryService],
})
export class JobsModule {}
