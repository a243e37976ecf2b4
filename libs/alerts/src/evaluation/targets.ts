import type { AlertRule } from '../entities/alert-rule.entity';

/** What targeting reads of a member: its id, role, teams and whether it is active. */
export interface TargetMember {
  id: string;
  role: string;
  teams: number[];
  active: boolean;
}

/**
 * Whether `rule` targets `member` (CONTRACTS.md "Alerts and zones") — the same rule as the SQL
 * `TARGETS_SQL` (locations-clock-candidates.read.ts), for rules read from the cache: `members` lists it, or one
 * of `teams` is among its teams; neither set = every member with role `worker`. Deactivated members
 * never.
 */
export function ruleTargets(rule: Pick<AlertRule, 'members' | 'teams'>, member: TargetMember): boolean {
  if (!member.active) return false;
  if (!rule.members.length && !rule.teams.length) return member.role === 'worker';
  return rule.members.includes(member.id) || rule.teams.some((t) => member.teams.includes(t));
}
