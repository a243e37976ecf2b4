import { query, queryOne, Queryable, SQL_NOW_MS } from '@app/core';
import type { AlertAction } from '../alert-actions';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { AlertRule } from '../entities/alert-rule.entity';
import type { StillPeriod } from './fix-rules';
import type { FenceState } from '@app/locations';

/** Company settings the evaluation needs: its id (the payload's `companyUid`), IANA zone, dwell (s). */
export interface EvaluationCompany {
  id: string;
  timezone: string;
  dwellSeconds: number;
}

/**
 * `alert_member_states.state`: zone visits by zone id (the geofence engine's states), the battery
 * rules that fired and have not re-armed (`{low: true}` by rule id; absent = armed), the still period.
 */
export interface AlertFixState {
  zones: Record<string, FenceState>;
  battery: Record<string, { low: boolean }>;
  still: StillPeriod | null;
}

/** A candidate zone with its class for each fix of the batch (`i` covered, `e` within the 20 m band, `o` beyond), in fix order. */
export interface ClassifiedZone {
  id: string;
  name: string;
  danger: boolean;
  classes: string;
}

/** A member's alert state as a pass leaves it: evaluated up to `evaluatedTs` (ms); `state` null = unchanged. */
export interface AlertStateSave {
  companyId: string;
  memberId: string;
  evaluatedTs: number;
  state: AlertFixState | null;
}

/** One member's share of a zone classification: its fixes (in order) and the zones its rules watch. */
export interface ZoneRead {
  companyId: string;
  fixes: ReadonlyArray<{ lat: number; lng: number }>;
  /** zones named by its rules */
  zoneIds: string[];
  /** whether a rule watches every danger zone */
  anyDanger: boolean;
  /** zones it has a state for */
  statedIds: string[];
}

/** m: the band outside a zone's polygon that still counts as "still in" (CONTRACTS.md "Alerts and zones"). */
export const ZONE_BAND_M = 20;

/** A rule as one JSON object with the entity's property names (bigints as JSON numbers). */
const RULE_JSON = `json_build_object('id', r.id, 'companyId', r.company_id, 'title', r.title, 'description', r.description,
  'action', r.action, 'members', r.members, 'teams', r.teams, 'placeId', r.place_id, 'zoneId', r.zone_id,
  'interval', r."interval", 'threshold', r.threshold, 'window', r."window", 'active', r.active,
  'createdAt', r.created_at, 'updatedAt', r.updated_at, 'deletedAt', r.deleted_at)`;

/**
 * SQL: rule `r` targets member `m` (CONTRACTS.md "Alerts and zones"): `r.members` lists it, or one of
 * `r.teams` is among its teams; neither set = every worker (role worker) of the company. The member
 * must be active (deactivated members never fire). `ruleTargets` (targets.ts) is the same rule in
 * memory, for cached rules.
 */
export const TARGETS_SQL = `(m.company_id = r.company_id AND m.active_status = 'active' AND
  CASE WHEN jsonb_array_length(r.members) = 0 AND jsonb_array_length(r.teams) = 0 THEN m.role = 'worker'
       ELSE r.members ? m.id OR EXISTS (SELECT 1 FROM jsonb_array_elements(r.teams) t(v) WHERE m.teams @> jsonb_build_array(t.v)) END)`;

/** SQL: rule `r` is live (active, not deleted). */
const LIVE_RULE_SQL = `r.active AND r.deleted_at IS NULL`;

/**
 * The evaluation's SQL, every statement scoped by company. Besides its own table
 * (`alert_member_states`) and `alert_firings`, it reads — a documented read model
 * (docs/alerts-evaluation.md) — `alert_rules` and `zones` (the rule and zone helpers' tables),
 * `companies` (zone, dwell), `members` (targets, names), `location_fixes`, `member_locations`
 * (tracking state, latest fix) and `checkins` (the geofence's visits).
 */
@Injectable()
export class EvaluationRepository {
  /** The company's evaluation settings; undefined for an unknown id. */
  company(db: Queryable, companyId: string): Promise<EvaluationCompany | undefined> {
    return queryOne(db, `SELECT id, timezone, checkin_dwell_seconds AS "dwellSeconds" FROM companies WHERE id = $1`, [companyId]);
  }

  /** The live rules of `actions` that target the member (none when it is deactivated or unknown). */
  async rulesForMember(db: Queryable, companyId: string, memberId: string, actions: readonly AlertAction[]): Promise<AlertRule[]> {
    const rows = await query<{ rule: AlertRule }>(
      db,
      `SELECT ${RULE_JSON} AS rule FROM alert_rules r JOIN members m ON m.company_id = r.company_id AND m.id = $2
        WHERE r.company_id = $1 AND r.action = ANY($3::text[]) AND ${LIVE_RULE_SQL} AND ${TARGETS_SQL}`,
      [companyId, memberId, actions],
    );
    return rows.map((r) => r.rule);
  }

