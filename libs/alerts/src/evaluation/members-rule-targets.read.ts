import { namedQuery, query, queryOne, Queryable } from '@app/core';
import type { EventMember } from '@app/locations';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AlertAction } from '../alert-actions';
import { LIVE_RULE_SQL, RULE_JSON } from '../alert-rules.repository';
import type { AlertRule } from '../entities/alert-rule.entity';
import type { AlertFixState } from './alert-member-states.repository';
import type { TargetMember } from './targets';

/** Company settings the evaluation needs: its id (the payload's `companyUid`), IANA zone, dwell (s). */
export interface EvaluationCompany {
  id: string;
  timezone: string;
  dwellSeconds: number;
}

/** One row of {@link RuleTargetsRead.lookup}: `k` the 1-based ordinal of the member asked about. */
export interface TargetsRow {
  k: number;
  /** the company's rule stamp (`count:sum of xmin` of its `alert_rules`); null when it has no rule */
  stamp: string | null;
  /** null for an unknown member */
  member: TargetMember | null;
  /** the member's `alert_member_states` row (with `withState`); null when there is none */
  stored: { evaluatedTs: number; state: Partial<AlertFixState> } | null;
  /** the company's evaluation settings (with `withState`) */
  company: EvaluationCompany | null;
}

/**
 * The evaluation's reads of who a rule concerns: a documented read model (docs/alerts-evaluation.md)
 * of `companies` (time zone, dwell) and `members` (role, teams, status, names), both owned by
 * `@app/members`, joined with the alerts lib's own `alert_rules` and `alert_member_states`. Reads
 * only; in the caller's transaction where it takes `db`.
 */
@Injectable()
export class RuleTargetsRead {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The company's evaluation settings; undefined for an unknown id. */
  company(db: Queryable, companyId: string): Promise<EvaluationCompany | undefined> {
    return queryOne(db, `SELECT id, timezone, checkin_dwell_seconds AS "dwellSeconds" FROM companies WHERE id = $1`, [companyId]);
  }

  /** The live rules of `actions` of every company, with the company's settings. */
  liveRules(actions: readonly AlertAction[]): Promise<Array<{ rule: AlertRule; company: EvaluationCompany }>> {
    return query(
      this.dataSource,
      `SELECT ${RULE_JSON} AS rule, json_build_object('id', c.id, 'timezone', c.timezone, 'dwellSeconds', c.checkin_dwell_seconds) AS company
         FROM alert_rules r JOIN companies c ON c.id = r.company_id
        WHERE r.action = ANY($1::text[]) AND ${LIVE_RULE_SQL} ORDER BY r.company_id, r.id`,
      [actions],
    );
  }

  /**
   * For each of `members` (in order, `k` = ordinal), in one statement: its company's rule stamp —
   * the count of its `alert_rules` and the sum of their row versions (`xmin`), which any insert,
   * edit, soft delete or activation changes — computed once per company, and the member's role,
   * teams and status; with `withState` also its `alert_member_states` row and the company's settings
   * — and JIT switched off for the rest of the caller's transaction (`set_config('jit', 'off', true)`,
   * see `RulesCache.lookupMany`). A named prepared statement per form ({@link namedQuery}): it runs on
   * every fixes pass, and planning it cost PostgreSQL about 4× running it. The members come as one
   * JSON array (`k` = 1-based ordinal): PostgreSQL sizes an `unnest` of a bound array by its length,
   * so each custom plan looked cheaper than the generic one and the statement was planned on every
   * run; `json_to_recordset` has one fixed estimate, so the generic plan is taken.
   */
  lookup(db: Queryable, members: ReadonlyArray<{ companyId: string; memberId: string }>, withState: boolean): Promise<TargetsRow[]> {
    return namedQuery<TargetsRow>(
      db,
      withState ? 'fieldwork_alert_targets_state' : 'fieldwork_alert_targets',
      `WITH u AS (SELECT u.c, u.m, u.k FROM json_to_recordset($1::json) AS u(c text, m text, k int)),
       stamps AS (
         SELECT company_id, count(*)::text || ':' || coalesce(sum(xmin::text::bigint), 0)::text AS stamp FROM alert_rules
          WHERE company_id IN (SELECT c FROM u) GROUP BY company_id)
       SELECT u.k, s.stamp,
              (SELECT json_build_object('id', id, 'role', role, 'teams', teams, 'active', active_status = 'active')
                 FROM members WHERE company_id = u.c AND id = u.m) AS member` +
        (withState
          ? `,
              set_config('jit', 'off', true) AS jit,
              (SELECT json_build_object('evaluatedTs', evaluated_ts::float8, 'state', state) FROM alert_member_states
                WHERE company_id = u.c AND member_id = u.m) AS stored,
              (SELECT json_build_object('id', c.id, 'timezone', c.timezone, 'dwellSeconds', c.checkin_dwell_seconds)
                 FROM companies c WHERE c.id = u.c) AS company`
          : '') +
        `
         FROM u LEFT JOIN stamps s ON s.company_id = u.c`,
      [JSON.stringify(members.map((m, i) => ({ c: m.companyId, m: m.memberId, k: i + 1 })))],
    );
  }

  /** The company's members among `ids` as events name them (uid, name, username), deactivated ones included; unknown ids absent. */
  eventMembers(db: Queryable, companyId: string, ids: readonly string[]): Promise<EventMember[]> {
    return query<EventMember>(db, `SELECT id AS uid, name, username FROM members WHERE company_id = $1 AND id = ANY($2::text[])`, [
      companyId,
      [...ids],
    ]);
  }
}
