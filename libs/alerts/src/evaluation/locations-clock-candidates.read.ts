import { query } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AlertRule } from '../entities/alert-rule.entity';

/**
 * SQL: rule `r` targets member `m` (CONTRACTS.md "Alerts and zones"): `r.members` lists it, or one of
 * `r.teams` is among its teams; neither set = every worker (role worker) of the company. The member
 * must be active (deactivated members never fire). `ruleTargets` (targets.ts) is the same rule in
 * memory, for cached rules.
 */
export const TARGETS_SQL = `(m.company_id = r.company_id AND m.active_status = 'active' AND
  CASE WHEN jsonb_array_length(r.members) = 0 AND jsonb_array_length(r.teams) = 0 THEN m.role = 'worker'
       ELSE r.members ? m.id OR EXISTS (SELECT 1 FROM jsonb_array_elements(r.teams) t(v) WHERE m.teams @> jsonb_build_array(t.v)) END)`;

/**
 * The clock's candidates (time-driven rules): a documented read model (docs/alerts-evaluation.md) of
 * `checkins` and `member_locations` (owned by `@app/locations`), `members` (`@app/members`) and
 * `places` (`@app/places`), joined with the alerts lib's own `alert_rules`, `alert_member_states`
 * and `alert_firings` (occurrences already stored are left out). Reads only, on the pool, scoped by
 * the rule's company.
 */
@Injectable()
export class ClockCandidatesRead {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * `no_check_*` for one rule and one window period: the members the rule targets (existing by the
   * deadline) with no check-in row in [`start`, `deadline`] (ms) — `in_ts` for `in`, `out_ts` for
   * `out`, either for `any` — at the rule's place when it names one, else anywhere; members already
   * fired for occurrence `occurrence` are left out. A rule whose place has been deleted watches
   * nothing: no member.
   */
  async membersWithoutCheck(
    rule: AlertRule,
    check: 'in' | 'out' | 'any',
    period: { start: number; deadline: number },
    occurrence: string,
  ): Promise<string[]> {
    const column = check === 'in' ? 'c.in_ts' : 'c.out_ts';
    const inPeriod = check === 'any' ? `(c.in_ts BETWEEN $3 AND $4 OR c.out_ts BETWEEN $3 AND $4)` : `${column} BETWEEN $3 AND $4`;
    const rows = await query<{ id: string }>(
      this.dataSource,
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
  async idleMembers(rule: AlertRule, now: number): Promise<Array<{ memberId: string; since: number }>> {
    return query(
      this.dataSource,
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
  async silentMembers(rule: AlertRule, now: number): Promise<Array<{ memberId: string; lastTs: number }>> {
    return query(
      this.dataSource,
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
