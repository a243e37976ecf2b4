import { TeamReferenceSource, TeamReferences } from '@app/members';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AlertRulesRepository } from './alert-rules.repository';

/**
 * Alert rules' answer to "is this team still used?" for editcompany's `teams_config`: a team is in
 * use while a live (not deleted) rule targets it in `teams`.
 */
@Injectable()
export class AlertTeamReferences implements TeamReferenceSource, OnModuleInit {
  readonly what = 'alert rules';

  constructor(
    private readonly registry: TeamReferences,
    private readonly rules: AlertRulesRepository,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  teamsInUse(manager: EntityManager, companyId: string, teamIds: readonly number[]): Promise<number[]> {
    return this.rules.teamsInUse(manager, companyId, teamIds);
  }
}
