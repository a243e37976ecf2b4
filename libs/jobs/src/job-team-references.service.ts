import { TeamReferenceSource, TeamReferences } from '@app/members';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { JobsRepository } from './jobs.repository';

/**
 * Jobs' answer to "is this team still used?" for editcompany's `teams_config` (members asks through
 * {@link TeamReferences} and never reads the jobs table): a team is in use while a job that is not
 * archived carries it as `teamId`.
 */
@Injectable()
export class JobTeamReferences implements TeamReferenceSource, OnModuleInit {
  readonly what = 'jobs';

  constructor(
    private readonly registry: TeamReferences,
    private readonly repo: JobsRepository,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  teamsInUse(manager: EntityManager, companyId: string, teamIds: readonly number[]): Promise<number[]> {
    return this.repo.teamsInUse(manager, companyId, teamIds);
  }
}
