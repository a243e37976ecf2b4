import { namedQuery, newId, query, Queryable, SQL_NOW_MS } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { StoredGeofenceState } from '../entities/geofence-state.entity';
import type { MemberFixStateSave } from '../entities/member-fix-state';

/** Company settings the rule needs: IANA zone, default radius (m), dwell (s). */
export interface GeofenceCompany {
  timezone: string;
  defaultRadius: number;
  dwellSeconds: number;
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

/** A member's state as a pass leaves it: evaluated up to `evaluatedTs` (ms). */
export type StateSave = MemberFixStateSave<StoredGeofenceState>;

/**
 * Geofencing's SQL of its own tables (`geofence_states`, `checkins`), every statement in the caller's
 * transaction and scoped by company. Reads of other libs' tables are in {@link readGeofenceEvaluations}
 * (`places`, `jobs`) and {@link readEventWho} (`members`); job writes go through `JobsService`.
 * The statements every pass runs (lock, save) are named prepared statements ({@link namedQuery}).
 */
@Injectable()
export class GeofenceRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `fn` in one transaction. */
  transaction<T>(fn: (db: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(fn);
  }

  /**
   * Locks the state rows of `members` (creating the missing ones) with one statement — an upsert
   * whose no-op `DO UPDATE` takes each row's lock, in (company, member) order so two passes over
   * overlapping members wait for each other instead of deadlocking — and answers each with its
   * company's settings (null for an unknown company), in the order of `members` (which must not
   * repeat a member: one statement cannot lock a row twice).
   */
  async lockStates(db: Queryable, members: readonly MemberKey[]): Promise<LockedState[]> {
    const rows = await namedQuery<{
      companyId: string;
      memberId: string;
      evaluatedTs: number;
      state: Partial<StoredGeofenceState>;
      company: GeofenceCompany | null;
    }>(
      db,
      'fieldwork_geofence_lock',
      // eslint-disable-next-line fieldwork/sql-owners -- the lock answers each member's company settings from `companies` (the members lib's) in the same statement: a separate read would add a round trip to every geofence pass
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
  async saveStates(db: Queryable, saves: readonly StateSave[]): Promise<void> {
    if (!saves.length) return;
    await namedQuery(
      db,
      'fieldwork_geofence_save',
      `UPDATE geofence_states g SET evaluated_ts = u.ts, state = u.state::jsonb, updated_at = ${SQL_NOW_MS}
         FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[]) AS u(c, m, ts, state)
        WHERE g.company_id = u.c AND g.member_id = u.m`,
      [
        saves.map((s) => s.companyId),
        saves.map((s) => s.memberId),
        saves.map((s) => s.evaluatedTs),
        saves.map((s) => JSON.stringify(s.state)),
      ],
    );
  }

  /** Opens a check-in row (out_ts null). */
  async openCheckIn(db: Queryable, companyId: string, memberId: string, target: CheckInTarget, inTs: number): Promise<void> {
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
    db: Queryable,
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
