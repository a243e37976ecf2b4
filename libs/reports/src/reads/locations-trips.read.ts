/**
 * `mileage`'s read model (docs/tracks.md, docs/reports.md "mileage"): the members' stored `tracks` (the
 * locations lib's table) whose start falls in each member's window, with the nearest live `places` of
 * their start and end, and their sums per member-day. Plain SQL through {@link ReportDb} (a report thread).
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

/** A trip's member-day: the day (YYYYMMDD) of its start in the member's zone `a.tz`. */
const TRIP_DAY = `to_char(to_timestamp(t.start_ts / 1000.0) AT TIME ZONE a.tz, 'YYYYMMDD')`;

const TRIPS_OF_MEMBERS = `
    FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::text[]) WITH ORDINALITY AS a(id, from_ms, until_ms, tz, ord)
    JOIN tracks t ON t.company_id = $1 AND t.member_id = a.id AND t.start_ts >= a.from_ms AND t.start_ts < a.until_ms`;

// trips + the blank row before the totals (when there are trips) + one total per member-day
const COUNT_SQL = `
  SELECT (count(*) + CASE WHEN count(*) > 0 THEN 1 ELSE 0 END + count(DISTINCT (a.ord, ${TRIP_DAY})))::int AS n
  ${TRIPS_OF_MEMBERS}`;

const DAY_TOTALS_SQL = `
  SELECT a.ord, ${TRIP_DAY}::int AS day, count(*)::int AS trips, sum(t.distance)::float8 AS distance,
         sum(t.end_ts - t.start_ts)::float8 AS duration_ms, max(t.speed_max)::float8 AS speed_max,
         min(t.start_ts)::float8 AS start_ts, max(t.end_ts)::float8 AS end_ts
  ${TRIPS_OF_MEMBERS}
   GROUP BY a.ord, 2 ORDER BY a.ord, 2`;

/** A member-day's trips summed, as {@link readTripDayTotals} reads them. */
export interface TripDayTotalRow {
  /** the member's place in the request, 1-based (bigint as text) */
  ord: string;
  /** YYYYMMDD, the member's day of the trips' starts */
  day: number;
  trips: number;
  /** m */
  distance: number;
  /** ms: the trips' durations summed (driving time, not the span) */
  duration_ms: number;
  /** m/s: the day's highest `speed_max` */
  speed_max: number;
  /** ms: the first trip's start, the last end */
  start_ts: number;
  end_ts: number;
}

/** The trips by member (request order; `ord` 1-based), then start, then id, streamed. */
export function readTrips(db: ReportDb, q: TripsQuery): AsyncIterable<TripRow> {
  return db.cursor<TripRow>(ROWS_SQL, [q.companyId, q.memberIds, q.fromMs, q.untilMs]);
}

/**
 * Each member-day's trips summed (the same trips as {@link readTrips}, days in the member's zone), by
 * member (request order) then day, streamed.
 */
export function readTripDayTotals(db: ReportDb, q: TripsQuery): AsyncIterable<TripDayTotalRow> {
  return db.cursor<TripDayTotalRow>(DAY_TOTALS_SQL, [q.companyId, q.memberIds, q.fromMs, q.untilMs, q.timezones]);
}

/** `mileage`'s exact row count: the trips, then (when there are any) a blank row and one total row per member-day (its zone) holding trips. */
export async function countTrips(db: ReportDb, q: TripsQuery): Promise<number> {
  const [row] = await db.query<{ n: number }>(COUNT_SQL, [q.companyId, q.memberIds, q.fromMs, q.untilMs, q.timezones]);
  return row?.n ?? 0;
}
