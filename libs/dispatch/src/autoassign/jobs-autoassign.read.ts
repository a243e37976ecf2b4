import { query, Queryable } from '@app/core';
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

/**
 * The jobs distributejobs and autoassign read, each read scoped to one company.
 *
 * A documented read model across domains (docs/dispatch-assign.md): `jobs` (owned by `@app/jobs`)
 * joined to `places` (owned by `@app/places`: a live place's location, for jobs without their own).
 * Only these columns are read; every write goes through `JobsService`.
 */
@Injectable()
export class JobsAutoassignRead {
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
}
