import { query, Queryable } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

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
 * The day's jobs optimizeroute reads: the ones it orders, and the same re-read under their row locks
 * by the run's writing transaction before it renumbers.
 *
 * A documented read model across domains (like the geofence's): `jobs` is owned by `@app/jobs` and
 * `places` by `@app/places`; this reads only the columns of {@link DayJob}, and every write goes
 * through `JobsService`.
 */
@Injectable()
export class JobsDayRead {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The non-archived, non-template jobs of `day` (YYYYMMDD) assigned to any of `memberIds`, in their
   * current order (`number`, then `tsCreated`, then id — getjobs' default order), with coordinates (the
   * job's own, else its place's — also a soft-deleted place's: the job still names it). Over the pool,
   * or the caller's transaction `db`. `lock: true` takes the jobs' row locks (`FOR UPDATE OF j`, in id
   * order so concurrent calls cannot deadlock) inside `db`, which must then be a transaction.
   */
  async dayJobs(
    companyId: string,
    memberIds: readonly string[],
    day: number,
    opts: { lock?: boolean; db?: Queryable } = {},
  ): Promise<DayJob[]> {
    if (!memberIds.length) return [];
    const db = opts.db ?? this.dataSource;
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
}
