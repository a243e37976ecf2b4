/**
 * What a report reads besides its rows (docs/reports.md "Read model"): the company (`companies`), the
 * requester's preferences and the named members (`members`) — the members lib's tables — and the named
 * places (`places`). Plain SQL through {@link ReportDb}: the report threads and the api's pdf count.
 */
import type { ReportDb, ReportMember, ReportPlace } from '../report-definition';

/** The requesting member's name and preferences (empty strings when unset). */
export interface RequesterRow {
  name: string;
  timezone: string;
  unit_time: string;
  unit_date: string;
  unit_distance: string;
}

/** The company as a report reads it: name, IANA zone, its stop threshold (min; null = the server's TRACK_STOP_MINUTES). */
export interface ReportCompanyRow {
  name: string;
  timezone: string;
  stop_minutes: number | null;
}

/** The company's name, IANA zone and `stop_minutes`, or undefined when it is gone. */
export async function readReportCompany(db: ReportDb, companyId: string): Promise<ReportCompanyRow | undefined> {
  const [company] = await db.query<ReportCompanyRow>(`SELECT name, timezone, stop_minutes FROM companies WHERE id = $1`, [companyId]);
  return company;
}

/** The requesting member of the company, or undefined when it is gone. */
export async function readReportRequester(db: ReportDb, companyId: string, memberId: string): Promise<RequesterRow | undefined> {
  const [requester] = await db.query<RequesterRow>(
    `SELECT name, timezone, unit_time, unit_date, unit_distance FROM members WHERE company_id = $1 AND id = $2`,
    [companyId, memberId],
  );
  return requester;
}

/** The company's members among `memberIds` (any order), each with its zone (its own, else `companyZone`). */
export function readReportMembers(db: ReportDb, companyId: string, memberIds: string[], companyZone: string): Promise<ReportMember[]> {
  return db.query<ReportMember>(
    `SELECT id, name, username, COALESCE(NULLIF(timezone, ''), $3) AS timezone FROM members WHERE company_id = $1 AND id = ANY($2::text[])`,
    [companyId, memberIds, companyZone],
  );
}

/** The company's places among `placeIds` (any order; deleted ones too). */
export function readReportPlaces(db: ReportDb, companyId: string, placeIds: string[]): Promise<ReportPlace[]> {
  return db.query<ReportPlace>(`SELECT id, name FROM places WHERE company_id = $1 AND id = ANY($2::text[])`, [companyId, placeIds]);
}
