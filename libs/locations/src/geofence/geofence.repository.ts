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

/** A member of a company. */
export interface MemberKey {
  companyId: string;
  memberId: string;
}

/** A member's state row as {@link GeofenceRepository.lockStates} locked it, with the company's settings (null: unknown company). */
export interface LockedState {
  evaluatedTs: number;
  state: StoredGeofenceState;
  company: GeofenceCompany | null;
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

/** What {@link GeofenceRepository.loadEvaluations} answers for one member. */
export interface EvaluationInput {
  fixes: PassFix[];
  places: FenceRow[];
  jobs: JobFenceRow[];
}

/** A member's state as a pass leaves it: evaluated up to `evaluatedTs` (ms). */
export interface StateSave extends MemberKey {
  evaluatedTs: number;
  state: StoredGeofenceState;
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
   * Locks the state rows of `members` (creating the missing ones) with one statement — an upsert
   * whose no-op `DO UPDATE` takes each row's lock, in (company, member) order so two passes over
   * overlapping members wait for each other instead of deadlocking — and answers each with its
   * company's settings (null for an unknown company), in the order of `members` (which must not
   * repeat a member: one statement cannot lock a row twice).
   */
  async lockStates(db: EntityManager, members: readonly MemberKey[]): Promise<LockedState[]> {
    const rows = await query<{ companyId: string; memberId: string; evaluatedTs: number; state: Partial<StoredGeofenceState>; company: GeofenceCompany | null }>(
      db,
      `INSERT INTO geofence_states AS g (company_id, member_id, evaluated_ts, state, updated_at)
       SELECT u.c, u.m, 0, '{}', ${SQL_NOW_MS} FROM unnest($1::text[], $2::text[]) AS u(c, m) ORDER BY u.c, u.m
       ON CONFLICT (company_id, member_id) DO UPDATE SET updated_at = g.updated_at
       RETURNING g.company_id AS "companyId", g.member_id AS "memberId", g.evaluated_ts::float8 AS "evaluatedTs", g.state,
         (SELECT json_build_object('timezone', c.timezone, 'defaultRadius', c.default_radius, 'dwellSeconds', c.checkin_dwell_seconds)
            FROM companies c WHERE c.id = g.company_id) AS company`,
      [members.map((m) => m.companyId), members.map((m) => m.memberId)],
    );
    const byKey = new Map(rows.map((r) => [`${r.companyId}:${r.memberId}`, r]));
    return members.map((m) => {
      const row = byKey.get(`${m.companyId}:${m.memberId}`)!;
      return { evaluatedTs: row.evaluatedTs, state: { fences: row.state.fences ?? {} }, company: row.company };
    });
  }

  /** Writes the state rows (locked by {@link lockStates}) in one statement: `evaluated_ts` (ms) and the state. */
  async saveStates(db: EntityManager, saves: readonly StateSave[]): Promise<void> {
    if (!saves.length) return;
    await query(
      db,
      `UPDATE geofence_states g SET evaluated_ts = u.ts, state = u.state::jsonb, updated_at = ${SQL_NOW_MS}
         FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[]) AS u(c, m, ts, state)
        WHERE g.company_id = u.c AND g.member_id = u.m`,
      [saves.map((s) => s.companyId), saves.map((s) => s.memberId), saves.map((s) => s.evaluatedTs), saves.map((s) => JSON.stringify(s.state))],
    );
  }

  /**
   * What one pass reads for each of `reads`, in one statement (a lateral subquery per member),
   * answered in the order of `reads`:
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
  async loadEvaluations(db: EntityManager, reads: readonly EvaluationRead[]): Promise<EvaluationInput[]> {
    if (!reads.length) return [];
    const rows = await query<{
      k: number;
      fixes: Array<[number, number, number, number | null, number | null]> | null;
      places: FenceRow[] | null;
      jobs: JobFenceRow[] | null;
    }>(
      db,
      `SELECT s.k, x.fixes, x.places, x.jobs
         FROM json_to_recordset($1::json) AS s(k int, c text, m text, after_ts bigint, until_ts bigint, fence_after_ts bigint,
                                               tz text, radius int, place_ids text[])
         CROSS JOIN LATERAL (
           WITH f AS (
             SELECT ts, lat, lng, acc, bat FROM ${LOCATION_FIXES_TABLE}
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
