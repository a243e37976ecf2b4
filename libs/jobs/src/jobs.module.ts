import { MembersModule } from '@app/members';
import { Module } from '@nestjs/common';
import { JobRefs } from './job-refs';
import { JobsQueryService } from './jobs-query.service';
import { JobsService } from './jobs.service';

/** Jobs: writes with their events, reads, the connector mapping. */
@Module({
  imports: [MembersModule],
  providers: [JobsService, JobsQueryService, JobRefs],
  exports: [JobsService, JobsQueryService],
})
export class JobsModule {}
