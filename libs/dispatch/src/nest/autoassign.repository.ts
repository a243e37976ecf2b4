import { query, Queryable } from '@app/core';
import type { DayHours, TeamConfig, WorkingHours } from '@app/members';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * A job as autoassign and distributejobs read it: where it is (its own coordinates, else its live
 * place's), its day, assignee, state and load.
 */
export interface DispatchJobRow {
  id: string;
  /** YYYYMMDD, 0 = undated */
  day: number;
  workerId: string | null;
  archived: boolean;
  /** a done timestamp is set (tsDoneSuccess or tsDoneFailed) */
  completed: boolean;
  teamId: number;
  /** degrees; null when neither the job nor its place has coordinates */
  lat: number | null;
  lng: number | null;
  itemsToPickup: number;
  itemsToDropoff: number;
}

/** A member as autoassign reads it: who it is, when it works, what it carries, where its route starts. */
export interface DispatchMemberRow {
  id: string;
  username: string;
  role: string;
  active: boolean;
  teams: number[];
  vehicleCapacity: number | null;
  workingHours: WorkingHours | null;
  workingHoursOverrides: Record<string, DayHours>;
  /** ms */
  ignoreWorkingHoursUntilTs: number;
  routeStartLat: number | null;
  routeStartLng: number | null;
  routeEndLat: number | null;
  routeEndLng: number | null;
}

/** The company settings autoassign reads. */
export interface DispatchCompanyRow {
  timezone: string;
  workingHours: WorkingHours | null;
  teamsConfig: TeamConfig[];
}

/** A job already on a worker's day: counts toward its capacity and route. */
export interface ExistingJobRow {
  workerId: string;
  day: number;
  lat: number | null;
  lng: number | null;
  itemsToPickup: number;
  itemsToDropoff: number;
}

/** where a job is (its own coordinates, else its place's) and what it loads */
const WHERE_AND_LOAD = `CASE WHEN j.destination_lat IS NOT NULL AND j.destination_lng IS NOT NULL THEN j.destination_lat ELSE ST_Y(p.location::geometry) END AS lat,
  CASE WHEN j.destination_lat IS NOT NULL AND j.destination_lng IS NOT NULL THEN j.destination_lng ELSE ST_X(p.location::geometry) END AS lng,
  j.items_to_pickup AS "itemsToPickup", j.items_to_dropoff AS "itemsToDropoff"`;
const JOB_COLUMNS = `j.id, j.day, j.worker_id AS "workerId", j.archived,
  (j.ts_done_success > 0 OR j.ts_done_failed > 0) AS completed, j.team_id AS "teamId", ${WHERE_AND_LOAD}`;
const PLACE_JOIN = `LEFT JOIN places p ON p.id = j.place_uid AND p.company_id = j.company_id AND p.deleted_at IS NULL`;

const MEMBER_COLUMNS = `id, username, role, active_status = 'active' AS active, teams, vehicle_capacity AS "vehicleCapacity",
  working_hours AS "workingHours", working_hours_overrides AS "workingHoursOverrides",
  ignore_working_hours_until_ts::float8 AS "ignoreWorkingHoursUntilTs", route_start_lat AS "routeStartLat",
  route_start_lng AS "routeStartLng", route_end_lat AS "routeEndLat", route_end_lng AS "routeEndLng"`;

/**
 * The reads of distributejobs and autoassign, each scoped to one company.
 *
 * A documented read model across domains (docs/dispatch-assign.md): `jobs` (owned by `@app/jobs`),
 * `places` (a place's location, for jobs without their own), `members`, `companies` and
 * `member_locations` (a member's latest fix as a route start). Only these columns are read; every
 * write goes through `JobsService`.
 */
@Injectable()
export class DispatchReadRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Non-template jobs of the company among `ids` (unknown and other companies' ids are left out). */
  jobsByIds(companyId: string, ids: readonly string[], db: Queryable = this.dataSource): Promise<DispatchJobRow[]> {
    return query<DispatchJobRow>(
      db,
      `SELECT ${JOB_COLUMNS} FROM jobs j ${PLACE_JOIN}
        WHERE j.company_id = $1 AND j.id = ANY($2::varchar[]) AND NOT j.is_template`,
      [companyId, ids],
    );
  }

  /** Members of the company named by uid or username (case-insensitive), active or not. */
  membersByRefs(companyId: string, refs: readonly string[]): Promise<DispatchMemberRow[]> {
    return query<DispatchMemberRow>(
      this.dataSource,
      `SELECT ${MEMBER_COLUMNS} FROM members
        WHERE company_id = $1 AND (id = ANY($2::varchar[]) OR lower(username) = ANY($3::text[]))`,
      [companyId, refs, refs.map((r) => r.toLowerCase())],
    );
  }

  /** Every active member of role `worker` (createjobs with autoassign). */
  activeWorkers(companyId: string): Promise<DispatchMemberRow[]> {
    return query<DispatchMemberRow>(
      this.dataSource,
      `SELECT ${MEMBER_COLUMNS} FROM members WHERE company_id = $1 AND active_status = 'active' AND role = 'worker' ORDER BY id`,
      [companyId],
    );
  }

  async company(companyId: string): Promise<DispatchCompanyRow> {
    const [row] = await query<DispatchCompanyRow>(
      this.dataSource,
      `SELECT timezone, working_hours AS "workingHours", teams_config AS "teamsConfig" FROM companies WHERE id = $1`,
      [companyId],
    );
    return row;
  }

  /**
   * The non-archived, non-template jobs of `workerIds` on `days`, except `exclude` (the jobs being
   * (re)assigned): what each worker already has on a day.
   */
  existingJobs(
    companyId: string,
    workerIds: readonly string[],
    days: readonly number[],
    exclude: readonly string[],
  ): Promise<ExistingJobRow[]> {
    if (!workerIds.length || !days.length) return Promise.resolve([]);
    return query<ExistingJobRow>(
      this.dataSource,
      `SELECT j.worker_id AS "workerId", j.day, ${WHERE_AND_LOAD}
         FROM jobs j ${PLACE_JOIN}
        WHERE j.company_id = $1 AND j.worker_id = ANY($2::varchar[]) AND j.day = ANY($3::int[])
          AND NOT j.archived AND NOT j.is_template AND NOT (j.id = ANY($4::varchar[]))`,
      [companyId, workerIds, days, exclude],
    );
  }

  /** The latest known position of each member (degrees), for routes of today. */
  async latestLocations(companyId: string, memberIds: readonly string[]): Promise<Map<string, { lat: number; lng: number }>> {
    if (!memberIds.length) return new Map();
    const rows = await query<{ member_id: string; lat: number; lng: number }>(
      this.dataSource,
      `SELECT member_id, lat, lng FROM member_locations
        WHERE company_id = $1 AND member_id = ANY($2::varchar[]) AND lat IS NOT NULL AND lng IS NOT NULL`,
      [companyId, memberIds],
    );
    return new Map(rows.map((r) => [r.member_id, { lat: r.lat, lng: r.lng }]));
  }

  /** Live places' locations by uid (degrees); places without one are left out. */
  async placeLocations(companyId: string, uids: readonly string[]): Promise<Map<string, { lat: number; lng: number }>> {
    if (!uids.length) return new Map();
    const rows = await query<{ id: string; lat: number; lng: number }>(
      this.dataSource,
      `SELECT id, ST_Y(location::geometry) AS lat, ST_X(location::geometry) AS lng FROM places
        WHERE company_id = $1 AND id = ANY($2::varchar[]) AND deleted_at IS NULL AND location IS NOT NULL`,
      [companyId, uids],
    );
    return new Map(rows.map((r) => [r.id, { lat: r.lat, lng: r.lng }]));
  }
}
