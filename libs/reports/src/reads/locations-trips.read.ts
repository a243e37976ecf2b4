/**
 * `mileage`'s read model (docs/tracks.md, docs/reports-tracks.md): the members' stored `tracks` (the
 * locations lib's table) whose start falls in each member's window, with the nearest live `places` of
 * their start and end. Plain SQL through {@link ReportDb} (a report thread).
 */
import type { ReportDb } from '../report-definition';
import { nearestPlaceSql } from './places-nearest.read';

/** The members (request order), each one's window [fromMs, untilMs) and IANA zone (for the count's days). */
export interface TripsQuery {
  companyId: string;
  memberIds: string[];
  fromMs: number[];
  untilMs: number[];
  timezones: string[];
}

/** A stored track as {@link readTrips} reads it (bigint columns as text). */
export interface TripRow {
  ord: string;
  id: string;
  start_ts: string;
  end_ts: string;
  start_lat: number;
  start_lng: number;
  end_lat: number;
  end_lng: number;
  distance: number;
  speed_avg: number;
  speed_max: number;
  from_place: string | null;
  to_place: string | null;
}

const ROWS_SQL = `
  SELECT a.ord, t.id, t.start_ts, t.end_ts, t.start_lat, t.start_lng, t.end_lat, t.end_lng,
         t.distance, t.speed_avg, t.speed_max, sp.name AS from_place, ep.name AS to_place
    FROM unnest($2::text[], $3::bigint[], $4::bigint[]) WITH ORDINALITY AS a(id, from_ms, until_ms, ord)
    JOIN tracks t ON t.company_id = $1 AND t.member_id = a.id AND t.start_ts >= a.from_ms AND t.start_ts < a.until_ms
    LEFT JOIN LATERAL ${nearestPlaceSql('$1', 't.start_lat', 't.start_lng')} sp ON true
    LEFT JOIN LATERAL ${nearestPlaceSql('$1', 't.end_lat', 't.end_lng')} ep ON true
   ORDER BY a.ord, t.start_ts, t.id`;

const COUNT_SQL = `
  SELECT (count(*) + count(DISTINCT (a.ord, to_char(to_timestamp(t.start_ts / 1000.0) AT TIME ZONE a.tz, 'YYYYMMDD'))))::int AS n
    FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::text[]) WITH ORDINALITY AS a(id, from_ms, until_ms, tz, ord)
    JOIN tracks t ON t.company_id = $1 AND t.member_id = a.id AND t.start_ts >= a.from_ms AND t.start_ts < a.until_ms`;

/** The trips by member (request order; `ord` 1-based), then start, then id, streamed. */
export function readTrips(db: ReportDb, q: TripsQuery): AsyncIterable<TripRow> {
  return db.cursor<TripRow>(ROWS_SQL, [q.companyId, q.memberIds, q.fromMs, q.untilMs]);
}

/** `mileage`'s exact row count: the trips plus one total row per member-day (its zone) holding trips. */
export async function countTrips(db: ReportDb, q: TripsQuery): Promise<number> {
  const [row] = await db.query<{ n: number }>(COUNT_SQL, [q.companyId, q.memberIds, q.fromMs, q.untilMs, q.timezones]);
  return row?.n ?? 0;
}
