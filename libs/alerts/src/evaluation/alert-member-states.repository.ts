import { query, SQL_NOW_MS } from '@app/core';
import type { FenceState, MemberFixStateSave } from '@app/locations';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { StillPeriod } from './fix-rules';

/**
 * `alert_member_states.state`: zone visits by zone id (the geofence engine's states), the battery
 * rules that fired and have not re-armed (`{low: true}` by rule id; absent = armed), the still period.
 */
export interface AlertFixState {
  zones: Record<string, FenceState>;
  battery: Record<string, { low: boolean }>;
  still: StillPeriod | null;
}

/** A member's alert state as a pass leaves it: evaluated up to `evaluatedTs` (ms); `state` null = unchanged. */
export type AlertStateSave = Omit<MemberFixStateSave<AlertFixState>, 'state'> & { state: AlertFixState | null };

/**
 * Every SQL statement on `alert_member_states` (the evaluation's per-member state; its reads that
 * join other libs' tables are in the read models `members-rule-targets.read.ts` and
 * `locations-clock-candidates.read.ts`).
 */
@Injectable()
export class AlertMemberStatesRepository {
  /**
   * Writes members' state rows in one statement: `evaluated_ts` (ms) always, `state` only when given
   * (null = unchanged: an existing row keeps its stored state, a new one gets `{}`); the missing rows
   * are created. The caller holds the members' locks (geofencing's pass, `geofence_states`), so no
   * one else writes these rows meanwhile.
   */
  async saveStates(db: EntityManager, saves: readonly AlertStateSave[]): Promise<void> {
    if (!saves.length) return;
    await query(
      db,
      `WITH u AS (SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[]) AS u(c, m, ts, state)),
       updated AS (
         UPDATE alert_member_states s SET evaluated_ts = u.ts, state = coalesce(u.state::jsonb, s.state), updated_at = ${SQL_NOW_MS}
           FROM u WHERE s.company_id = u.c AND s.member_id = u.m
         RETURNING s.company_id, s.member_id)
       INSERT INTO alert_member_states (company_id, member_id, evaluated_ts, state, updated_at)
       SELECT u.c, u.m, u.ts, coalesce(u.state::jsonb, '{}'), ${SQL_NOW_MS} FROM u
        WHERE NOT EXISTS (SELECT 1 FROM updated d WHERE d.company_id = u.c AND d.member_id = u.m)`,
      [
        saves.map((s) => s.companyId),
        saves.map((s) => s.memberId),
        saves.map((s) => s.evaluatedTs),
        saves.map((s) => (s.state === null ? null : JSON.stringify(s.state))),
      ],
    );
  }
}
