import { query } from '@app/core';
import { TeamReferenceSource, TeamReferences } from '@app/members';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/**
 * Places' answer to "is this team still used?" for editcompany's `teams_config` (members asks through
 * {@link TeamReferences}): a team is in use while a live (not deleted) place lists it in `teams`.
 */
@Injectable()
export class PlaceTeamReferences implements TeamReferenceSource, OnModuleInit {
  readonly what = 'places';

  constructor(private readonly registry: TeamReferences) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async teamsInUse(manager: EntityManager, companyId: string, teamIds: readonly number[]): Promise<number[]> {
    const rows = await query<{ team: number }>(
      manager,
      `SELECT DISTINCT t::int AS team FROM places p, jsonb_array_elements_text(p.teams) t
        WHERE p.company_id = $1 AND p.deleted_at IS NULL AND t::int = ANY($2::int[])`,
      [companyId, [...teamIds]],
    );
    return rows.map((r) => r.team);
  }
}
