import { AlertAction, queryOne, Queryable } from '@app/core';
import { Injectable } from '@nestjs/common';
import type { AlertRule } from '../entities/alert-rule.entity';
import { EvaluationRepository } from './evaluation.repository';
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
   * {@link rulesForMember}, and in the same statement the ts (ms) up to which the member's fixes have
   * been evaluated by the alerts consumer (`alert_member_states.evaluated_ts`, 0 = none): a queued
   * task whose fixes are already covered can then stop before opening a transaction.
   */
  async lookup(
    db: Queryable,
    companyId: string,
    memberId: string,
    actions: readonly AlertAction[],
  ): Promise<{ rules: AlertRule[]; evaluatedTs: number }> {
    const row = await queryOne<{ stamp: string; member: TargetMember | null; evaluatedTs: number | null }>(
      db,
      `SELECT (SELECT count(*)::text || ':' || coalesce(sum(xmin::text::bigint), 0)::text FROM alert_rules WHERE company_id = $1) AS stamp,
              (SELECT json_build_object('id', id, 'role', role, 'teams', teams, 'active', active_status = 'active')
                 FROM members WHERE company_id = $1 AND id = $2) AS member,
              (SELECT evaluated_ts::float8 FROM alert_member_states WHERE company_id = $1 AND member_id = $2) AS "evaluatedTs"`,
      [companyId, memberId],
    );
    const evaluatedTs = row?.evaluatedTs ?? 0;
    if (!row?.member || row.stamp.startsWith('0:')) return { rules: [], evaluatedTs };
    let cached = this.byCompany.get(companyId);
    if (!cached || cached.stamp !== row.stamp) {
      if (this.byCompany.size >= MAX_COMPANIES) this.byCompany.clear();
      cached = { stamp: row.stamp, rules: await this.repo.liveCompanyRules(db, companyId) };
      this.byCompany.set(companyId, cached);
    }
    const member = row.member;
    return { rules: cached.rules.filter((r) => actions.includes(r.action) && ruleTargets(r, member)), evaluatedTs };
  }
}
