/**
 * `timeline`'s read model (docs/reports.md "timeline"): a member's `tracks` (drives) and visits —
 * `checkins` rows at places and at jobs (the locations lib's tables) with the place (`places`) or the
 * job (`jobs`) and its place, plus jobs checked in by hand without a check-in row (as the time
 * reports count them). Plain SQL through {@link ReportDb} (a report thread).
 */
import type { ReportDb } from '../report-definition';

const TRACKS_SQL = `
  SELECT id, start_ts, end_ts, distance FROM tracks
   WHERE company_id = $1 AND member_id = $2 AND start_ts >= $3 AND start_ts < $4
   ORDER BY start_ts, id`;

// a visit's position: a place visit's place; a job visit's job coordinates, else its place's
const VISITS_SQL = `
  SELECT v.* FROM (
    SELECT CASE WHEN c.job_id IS NULL THEN 'place' ELSE 'job' END AS kind, c.in_ts, c.out_ts, c.job_id,
           j.destination_name AS title, COALESCE(cp.name, jp.name) AS place,
           CASE WHEN c.job_id IS NULL THEN ST_Y(cp.location::geometry)
                WHEN j.destination_lat IS NOT NULL THEN j.destination_lat ELSE ST_Y(jp.location::geometry) END AS lat,
           CASE WHEN c.job_id IS NULL THEN ST_X(cp.location::geometry)
                WHEN j.destination_lat IS NOT NULL THEN j.destination_lng ELSE ST_X(jp.location::geometry) END AS lng
      FROM checkins c
      LEFT JOIN places cp ON cp.company_id = c.company_id AND cp.id = c.place_id
      LEFT JOIN jobs j ON j.company_id = c.company_id AND j.id = c.job_id
      LEFT JOIN places jp ON jp.company_id = c.company_id AND jp.id = NULLIF(j.place_uid, '')
     WHERE c.company_id = $1 AND c.member_id = $2 AND c.in_ts >= $3 AND c.in_ts < $4
    UNION ALL
    SELECT 'job', j.ts_check_in, CASE WHEN j.ts_check_out > j.ts_check_in THEN j.ts_check_out END, j.id,
           j.destination_name, jp.name,
           CASE WHEN j.destination_lat IS NOT NULL THEN j.destination_lat ELSE ST_Y(jp.location::geometry) END,
           CASE WHEN j.destination_lat IS NOT NULL THEN j.destination_lng ELSE ST_X(jp.location::geometry) END
      FROM jobs j
      LEFT JOIN places jp ON jp.company_id = j.company_id AND jp.id = NULLIF(j.place_uid, '')
     WHERE j.company_id = $1 AND j.worker_id = $2 AND NOT j.is_template AND NOT j.archived
       AND j.ts_check_in >= $3 AND j.ts_check_in < $4
       AND NOT EXISTS (SELECT 1 FROM checkins k WHERE k.company_id = j.company_id AND k.job_id = j.id)
  ) v ORDER BY v.in_ts, v.kind DESC, v.job_id`;

/** A member's tracks starting in [fromMs, untilMs), by start then id (bigint columns as text). */
export function readTimelineDrives(
  db: ReportDb,
  companyId: string,
  memberId: string,
  fromMs: number,
  untilMs: number,
): Promise<Array<{ id: string; start_ts: string; end_ts: string; distance: number }>> {
  return db.query(TRACKS_SQL, [companyId, memberId, fromMs, untilMs]);
}

/**
 * A member's visit as the timeline reads it: a place visit with its place's name and position; a job
 * visit with the job's title, its place, its position (the job's coordinates, else its place's).
 */
export interface TimelineVisitRow {
  kind: 'place' | 'job';
  in_ts: string;
  out_ts: string | null;
  /** null for a place visit */
  job_id: string | null;
  title: string | null;
  place: string | null;
  lat: number | null;
  lng: number | null;
}

/** A member's visits (place and job check-ins, jobs checked in by hand) beginning in [fromMs, untilMs), by in time (a place visit before a job visit of the same ms). */
export function readTimelineVisits(
  db: ReportDb,
  companyId: string,
  memberId: string,
  fromMs: number,
  untilMs: number,
): Promise<TimelineVisitRow[]> {
  return db.query<TimelineVisitRow>(VISITS_SQL, [companyId, memberId, fromMs, untilMs]);
}
