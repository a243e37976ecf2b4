import { query, Queryable } from '@app/core';

/**
 * One job of a member's day as dispatch reads it: what routing and capacity need, with the job's
 * coordinates — its own destination when both are set, else its place's location, else null.
 */
export interface DayJob {
  id: string;
  workerId: string;
  /** YYYYMMDD */
  day: number;
  /** the stored route order */
  number: number;
  /** ms */
  tsCreated: number;
  /** ms, 0 = not done */
  tsDoneSuccess: number;
  /** ms, 0 = not done */
  tsDoneFailed: number;
  teamId: number;
  itemsToPickup: number;
  itemsToDropoff: number;
  /** degrees; null when neither the job nor its place has a position */
  lat: number | null;
  lng: number | null;
}

/**
 * The non-archived, non-template jobs of `day` (YYYYMMDD) assigned to any of `memberIds`, in their
 * current order (`number`, then `tsCreated`, then id — getjobs' default order), with coordinates (the
 * job's own, else its place's — also a soft-deleted place's: the job still names it).
 *
 * A documented read model across domains (like the geofence's): `jobs` is owned by `@app/jobs` and
 * `places` by `@app/places`; this reads only the columns above, and every write goes through
 * `JobsService`. `lock: true` takes the jobs' row locks (`FOR UPDATE OF j`, in id order so
 * concurrent calls cannot deadlock) inside the caller's transaction: the run's writing transaction
 * re-reads under them before it renumbers.
 */
export async function readDayJobs(
  db: Queryable,
  companyId: string,
  memberIds: readonly string[],
  day: number,
  opts: { lock?: boolean } = {},
): Promise<DayJob[]> {
  if (!memberIds.length) return [];
  const select = `SELECT j.id, j.worker_id AS "workerId", j.day, j.number, j.ts_created::float8 AS "tsCreated",
         j.ts_done_success::float8 AS "tsDoneSuccess", j.ts_done_failed::float8 AS "tsDoneFailed", j.team_id AS "teamId",
         j.items_to_pickup AS "itemsToPickup", j.items_to_dropoff AS "itemsToDropoff",
         CASE WHEN j.destination_lat IS NOT NULL AND j.destination_lng IS NOT NULL THEN j.destination_lat ELSE ST_Y(p.location::geometry) END AS lat,
         CASE WHEN j.destination_lat IS NOT NULL AND j.destination_lng IS NOT NULL THEN j.destination_lng ELSE ST_X(p.location::geometry) END AS lng
    FROM jobs j LEFT JOIN places p ON p.id = j.place_uid AND p.company_id = j.company_id
   WHERE j.company_id = $1 AND j.worker_id = ANY($2::varchar[]) AND j.day = $3 AND j.is_template = false AND j.archived = false`;
  if (!opts.lock) return query<DayJob>(db, `${select} ORDER BY j.number, j.ts_created, j.id`, [companyId, memberIds, day]);
  // lock in id order, answer in route order
  const rows = await query<DayJob>(db, `${select} ORDER BY j.id FOR UPDATE OF j`, [companyId, memberIds, day]);
  return rows.sort((a, b) => a.number - b.number || a.tsCreated - b.tsCreated || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
