import { query } from '@app/core';
import { TeamReferenceSource, TeamReferences } from '@app/members';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/**
 * Alert rules' answer to "is this team still used?" for editcompany's `teams_config`: a team is in
 * use while a live (not deleted) rule targets it in `teams`.
 */
@Injectable()
export class AlertTeamReferences implements TeamReferenceSource, OnModuleInit {
  readonly what = 'alert rules';

  constructor(private readonly registry: TeamReferences) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async teamsInUse(manager: EntityManager, companyId: string, teamIds: readonly number[]): Promise<number[]> {
    const rows = await query<{ team: number }>(
      manager,
      `SELECT DISTINCT t::int AS team FROM alert_rules r, jsonb_array_elements_text(r.teams) t
        WHERE r.company_id = $1 AND r.deleted_at IS NULL AND t::int = ANY($2::int[])`,
      [companyId, [...teamIds]],
    );
    return rows.map((r) => r.team);
  }
}
