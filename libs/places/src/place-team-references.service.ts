import { TeamReferenceSource, TeamReferences } from '@app/members';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PlacesRepository } from './places.repository';

/**
 * Places' answer to "is this team still used?" for editcompany's `teams_config` (members asks through
 * {@link TeamReferences}): a team is in use while a live (not deleted) place lists it in `teams`.
 */
@Injectable()
export class PlaceTeamReferences implements TeamReferenceSource, OnModuleInit {
  readonly what = 'places';

  constructor(
    private readonly registry: TeamReferences,
    private readonly repo: PlacesRepository,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  teamsInUse(manager: EntityManager, companyId: string, teamIds: readonly number[]): Promise<number[]> {
    return this.repo.teamsInUse(manager, companyId, teamIds);
  }
}
