import { TeamReferenceSource, TeamReferences } from '@app/members';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ZonesRepository } from './zones.repository';

/**
 * Zones' answer to "is this team still used?" for editcompany's `teams_config` (members asks through
 * {@link TeamReferences}): a team is in use while a live (not deleted) zone lists it in `teams`.
 */
@Injectable()
export class ZoneTeamReferences implements TeamReferenceSource, OnModuleInit {
  readonly what = 'zones';

  constructor(
    private readonly registry: TeamReferences,
    private readonly repo: ZonesRepository,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  teamsInUse(manager: EntityManager, companyId: string, teamIds: readonly number[]): Promise<number[]> {
    return this.repo.teamsInUse(manager, companyId, teamIds);
  }
}
