/**
 * `timeline`'s read model (docs/reports-tracks.md): a member's `tracks` (drives) and job check-ins
 * (`checkins` rows with a job, the locations lib's tables) with the job (`jobs`) and its place
 * (`places`). Plain SQL through {@link ReportDb} (a report thread).
 */
import type { ReportDb } from '../report-definition';

const TRACKS_SQL = `
  SELECT id, start_ts, end_ts, distance FROM tracks
   WHERE company_id = $1 AND member_id = $2 AND start_ts >= $3 AND start_ts < $4
   ORDER BY start_ts, id`;

// a job check-in's position: the job's coordinates, else its place's
const VISITS_SQL = `
  SELECT c.in_ts, c.out_ts, c.job_id, j.destination_name AS title, p.name AS place,
         CASE WHEN j.destination_lat IS NOT NULL THEN j.destination_lat ELSE ST_Y(p.location::geometry) END AS lat,
         CASE WHEN j.destination_lat IS NOT NULL THEN j.destination_lng ELSE ST_X(p.location::geometry) END AS lng
    FROM checkins c
    LEFT JOIN jobs j ON j.company_id = c.company_id AND j.id = c.job_id
    LEFT JOIN places p ON p.company_id = c.company_id AND p.id = j.place_uid
   WHERE c.company_id = $1 AND c.member_id = $2 AND c.job_id IS NOT NULL AND c.in_ts >= $3 AND c.in_ts < $4
   ORDER BY c.in_ts`;

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

/** A member's job check-in as the timeline reads it: the job's title, its place, its position (the job's coordinates, else its place's). */
export interface TimelineVisitRow {
  in_ts: string;
  out_ts: string | null;
  job_id: string;
  title: string | null;
  place: string | null;
  lat: number | null;
  lng: number | null;
}

/** A member's job check-ins beginning in [fromMs, untilMs), by in time. */
export function readTimelineVisits(
  db: ReportDb,
  companyId: string,
  memberId: string,
  fromMs: number,
  untilMs: number,
): Promise<TimelineVisitRow[]> {
  return db.query<TimelineVisitRow>(VISITS_SQL, [companyId, memberId, fromMs, untilMs]);
}
