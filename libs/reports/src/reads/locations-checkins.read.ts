/**
 * `checkins`' read model (docs/reports.md "checkins"): the members' `checkins` rows (the geofence's
 * place and job visits, the locations lib's table) with the place's (`places`) or the job's (`jobs`,
 * and its own place) name, address and position. Plain SQL through {@link ReportDb} (a report thread).
 */
import type { ReportDb } from '../report-definition';

/** Company, members (request order) and the instants [fromMs, untilMs) the check-ins began in. */
export interface CheckinsQuery {
  companyId: string;
  memberIds: string[];
  fromMs: number;
  untilMs: number;
}

/** A `checkins` row with its place's or job's name, address and position. */
export interface CheckinRow {
  member_id: string;
  place_id: string | null;
  job_id: string | null;
  in_ts: number;
  out_ts: number | null;
  /** ms (as stored) */
  duration: number | null;
  place_name: string | null;
  place_address: string | null;
  place_lat: number | null;
  place_lng: number | null;
  job_name: string | null;
  job_address: string | null;
  destination_lat: number | null;
  destination_lng: number | null;
  job_place_lat: number | null;
  job_place_lng: number | null;
}

const WHERE = `k.company_id = $1 AND k.member_id = ANY($2::text[]) AND k.in_ts >= $3 AND k.in_ts < $4`;

/**
 * The members' check-ins (`checkins`, the geofence's place and job visits) that began in the range,
 * by member (request order), then in time. A job's position is its destination, else its place's.
 */
const ROWS_SQL = `
  SELECT k.member_id, k.place_id, k.job_id, k.in_ts::float8 AS in_ts, k.out_ts::float8 AS out_ts, k.duration::float8 AS duration,
         p.name AS place_name, NULLIF(concat_ws(', ', NULLIF(p.address, ''), NULLIF(p.city, '')), '') AS place_address,
         ST_Y(p.location::geometry) AS place_lat, ST_X(p.location::geometry) AS place_lng,
         j.destination_name AS job_name, j.destination_text AS job_address, j.destination_lat, j.destination_lng,
         ST_Y(jp.location::geometry) AS job_place_lat, ST_X(jp.location::geometry) AS job_place_lng
    FROM checkins k
    LEFT JOIN places p ON p.company_id = k.company_id AND p.id = k.place_id
    LEFT JOIN jobs j ON j.company_id = k.company_id AND j.id = k.job_id
    LEFT JOIN places jp ON jp.company_id = j.company_id AND jp.id = j.place_uid
   WHERE ${WHERE}
   ORDER BY array_position($2::text[], k.member_id), k.in_ts, k.id`;

const paramsOf = (q: CheckinsQuery): unknown[] => [q.companyId, q.memberIds, q.fromMs, q.untilMs];

/** The check-ins, by member (request order), then in time, streamed. */
export function readCheckins(db: ReportDb, q: CheckinsQuery): AsyncIterable<CheckinRow> {
  return db.cursor<CheckinRow>(ROWS_SQL, paramsOf(q));
}

/** How many check-ins {@link readCheckins} gives. */
export async function countCheckins(db: ReportDb, q: CheckinsQuery): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM checkins k WHERE ${WHERE}`, paramsOf(q));
  return n;
}
