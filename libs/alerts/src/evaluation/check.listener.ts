import type { AlertAction } from '../alert-actions';
import { PlaceCheck, PlaceCheckListener, PlaceCheckListenerRegistry } from '@app/locations';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { AlertRule } from '../entities/alert-rule.entity';
import { FiringInput, FiringWriter } from './firing-writer.service';
import { RuleTargetsRead } from './members-rule-targets.read';
import { RulesCache } from './rules-cache.service';
import { inWindow } from './window';

const CHECK_ACTIONS: readonly AlertAction[] = ['checks_in', 'checks_out', 'checks_any'];

/**
 * Whether a `checks_*` rule fires for a place check: the action's direction (`checks_any` both), the
 * rule's place (absent = any place), and its window at the check's ts (company zone).
 */
export function checkMatches(rule: Pick<AlertRule, 'action' | 'placeId' | 'window'>, check: PlaceCheck, zone: string): boolean {
  if (rule.action === 'checks_in' && check.kind !== 'in') return false;
  if (rule.action === 'checks_out' && check.kind !== 'out') return false;
  if (!CHECK_ACTIONS.includes(rule.action)) return false;
  if (rule.placeId && rule.placeId !== check.placeId) return false;
  return inWindow(rule.window, check.ts, zone);
}

/**
 * `checks_in` / `checks_out` / `checks_any` (event-driven): listens to the geofence's place checks
 * and fires in the SAME transaction that records them. Occurrence `<placeId>:<IN|OUT>:<ts>`; the
 * payload carries the place and `checkType`.
 */
@Injectable()
export class AlertsCheckListener implements PlaceCheckListener, OnModuleInit {
  readonly name = 'alerts';

  constructor(
    private readonly registry: PlaceCheckListenerRegistry,
    private readonly targets: RuleTargetsRead,
    private readonly writer: FiringWriter,
    private readonly rulesCache: RulesCache,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async onPlaceChecks(db: EntityManager, companyId: string, memberId: string, checks: readonly PlaceCheck[]): Promise<string[]> {
    const rules = await this.rulesCache.rulesForMember(db, companyId, memberId, CHECK_ACTIONS);
    if (!rules.length) return [];
    const company = await this.targets.company(db, companyId);
    if (!company) return [];
    const firings: FiringInput[] = [];
    for (const check of checks) {
      const checkType = check.kind === 'in' ? 'IN' : 'OUT';
      for (const rule of rules) {
        if (!checkMatches(rule, check, company.timezone)) continue;
        firings.push({
          rule,
          memberId,
          occurrence: `${check.placeId}:${checkType}:${check.ts}`,
          ts: check.ts,
          facts: { kind: 'check', checkType, placeName: '', ts: check.ts },
          placeId: check.placeId,
          checkType,
        });
      }
    }
    return this.writer.write(db, company, firings);
  }
}
