import { query } from '@app/core';
import { TeamReferenceSource, TeamReferences } from '@app/members';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/**
 * Jobs' answer to "is this team still used?" for editcompany's `teams_config` (members asks through
 * {@link TeamReferences} and never reads the jobs table): a team is in use while a job that is not
 * archived carries it as `teamId`.
 */
@Injectable()
export class JobTeamReferences implements TeamReferenceSource, OnModuleInit {
  readonly what = 'jobs';

  constructor(private readonly registry: TeamReferences) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async teamsInUse(manager: EntityManager, companyId: string, teamIds: readonly number[]): Promise<number[]> {
    const rows = await query<{ team: number }>(
      manager,
      `SELECT DISTINCT team_id AS team FROM jobs WHERE company_id = $1 AND archived = false AND team_id = ANY($2::int[])`,
      [companyId, [...teamIds]],
    );
    return rows.map((r) => r.team);
  }
}
