import { Queryable } from '@app/core';
import { Injectable } from '@nestjs/common';
import type { AlertAction } from '../alert-actions';
import { AlertRulesRepository } from '../alert-rules.repository';
import type { AlertRule } from '../entities/alert-rule.entity';
import type { AlertFixState } from './alert-member-states.repository';
import { EvaluationCompany, RuleTargetsRead } from './members-rule-targets.read';
import { ruleTargets } from './targets';

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

  constructor(
    private readonly rules: AlertRulesRepository,
    private readonly targets: RuleTargetsRead,
  ) {}

  /** The live rules of `actions` targeting the member (none for an unknown or deactivated member). */
  async rulesForMember(db: Queryable, companyId: string, memberId: string, actions: readonly AlertAction[]): Promise<AlertRule[]> {
    return (await this.lookup(db, companyId, memberId, actions)).rules;
  }

  /** {@link lookupMany} for one member. */
  async lookup(
    db: Queryable,
    companyId: string,
    memberId: string,
    actions: readonly AlertAction[],
    withState = false,
  ): Promise<{ rules: AlertRule[]; stored?: StoredAlertState }> {
    return (await this.lookupMany(db, [{ companyId, memberId }], actions, withState))[0];
  }

  /**
   * {@link rulesForMember} for each of `members` (in their order), in one statement; with
   * `withState`, in the same statement, each member's `alert_member_states` row (`evaluatedTs` 0 and
   * an empty state when there is none; the caller holds the members' locks: geofencing's pass) and
   * the company's evaluation settings — and JIT is switched off for the rest of the caller's
   * transaction (`set_config('jit', 'off', true)`): the zone classification that follows is
   * estimated above `jit_above_cost` (PostGIS rates `ST_Covers` expensive, times zones × fixes), and
   * compiling it cost 40–50 ms for a statement that runs in under 1 ms. Each company's stamp is
   * computed once per statement, however many of its members it asks about.
   */
  async lookupMany(
    db: Queryable,
    members: ReadonlyArray<{ companyId: string; memberId: string }>,
    actions: readonly AlertAction[],
    withState = false,
  ): Promise<Array<{ rules: AlertRule[]; stored?: StoredAlertState }>> {
    if (!members.length) return [];
    const rows = await this.targets.lookup(db, members, withState);
    const byK = new Map(rows.map((r) => [r.k, r]));
    const answers: Array<{ rules: AlertRule[]; stored?: StoredAlertState }> = [];
    for (const [i, { companyId }] of members.entries()) {
      const row = byK.get(i + 1);
      if (!row?.member || !row.stamp) {
        answers.push({ rules: [] });
        continue;
      }
      const rules = (await this.companyRules(db, companyId, row.stamp)).filter((r) => actions.includes(r.action) && ruleTargets(r, row.member!));
      if (!withState || !row.company) {
        answers.push({ rules });
        continue;
      }
      const s = row.stored?.state ?? {};
      answers.push({
        rules,
        stored: {
          company: row.company,
          evaluatedTs: row.stored?.evaluatedTs ?? 0,
          exists: row.stored !== null,
          state: { zones: s.zones ?? {}, battery: s.battery ?? {}, still: s.still ?? null },
        },
      });
    }
    return answers;
  }

  /** The company's live rules as cached, re-read when `stamp` (count:sum of xmin) moved. */
  private async companyRules(db: Queryable, companyId: string, stamp: string): Promise<AlertRule[]> {
    let cached = this.byCompany.get(companyId);
    if (!cached || cached.stamp !== stamp) {
      if (this.byCompany.size >= MAX_COMPANIES) this.byCompany.clear();
      cached = { stamp, rules: await this.rules.liveCompanyRules(db, companyId) };
      this.byCompany.set(companyId, cached);
    }
    return cached.rules;
  }
}

/** A member's `alert_member_states` row as read (`exists` false: no row yet), with the company's settings. */
export interface StoredAlertState {
  company: EvaluationCompany;
  evaluatedTs: number;
  exists: boolean;
  state: AlertFixState;
}
