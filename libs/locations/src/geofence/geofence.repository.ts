import { newId, query, queryOne, SQL_NOW_MS } from '@app/core';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { LOCATION_FIXES_TABLE } from '../fix';
import type { FenceState } from './geofence-engine';
import type { PassFix } from './fix-participants';

/** Company settings the rule needs: IANA zone, default radius (m), dwell (s). */
export interface GeofenceCompany {
  timezone: string;
  defaultRadius: number;
  dwellSeconds: number;
}

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

/** `geofence_states.state`: the engine's states by fence key. */
export interface StoredGeofenceState {
  fences: Record<string, FenceState>;
}

/**
 * Geofencing's SQL, every statement in the caller's transaction and scoped by company. Besides its
 * own tables (`geofence_states`, `checkins`) it reads — a documented read model (docs/geofencing.md) —
 * `companies` (time zone, default radius, dwell), `members` (the event's `who`), `places` (live ones
 * with a location: position, radius and the fields of the place object) and `jobs` (the member's jobs
 * of a day with coordinates); job writes go through `JobsService`.
 */
@Injectable()
export class GeofenceRepository {
  /**
   * Locks the member's state row (creating it when missing) with one statement — an upsert whose
   * no-op `DO UPDATE` takes the row lock — and answers it with the company's settings.
   */
  async lockState(
    db: EntityManager,
    companyId: string,
    memberId: string,
  ): Promise<{ evaluatedTs: number; state: StoredGeofenceState; company: GeofenceCompany | null }> {
    const row = await queryOne<{ evaluatedTs: number; state: Partial<StoredGeofenceState>; company: GeofenceCompany | null }>(
      db,
      `INSERT INTO geofence_states AS g (company_id, member_id, evaluated_ts, state, updated_at) VALUES ($1, $2, 0, '{}', ${SQL_NOW_MS})
       ON CONFLICT (company_id, member_id) DO UPDATE SET updated_at = g.updated_at
       RETURNING g.evaluated_ts::float8 AS "evaluatedTs", g.state,
         (SELECT json_build_object('timezone', c.timezone, 'defaultRadius', c.default_radius, 'dwellSeconds', c.checkin_dwell_seconds)
            FROM companies c WHERE c.id = $1) AS company`,
      [companyId, memberId],
    );
    return { evaluatedTs: row!.evaluatedTs, state: { fences: row!.state.fences ?? {} }, company: row!.company };
  }

  async saveState(db: EntityManager, companyId: string, memberId: string, evaluatedTs: number, state: StoredGeofenceState): Promise<void> {
    await query(
      db,
      `UPDATE geofence_states SET evaluated_ts = $3, state = $4::jsonb, updated_at = ${SQL_NOW_MS} WHERE company_id = $1 AND member_id = $2`,
      [companyId, memberId, evaluatedTs, JSON.stringify(state)],
    );
  }

