import { namedQuery, Queryable } from '@app/core';
import type { PassFix } from './fix-participants.registry';
import type { GeofenceCompany, MemberKey } from './geofence.repository';

/** A candidate fence as read: id, centre (degrees), effective radius (m, the company default for 0). */
export interface FenceRow {
  id: string;
  lat: number;
  lng: number;
  radius: number;
}

/** A job fence: a {@link FenceRow} with the job's day (YYYYMMDD). */
export interface JobFenceRow extends FenceRow {
  day: number;
}

/**
 * One member's read of a pass: its fixes with `afterTs` < ts ≤ `untilTs` (ms), the fences near those
 * newer than `fenceAfterTs`, and the places of `placeIds` (fences with a state).
 */
export interface EvaluationRead extends MemberKey {
  afterTs: number;
  untilTs: number;
  fenceAfterTs: number;
  company: GeofenceCompany;
  placeIds: string[];
}

/** What {@link readGeofenceEvaluations} answers for one member. */
export interface EvaluationInput {
  fixes: PassFix[];
  places: FenceRow[];
  jobs: JobFenceRow[];
}

/**
 * What one geofence pass reads for each of `reads`, in one statement (a lateral subquery per
 * member), answered in the order of `reads` — a read model across libs: this lib's `location_fixes`,
 * the places lib's `places` and the jobs lib's `jobs` (joined to their places):
 * - `fixes`: the member's fixes with `afterTs` < ts ≤ `untilTs` (ms), ascending, with `bat` (the
 *   pass's participants read them too);
 * - `places`: live places of the member's company with a location that one of those fixes newer
 *   than `fenceAfterTs` (geofencing's own: participants may need older ones) lies within the
 *   radius of (`ST_DWithin` on geography with the effective radius: the company default for 0),
 *   plus the live ones among `placeIds` (fences with a state: a member inside must be seen leaving
 *   even when its new fixes are far away);
 * - `jobs`: the member's own jobs of those fixes' days (YYYYMMDD in the company zone) with coordinates
 *   — the job's destination, else its place's location — and the job's radius (its place's when
 *   > 0, else the company default, as the job view answers `radius`); templates and archived jobs
 *   left out.
 */
/* A named prepared statement ({@link namedQuery}): planning this text on every pass cost PostgreSQL about 4× running it. */
export async function readGeofenceEvaluations(db: Queryable, reads: readonly EvaluationRead[]): Promise<EvaluationInput[]> {
  if (!reads.length) return [];
  const rows = await namedQuery<{
    k: number;
    fixes: Array<[number, number, number, number | null, number | null]> | null;
    places: FenceRow[] | null;
    jobs: JobFenceRow[] | null;
  }>(
    db,
    'fieldwork_geofence_read',
    `SELECT s.k, x.fixes, x.places, x.jobs
       FROM json_to_recordset($1::json) AS s(k int, c text, m text, after_ts bigint, until_ts bigint, fence_after_ts bigint,
                                             tz text, radius int, place_ids text[])
       CROSS JOIN LATERAL (
         WITH f AS (
           SELECT ts, lat, lng, acc, bat FROM location_fixes
            WHERE company_id = s.c AND member_id = s.m AND ts > s.after_ts AND ts <= s.until_ts),
         own AS (SELECT ts, lat, lng FROM f WHERE ts > s.fence_after_ts),
         pts AS (SELECT ST_Collect(ST_SetSRID(ST_MakePoint(lng, lat), 4326))::geography AS g FROM own),
         days AS (SELECT DISTINCT to_char(to_timestamp(ts / 1000.0) AT TIME ZONE s.tz, 'YYYYMMDD')::int AS day FROM own)
         SELECT
           (SELECT json_agg(json_build_array(ts::float8, lat, lng, acc, bat) ORDER BY ts) FROM f) AS fixes,
           (SELECT json_agg(json_build_object('id', p.id, 'lat', ST_Y(p.location::geometry), 'lng', ST_X(p.location::geometry),
                   'radius', CASE WHEN p.radius > 0 THEN p.radius ELSE s.radius END))
              FROM places p, pts
             WHERE p.company_id = s.c AND p.deleted_at IS NULL AND p.location IS NOT NULL
               AND (p.id = ANY(s.place_ids) OR ST_DWithin(p.location, pts.g, CASE WHEN p.radius > 0 THEN p.radius ELSE s.radius END))) AS places,
           (SELECT json_agg(json_build_object('id', j.id, 'day', j.day,
                   'lat', CASE WHEN j.destination_lat IS NOT NULL AND j.destination_lng IS NOT NULL THEN j.destination_lat ELSE ST_Y(p.location::geometry) END,
                   'lng', CASE WHEN j.destination_lat IS NOT NULL AND j.destination_lng IS NOT NULL THEN j.destination_lng ELSE ST_X(p.location::geometry) END,
                   'radius', CASE WHEN p.radius > 0 THEN p.radius ELSE s.radius END))
              FROM jobs j LEFT JOIN places p ON p.id = j.place_uid AND p.company_id = j.company_id
             WHERE j.company_id = s.c AND j.worker_id = s.m AND j.day IN (SELECT day FROM days)
               AND j.is_template = false AND j.archived = false
               AND ((j.destination_lat IS NOT NULL AND j.destination_lng IS NOT NULL) OR p.location IS NOT NULL)) AS jobs
       ) x`,
    [
      JSON.stringify(
        reads.map((r, k) => ({
          k,
          c: r.companyId,
          m: r.memberId,
          after_ts: r.afterTs,
          until_ts: r.untilTs,
          fence_after_ts: r.fenceAfterTs,
          tz: r.company.timezone,
          radius: r.company.defaultRadius,
          place_ids: r.placeIds,
        })),
      ),
    ],
  );
  const byK = new Map(rows.map((r) => [r.k, r]));
  return reads.map((_, k) => {
    const row = byK.get(k);
    return {
      fixes: (row?.fixes ?? []).map(([ts, lat, lng, acc, bat]) => ({ ts, lat, lng, acc, bat })),
      places: row?.places ?? [],
      jobs: row?.jobs ?? [],
    };
  });
}
