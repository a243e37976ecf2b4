import { StampParticipants } from '@app/core';
import { MembersModule } from '@app/members';
import { PlacesModule } from '@app/places';
import { Module, OnModuleInit } from '@nestjs/common';
import { JobRefs } from './job-refs.service';
import { JobStampsRepository } from './job-stamps.repository';
import { JobTeamReferences } from './job-team-references.service';
import { JobsQueryService } from './jobs-query.service';
import { JobsRepository } from './jobs.repository';
import { JobsService } from './jobs.service';

/** Jobs: writes with their events, reads, the connector mapping; `jobs`' commit stamps join core's stamping. */
@Module({
  imports: [MembersModule, PlacesModule],
  providers: [JobsRepository, JobStampsRepository, JobsService, JobsQueryService, JobRefs, JobTeamReferences],
  exports: [JobsService, JobsQueryService],
})
export class JobsModule implements OnModuleInit {
  constructor(
    private readonly participants: StampParticipants,
    private readonly stamps: JobStampsRepository,
  ) {}

  onModuleInit(): void {
    this.participants.register(this.stamps);
  }
}
