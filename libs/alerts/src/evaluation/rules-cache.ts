import { AlertAction, queryOne, Queryable } from '@app/core';
import { Injectable } from '@nestjs/common';
import type { AlertRule } from '../entities/alert-rule.entity';
import { AlertFixState, EvaluationCompany, EvaluationRepository } from './evaluation.repository';
import { ruleTargets, TargetMember } from './targets';

/** Companies whose rules one worker keeps at most (cleared whole beyond: a cache, not a store). */
const MAX_COMPANIES = 10_000;

/**
 * The live rules of a company, kept per worker process for the fix pipeline's hot path (every
 * `fixes` task asks "which rules target this member?"; with 1,000 rules, reading and building them
 * each time cost ~4 ms a task). Each call still asks PostgreSQL, in one small statement, for the
 * company's rule **stamp** — the count of its rules and the sum of their row versions (`xmin`), which
 * any insert, edit, soft delete or activation changes — and the member's role, teams and status; the
 * rules are re-read only when the stamp moved. So a rule change is seen by the next task, never
 * later, and targeting is decided in memory ({@link ruleTargets}).
 */
@Injectable()
export class RulesCache {
  private readonly byCompany = new Map<string, { stamp: string; rules: AlertRule[] }>();

  constructor(private readonly repo: EvaluationRepository) {}

  /** The live rules of `actions` targeting the member (none for an unknown or deactivated member). */
  async rulesForMember(db: Queryable, companyId: string, memberId: string, actions: readonly AlertAction[]): Promise<AlertRule[]> {
    return (await this.lookup(db, companyId, memberId, actions)).rules;
  }

  /**
   * {@link rulesForMember}; with `withState`, in the same statement, the member's
   * `alert_member_states` row (`evaluatedTs` 0 and an empty state when there is none; the caller
   * holds the member's lock: geofencing's pass) and the company's evaluation settings — and JIT is
   * switched off for the rest of the caller's transaction (`set_config('jit', 'off', true)`): the
   * zone classification that follows is estimated above `jit_above_cost` (PostGIS rates `ST_Covers`
   * expensive, times zones × fixes), and compiling it cost 40–50 ms for a statement that runs in
   * under 1 ms.
   */
  async lookup(
    db: Queryable,
    companyId: string,
    memberId: string,
    actions: readonly AlertAction[],
    withState = false,
  ): Promise<{ rules: AlertRule[]; stored?: StoredAlertState }> {
    const row = await queryOne<{
      stamp: string;
      member: TargetMember | null;
      stored: { evaluatedTs: number; state: Partial<AlertFixState> } | null;
      company: EvaluationCompany | null;
    }>(
      db,
      `SELECT (SELECT count(*)::text || ':' || coalesce(sum(xmin::text::bigint), 0)::text FROM alert_rules WHERE company_id = $1) AS stamp,
              (SELECT json_build_object('id', id, 'role', role, 'teams', teams, 'active', active_status = 'active')
                 FROM members WHERE company_id = $1 AND id = $2) AS member` +
        (withState
          ? `,
              set_config('jit', 'off', true) AS jit,
              (SELECT json_build_object('evaluatedTs', evaluated_ts::float8, 'state', state) FROM alert_member_states
                WHERE company_id = $1 AND member_id = $2) AS stored,
              (SELECT json_build_object('id', c.id, 'timezone', c.timezone, 'dwellSeconds', c.checkin_dwell_seconds)
                 FROM companies c WHERE c.id = $1) AS company`
          : ''),
      [companyId, memberId],
    );
    if (!row?.member || row.stamp.startsWith('0:')) return { rules: [] };
    let cached = this.byCompany.get(companyId);
    if (!cached || cached.stamp !== row.stamp) {
      if (this.byCompany.size >= MAX_COMPANIES) this.byCompany.clear();
      cached = { stamp: row.stamp, rules: await this.repo.liveCompanyRules(db, companyId) };
      this.byCompany.set(companyId, cached);
    }
    const member = row.member;
    const rules = cached.rules.filter((r) => actions.includes(r.action) && ruleTargets(r, member));
    if (!withState || !row.company) return { rules };
    const s = row.stored?.state ?? {};
    return {
      rules,
      stored: {
        company: row.company,
        evaluatedTs: row.stored?.evaluatedTs ?? 0,
        exists: row.stored !== null,
        state: { zones: s.zones ?? {}, battery: s.battery ?? {}, still: s.still ?? null },
      },
    };
  }
}

/** A member's `alert_member_states` row as read (`exists` false: no row yet), with the company's settings. */
export interface StoredAlertState {
  company: EvaluationCompany;
  evaluatedTs: number;
  exists: boolean;
  state: AlertFixState;
}
