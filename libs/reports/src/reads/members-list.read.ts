/**
 * `members`' read model (docs/reports.md): the named members (`members`, their team names from
 * `companies.teams_config`) with where each was last seen (`member_locations`, the locations lib's
 * table). Plain SQL through {@link ReportDb} (a report thread).
 */
import type { ReportDb } from '../report-definition';
import { teamNamesSql } from './members-team-names.read';

/** A member as {@link readMemberRows} reads it (`ts` bigint as text). */
export interface MemberRow {
  id: string;
  name: string;
  username: string;
  role: string;
  active_status: string;
  teams: string | null;
  phone: string;
  email: string;
  timezone: string;
  vehicle_capacity: number | null;
  skills: string[];
  tracking_status: boolean | null;
  ts: string | null;
  lat: number | null;
  lng: number | null;
  bat: number | null;
}

const ROWS_SQL = `
  SELECT m.id, m.name, m.username, m.role, m.active_status, ${teamNamesSql('m.teams', 'm.company_id')} AS teams,
         m.phone, m.email, m.timezone, m.vehicle_capacity, m.skills,
         l.tracking_status, l.ts, l.lat, l.lng, l.bat
    FROM unnest($2::text[]) WITH ORDINALITY AS a(id, ord)
    JOIN members m ON m.company_id = $1 AND m.id = a.id
    LEFT JOIN member_locations l ON l.company_id = m.company_id AND l.member_id = m.id
   ORDER BY a.ord`;

/** The company's members among `memberIds`, in that order (unknown ids left out), streamed. */
export function readMemberRows(db: ReportDb, companyId: string, memberIds: string[]): AsyncIterable<MemberRow> {
  return db.cursor<MemberRow>(ROWS_SQL, [companyId, memberIds]);
}
