/**
 * `places`' read model (docs/reports.md): the named `places` rows with their team names
 * (`companies.teams_config`) and their creator's name (`members`). Plain SQL through {@link ReportDb}
 * (a report thread).
 */
import type { ReportDb } from '../report-definition';
import { teamNamesSql } from './members-team-names.read';

/** A place as {@link readPlaceRows} reads it (`created_at` bigint as text). */
export interface PlaceRow {
  id: string;
  name: string;
  address: string;
  city: string;
  postalcode: string;
  state: string;
  country_code: string;
  lat: number | null;
  lng: number | null;
  radius: number;
  teams: string | null;
  phone: string;
  email: string;
  color: string;
  created_at: string;
  creator: string | null;
}

const ROWS_SQL = `
  SELECT p.id, p.name, p.address, p.city, p.postalcode, p.state, p.country_code, ST_Y(p.location::geometry) AS lat, ST_X(p.location::geometry) AS lng, p.radius,
         ${teamNamesSql('p.teams', 'p.company_id')} AS teams, p.phone, p.email, p.color, p.created_at,
         (SELECT m.name FROM members m WHERE m.company_id = p.company_id AND m.id = p.creator_id) AS creator
    FROM unnest($2::text[]) WITH ORDINALITY AS a(id, ord)
    JOIN places p ON p.company_id = $1 AND p.id = a.id
   ORDER BY a.ord`;

/** The company's places among `placeIds`, in that order (unknown ids left out; deleted ones kept), streamed. */
export function readPlaceRows(db: ReportDb, companyId: string, placeIds: string[]): AsyncIterable<PlaceRow> {
  return db.cursor<PlaceRow>(ROWS_SQL, [companyId, placeIds]);
}