  /**
   * What one pass reads, in one statement:
   * - `fixes`: the member's fixes with `afterTs` < ts ≤ `untilTs` (ms), ascending, with `bat` (the
   *   pass's participants read them too);
   * - `places`: live places with a location that one of those fixes newer than `range.fenceAfterTs`
   *   (geofencing's own: participants may need older ones) lies within the radius of
   *   (`ST_DWithin` on geography with the effective radius: the company default for 0), plus the live
   *   ones among `placeIds` (fences with a state: a member inside must be seen leaving even when its
   *   new fixes are far away);
   * - `jobs`: the member's own jobs of those fixes' days (YYYYMMDD in the company zone) with coordinates
   *   — the job's destination, else its place's location — and the job's radius (its place's when
   *   > 0, else the company default, as the job view answers `radius`); templates and archived jobs
   *   left out.
   */
  async loadEvaluation(
    db: EntityManager,
    companyId: string,
    memberId: string,
    range: { afterTs: number; untilTs: number; fenceAfterTs: number },
    company: GeofenceCompany,
    placeIds: string[],
  ): Promise<{ fixes: PassFix[]; places: FenceRow[]; jobs: JobFenceRow[] }> {
    const row = await queryOne<{
      fixes: Array<[number, number, number, number | null, number | null]> | null;
      places: FenceRow[] | null;
      jobs: JobFenceRow[] | null;
    }>(
      db,
      `WITH f AS (
         SELECT ts, lat, lng, acc, bat FROM ${LOCATION_FIXES_TABLE}
          WHERE company_id = $1 AND member_id = $2 AND ts > $3 AND ts <= $4),
       own AS (SELECT ts, lat, lng FROM f WHERE ts > $8),
       pts AS (SELECT ST_Collect(ST_SetSRID(ST_MakePoint(lng, lat), 4326))::geography AS g FROM own),
       days AS (SELECT DISTINCT to_char(to_timestamp(ts / 1000.0) AT TIME ZONE $5, 'YYYYMMDD')::int AS day FROM own)
       SELECT
         (SELECT json_agg(json_build_array(ts::float8, lat, lng, acc, bat) ORDER BY ts) FROM f) AS fixes,
         (SELECT json_agg(json_build_object('id', p.id, 'lat', ST_Y(p.location::geometry), 'lng', ST_X(p.location::geometry),
                 'radius', CASE WHEN p.radius > 0 THEN p.radius ELSE $6::int END))
            FROM places p, pts
           WHERE p.company_id = $1 AND p.deleted_at IS NULL AND p.location IS NOT NULL
             AND (p.id = ANY($7::text[]) OR ST_DWithin(p.location, pts.g, CASE WHEN p.radius > 0 THEN p.radius ELSE $6::int END))) AS places,
         (SELECT json_agg(json_build_object('id', j.id, 'day', j.day,
                 'lat', CASE WHEN j.destination_lat IS NOT NULL AND j.destination_lng IS NOT NULL THEN j.destination_lat ELSE ST_Y(p.location::geometry) END,
                 'lng', CASE WHEN j.destination_lat IS NOT NULL AND j.destination_lng IS NOT NULL THEN j.destination_lng ELSE ST_X(p.location::geometry) END,
                 'radius', CASE WHEN p.radius > 0 THEN p.radius ELSE $6::int END))
            FROM jobs j LEFT JOIN places p ON p.id = j.place_uid AND p.company_id = j.company_id
           WHERE j.company_id = $1 AND j.worker_id = $2 AND j.day IN (SELECT day FROM days)
             AND j.is_template = false AND j.archived = false
             AND ((j.destination_lat IS NOT NULL AND j.destination_lng IS NOT NULL) OR p.location IS NOT NULL)) AS jobs`,
      [companyId, memberId, range.afterTs, range.untilTs, company.timezone, company.defaultRadius, placeIds, range.fenceAfterTs],
    );
    return {
      fixes: (row?.fixes ?? []).map(([ts, lat, lng, acc, bat]) => ({ ts, lat, lng, acc, bat })),
      places: row?.places ?? [],
      jobs: row?.jobs ?? [],
    };
  }

  /** The event's `who`: `{uid, name, username}`. */
  member(db: EntityManager, companyId: string, memberId: string): Promise<{ uid: string; name: string; username: string } | undefined> {
    return queryOne(db, `SELECT id AS uid, name, username FROM members WHERE company_id = $1 AND id = $2`, [companyId, memberId]);
  }

  /** Opens a check-in row (out_ts null). */
  async openCheckIn(db: EntityManager, companyId: string, memberId: string, target: CheckInTarget, inTs: number): Promise<void> {
    await query(db, `INSERT INTO checkins (company_id, id, member_id, place_id, job_id, in_ts) VALUES ($1, $2, $3, $4, $5, $6)`, [
      companyId,
      newId(),
      memberId,
      target.placeId ?? null,
      target.jobId ?? null,
      inTs,
    ]);
  }

  /** Closes the open check-in row of the visit that began at `inTs`: out_ts and duration (ms). */
  async closeCheckIn(
    db: EntityManager,
    companyId: string,
    memberId: string,
    target: CheckInTarget,
    inTs: number,
    outTs: number,
  ): Promise<void> {
    const column = target.placeId ? 'place_id' : 'job_id';
    await query(
      db,
      `UPDATE checkins SET out_ts = $5, duration = $5 - in_ts
        WHERE company_id = $1 AND member_id = $2 AND ${column} = $3 AND in_ts = $4 AND out_ts IS NULL`,
      [companyId, memberId, target.placeId ?? target.jobId, inTs, outTs],
    );
  }
}

/** What a check-in is at: a place or a job. */
export type CheckInTarget = { placeId: string; jobId?: undefined } | { jobId: string; placeId?: undefined };