  /** Every live rule of the company (any action). */
  async liveCompanyRules(db: Queryable, companyId: string): Promise<AlertRule[]> {
    const rows = await query<{ rule: AlertRule }>(db, `SELECT ${RULE_JSON} AS rule FROM alert_rules r WHERE r.company_id = $1 AND ${LIVE_RULE_SQL}`, [
      companyId,
    ]);
    return rows.map((r) => r.rule);
  }

  /** The live rules of `actions` of every company, with the company's settings. */
  async liveRules(db: Queryable, actions: readonly AlertAction[]): Promise<Array<{ rule: AlertRule; company: EvaluationCompany }>> {
    return query(
      db,
      `SELECT ${RULE_JSON} AS rule, json_build_object('id', c.id, 'timezone', c.timezone, 'dwellSeconds', c.checkin_dwell_seconds) AS company
         FROM alert_rules r JOIN companies c ON c.id = r.company_id
        WHERE r.action = ANY($1::text[]) AND ${LIVE_RULE_SQL} ORDER BY r.company_id, r.id`,
      [actions],
    );
  }

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

  /**
   * For each of `reads` (a member's fixes, degrees, in order, with the zones it watches), its
   * candidate zones classified against each of its fixes, in one statement, answered in the order of
   * `reads`: live zones of the member's company among `zoneIds` (watched by a rule) or, with
   * `anyDanger`, any live danger zone, that lie within {@link ZONE_BAND_M} of one of its fixes, or
   * are among `statedIds` (a member inside must be seen leaving). The GiST index of
   * `(company_id, polygon)` is probed once per member and ~1 km cell its fixes fall in (0.01° of
   * latitude and of longitude), with the cell's fixes as one multipoint: one probe for a member
   * walking about, a few for a drive — where a probe per fix cost ~45 µs each, and one box around a
   * whole batch would fetch every zone a long drive spans. Class per fix: `i` when
   * `ST_Covers(polygon, fix)`, `e` when within the band, else `o`.
   *
   * The two zone lookups are lateral subqueries fenced with `OFFSET 0`: flattened, the planner
   * (which cannot estimate `json_to_recordset`) hash-joined every member's zones with every cell and
   * ran `ST_DWithin` on each pair — 12.8 s for 16 members of the alerts bench against 0.1 s with the
   * index probed per cell (`EXPLAIN ANALYZE`, 2026-11-26).
   */
  async classifyZones(db: EntityManager, reads: readonly ZoneRead[]): Promise<ClassifiedZone[][]> {
    if (!reads.length) return [];
    const k: number[] = [];
    const lats: number[] = [];
    const lngs: number[] = [];
    for (const [i, r] of reads.entries()) {
      for (const f of r.fixes) {
        k.push(i);
        lats.push(f.lat);
        lngs.push(f.lng);
      }
    }
    const rows = await query<{ k: number; zones: ClassifiedZone[] }>(
      db,
      `WITH f AS (
         SELECT u.k, u.i, u.lat, u.lng, ST_SetSRID(ST_MakePoint(u.lng, u.lat), 4326)::geography AS g
           FROM unnest($1::int[], $2::float8[], $3::float8[]) WITH ORDINALITY AS u(k, lat, lng, i)),
       s AS (SELECT * FROM json_to_recordset($4::json) AS s(k int, c text, zone_ids text[], any_danger boolean, stated_ids text[])),
       cells AS (
         SELECT k, ST_Collect(ST_SetSRID(ST_MakePoint(lng, lat), 4326))::geography AS g FROM f GROUP BY k, floor(lat * 100), floor(lng * 100)),
       near AS (
         SELECT c.k, n.id FROM cells c JOIN s ON s.k = c.k
          CROSS JOIN LATERAL (
            SELECT z.id FROM zones z
             WHERE z.company_id = s.c AND z.deleted_at IS NULL AND ST_DWithin(z.polygon, c.g, ${ZONE_BAND_M})
               AND (z.id = ANY(s.zone_ids) OR (s.any_danger AND z.danger))
            OFFSET 0) n),
       stated AS (
         SELECT s.k, n.id FROM s CROSS JOIN LATERAL (
            SELECT z.id FROM zones z
             WHERE z.id = ANY(s.stated_ids) AND z.company_id = s.c AND z.deleted_at IS NULL
               AND (z.id = ANY(s.zone_ids) OR (s.any_danger AND z.danger))
            OFFSET 0) n),
       cand AS (SELECT k, id FROM near UNION SELECT k, id FROM stated),
       classified AS (
         SELECT c.k, z.id, z.name, z.danger,
                string_agg(CASE WHEN ST_Covers(z.polygon, f.g) THEN 'i' WHEN ST_DWithin(z.polygon, f.g, ${ZONE_BAND_M}) THEN 'e' ELSE 'o' END, '' ORDER BY f.i) AS classes
           FROM cand c JOIN zones z ON z.id = c.id JOIN f ON f.k = c.k
          GROUP BY c.k, z.id, z.name, z.danger)
       SELECT k, json_agg(json_build_object('id', id, 'name', name, 'danger', danger, 'classes', classes)) AS zones
         FROM classified GROUP BY k`,
      [
        k,
        lats,
        lngs,
        JSON.stringify(
          reads.map((r, i) => ({ k: i, c: r.companyId, zone_ids: r.zoneIds, any_danger: r.anyDanger, stated_ids: r.statedIds })),
        ),
      ],
    );
    const byK = new Map(rows.map((r) => [r.k, r.zones]));
    return reads.map((_, i) => byK.get(i) ?? []);
  }

