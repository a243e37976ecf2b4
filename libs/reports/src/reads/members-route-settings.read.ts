import type { ReportDb } from '../report-definition';

/** A member's route settings and its company's teams, as `dayroute` reads them. */
export interface RouteMemberRow {
  id: string;
  route_start_lat: number | null;
  route_start_lng: number | null;
  route_end_lat: number | null;
  route_end_lng: number | null;
  teams: number[];
  travel_mode: string;
  teams_config: Array<{ id: number; route?: { lat?: number; lng?: number } }>;
}

/**
 * `dayroute`'s read of the members' route settings and the company's teams (for a team's route
 * start): reads `members` (route start/end, teams, travel mode) and `companies` (`teams_config`),
 * the members lib's tables. Any order; members of another company are never read.
 */
export function readRouteSettings(db: ReportDb, companyId: string, memberIds: readonly string[]): Promise<RouteMemberRow[]> {
  return db.query<RouteMemberRow>(
    `SELECT m.id, m.route_start_lat, m.route_start_lng, m.route_end_lat, m.route_end_lng, m.teams, m.travel_mode, c.teams_config
       FROM members m JOIN companies c ON c.id = m.company_id
      WHERE m.company_id = $1 AND m.id = ANY($2::text[])`,
    [companyId, [...memberIds]],
  );
}
