import { invalid, Queryable } from '@app/core';
import { CompanyService, MembersService } from '@app/members';
import { Injectable } from '@nestjs/common';
import { PlacesZonesRefsRead } from './places-zones-refs.read';

/**
 * What a rule names, checked against the company's rows (CONTRACTS.md "Alerts and zones"): live
 * places, live zones, active members, teams of `teams_config`. Another company's rows behave as
 * unknown ids. Places and zones are read by the read model {@link PlacesZonesRefsRead} (`places` /
 * `zones`, `deleted_at IS NULL`) rather than through their libs' services: a read of two columns.
 */
@Injectable()
export class AlertReferences {
  constructor(
    private readonly members: MembersService,
    private readonly company: CompanyService,
    private readonly reads: PlacesZonesRefsRead,
  ) {}

  /**
   * @param db the caller's transaction, or undefined for the pool
   * @throws DomainError invalid naming `field` when `placeId` is not a live place of the company
   */
  async assertPlace(db: Queryable | undefined, companyId: string, placeId: string, field: string): Promise<void> {
    if (!(await this.reads.livePlace(companyId, placeId, db))) throw invalid(field, `no such place ${placeId}`);
  }

  /**
   * @param danger true when the zone must be a danger zone (`enters_danger_zone`)
   * @throws DomainError invalid naming `field` when `zoneId` is not a live zone of the company, or not a danger zone when one is required
   */
  async assertZone(db: Queryable | undefined, companyId: string, zoneId: string, danger: boolean, field: string): Promise<void> {
    const zone = await this.reads.liveZone(companyId, zoneId, db);
    if (!zone) throw invalid(field, `no such zone ${zoneId}`);
    if (danger && !zone.danger) throw invalid(field, `zone ${zoneId} is not a danger zone (enters_danger_zone watches danger zones only)`);
  }

  /**
   * The member ids of `accounts` — each a uid or a username (case-insensitive) of an active member of
   * the company — in the order given, without repeats.
   * @throws DomainError invalid naming `${field}[i]` of the first account that is no such member
   */
  async memberIds(companyId: string, accounts: readonly string[], field: string): Promise<string[]> {
    if (!accounts.length) return [];
    const found = await this.members.findActive(companyId, { ids: [...accounts], usernames: [...accounts] });
    const byId = new Map(found.map((m) => [m.id, m.id]));
    const byUsername = new Map(found.map((m) => [m.username.toLowerCase(), m.id]));
    const ids = accounts.map((a, i) => {
      const id = byId.get(a) ?? byUsername.get(a.toLowerCase());
      if (!id) throw invalid(`${field}[${i}]`, `no active member ${a} in the company`);
      return id;
    });
    return [...new Set(ids)];
  }

  /**
   * `teams` deduplicated and ascending.
   * @throws DomainError invalid naming `${field}[i]` of the first team not in the company's `teams_config`
   */
  async teamIds(companyId: string, teams: readonly number[], field: string): Promise<number[]> {
    if (!teams.length) return [];
    const known = await this.company.teamIds(companyId);
    const i = teams.findIndex((t) => !known.has(t));
    if (i >= 0) throw invalid(`${field}[${i}]`, `team ${teams[i]} is not in the company's teams_config`);
    return [...new Set(teams)].sort((a, b) => a - b);
  }
}