  /**
   * `no_check_*` for one rule and one window period: the members the rule targets (existing by the
   * deadline) with no check-in row in [`start`, `deadline`] (ms) — `in_ts` for `in`, `out_ts` for
   * `out`, either for `any` — at the rule's place when it names one, else anywhere; members already
   * fired for occurrence `occurrence` are left out. A rule whose place has been deleted watches
   * nothing: no member.
   */
  async membersWithoutCheck(
    db: Queryable,
    rule: AlertRule,
    check: 'in' | 'out' | 'any',
    period: { start: number; deadline: number },
    occurrence: string,
  ): Promise<string[]> {
    const column = check === 'in' ? 'c.in_ts' : 'c.out_ts';
    const inPeriod = check === 'any' ? `(c.in_ts BETWEEN $3 AND $4 OR c.out_ts BETWEEN $3 AND $4)` : `${column} BETWEEN $3 AND $4`;
    const rows = await query<{ id: string }>(
      db,
      `SELECT m.id FROM alert_rules r JOIN members m ON m.company_id = r.company_id
        WHERE r.company_id = $1 AND r.id = $2 AND ${TARGETS_SQL} AND m.created_at <= $4
          AND ($5::text IS NULL OR EXISTS (SELECT 1 FROM places p WHERE p.company_id = $1 AND p.id = $5 AND p.deleted_at IS NULL))
          AND NOT EXISTS (SELECT 1 FROM checkins c WHERE c.company_id = $1 AND c.member_id = m.id AND ${inPeriod}
                           AND ($5::text IS NULL OR c.place_id = $5))
          AND NOT EXISTS (SELECT 1 FROM alert_firings a WHERE a.company_id = $1 AND a.rule_id = r.id AND a.member_id = m.id AND a.occurrence = $6)`,
      [rule.companyId, rule.id, period.start, period.deadline, rule.placeId, occurrence],
    );
    return rows.map((r) => r.id);
  }

  /**
   * `idle` for one rule at `now` (ms): targeted members tracking (`member_locations.tracking_status`)
   * whose still period (`alert_member_states.state.still`, evaluated up to their latest fix) began
   * at least `interval` ago and has not fired yet (occurrence = its start).
   */
  async idleMembers(db: Queryable, rule: AlertRule, now: number): Promise<Array<{ memberId: string; since: number }>> {
    return query(
      db,
      `SELECT m.id AS "memberId", (s.state->'still'->>'since')::float8 AS since
         FROM alert_rules r JOIN members m ON m.company_id = r.company_id
         JOIN member_locations l ON l.company_id = m.company_id AND l.member_id = m.id
         JOIN alert_member_states s ON s.company_id = m.company_id AND s.member_id = m.id
        WHERE r.company_id = $1 AND r.id = $2 AND ${TARGETS_SQL}
          AND l.tracking_status AND l.ts IS NOT NULL AND s.evaluated_ts >= l.ts
          AND s.state->'still'->>'since' IS NOT NULL AND (s.state->'still'->>'since')::bigint <= $3::bigint - r."interval"
          AND NOT EXISTS (SELECT 1 FROM alert_firings a WHERE a.company_id = $1 AND a.rule_id = r.id AND a.member_id = m.id
                           AND a.occurrence = s.state->'still'->>'since')`,
      [rule.companyId, rule.id, now],
    );
  }

  /**
   * `no_connection_to_device` for one rule at `now` (ms): targeted members with tracking on whose
   * latest fix (`member_locations.ts`) is at least `interval` old, not fired yet for that fix
   * (occurrence = its ts).
   */
  async silentMembers(db: Queryable, rule: AlertRule, now: number): Promise<Array<{ memberId: string; lastTs: number }>> {
    return query(
      db,
      `SELECT m.id AS "memberId", l.ts::float8 AS "lastTs"
         FROM alert_rules r JOIN members m ON m.company_id = r.company_id
         JOIN member_locations l ON l.company_id = m.company_id AND l.member_id = m.id
        WHERE r.company_id = $1 AND r.id = $2 AND ${TARGETS_SQL}
          AND l.tracking_status AND l.ts IS NOT NULL AND l.ts <= $3::bigint - r."interval"
          AND NOT EXISTS (SELECT 1 FROM alert_firings a WHERE a.company_id = $1 AND a.rule_id = r.id AND a.member_id = m.id
                           AND a.occurrence = l.ts::text)`,
      [rule.companyId, rule.id, now],
    );
  }
}
