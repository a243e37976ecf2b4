import { OutboxService } from '@app/core';
import type { AlertAction } from '../alert-actions';
import { Injectable, Logger } from '@nestjs/common';
import type { AlertRule } from '../entities/alert-rule.entity';
import { AlertFiringsRepository } from '../alert-firings.repository';
import { FiringInput, FiringWriter } from './firing-writer.service';
import { ClockCandidatesRead } from './locations-clock-candidates.read';
import { EvaluationCompany, RuleTargetsRead } from './members-rule-targets.read';
import { deadlinesBetween, inWindow } from './window';

/** The time-driven actions the clock evaluates. */
export const CLOCK_ACTIONS: readonly AlertAction[] = ['no_check_in', 'no_check_out', 'no_check_any', 'idle', 'no_connection_to_device'];

/** ms: how far back a tick looks for passed deadlines (never before the rule's creation), so a missed tick fires late, not never. */
export const CLOCK_LOOKBACK_MS = 24 * 3_600_000;

const CHECK_OF = { no_check_in: 'in', no_check_out: 'out', no_check_any: 'any' } as const;

/**
 * The time-driven alert rules (`no_check_*`, `idle`, `no_connection_to_device`), evaluated at `now`
 * by the repeatable `tick` task. Candidates are read without a transaction (occurrences already
 * stored are left out); a rule with candidates writes them in one transaction of its own, where the
 * unique key settles two workers racing — so any number of ticks for the same `now`, on any number of
 * workers, fire each occurrence once.
 */
@Injectable()
export class AlertsClock {
  private readonly logger = new Logger('AlertsClock');

  constructor(
    private readonly firings: AlertFiringsRepository,
    private readonly targets: RuleTargetsRead,
    private readonly candidates: ClockCandidatesRead,
    private readonly writer: FiringWriter,
    private readonly outbox: OutboxService,
  ) {}

  /** Evaluates every live time-driven rule at `now` (ms). @returns how many firings were stored. */
  async tick(now: number): Promise<{ rules: number; fired: number }> {
    const rules = await this.targets.liveRules(CLOCK_ACTIONS);
    let fired = 0;
    for (const { rule, company } of rules) {
      try {
        const found = await this.evaluate(rule, company, now);
        if (!found.length) continue; // the common case: no transaction at all
        const published = await this.firings.transaction((db) => this.writer.write(db, company, found));
        fired += published.length;
        this.outbox.wake(published);
      } catch (err) {
        // one rule's failure must not starve the others; the next tick tries it again
        this.logger.warn(`rule ${rule.id} (${rule.action}) failed: ${(err as Error).message}`);
      }
    }
    return { rules: rules.length, fired };
  }

  /** The occurrences of one rule at `now`. */
  private async evaluate(rule: AlertRule, company: EvaluationCompany, now: number): Promise<FiringInput[]> {
    switch (rule.action) {
      case 'no_check_in':
      case 'no_check_out':
      case 'no_check_any': {
        if (!rule.window) return [];
        const check = CHECK_OF[rule.action];
        const after = Math.max(now - CLOCK_LOOKBACK_MS, rule.createdAt);
        const out: FiringInput[] = [];
        for (const period of deadlinesBetween(rule.window, after, now, company.timezone)) {
          const occurrence = String(period.day);
          for (const memberId of await this.candidates.membersWithoutCheck(rule, check, period, occurrence)) {
            out.push({
              rule,
              memberId,
              occurrence,
              ts: period.deadline,
              facts: { kind: 'deadline', check, deadline: period.deadline },
              ...(rule.placeId ? { placeId: rule.placeId } : {}),
            });
          }
        }
        return out;
      }
      case 'idle': {
        if (!rule.interval || !inWindow(rule.window, now, company.timezone)) return [];
        const interval = rule.interval;
        return (await this.candidates.idleMembers(rule, now)).map(({ memberId, since }) => ({
          rule,
          memberId,
          occurrence: String(since),
          ts: since + interval,
          facts: { kind: 'idle', since, intervalMs: interval },
        }));
      }
      case 'no_connection_to_device': {
        if (!rule.interval || !inWindow(rule.window, now, company.timezone)) return [];
        const interval = rule.interval;
        return (await this.candidates.silentMembers(rule, now)).map(({ memberId, lastTs }) => ({
          rule,
          memberId,
          occurrence: String(lastTs),
          ts: lastTs + interval,
          facts: { kind: 'no_connection', lastTs, intervalMs: interval },
        }));
      }
      case 'checks_in':
      case 'checks_out':
      case 'checks_any':
      case 'enters_zone':
      case 'leaves_zone':
      case 'enters_danger_zone':
      case 'battery_low':
      case 'none':
        return []; // not the clock's (liveRules reads only CLOCK_ACTIONS)
    }
  }
}
