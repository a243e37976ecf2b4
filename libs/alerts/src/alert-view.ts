import { ALERT_ACTIONS, DEFAULT_BATTERY_THRESHOLD } from './alert-actions';
import type { AlertRuleConfig, AlertTriggeredEventData } from './alert-events';
import type { AlertRule } from './entities/alert-rule.entity';

/**
 * A rule's parameters as `alert.config` carries them (CONTRACTS.md "Alerts and zones"): only what the
 * rule sets — targets (`members` as uids, `teams`), `placeUid` / `zoneId`, `interval` (ms),
 * `threshold` (battery %, `battery_low` only: the default 15 when unset), `window`.
 */
export function alertRuleConfig(rule: AlertRule): AlertRuleConfig {
  const config: AlertRuleConfig = {};
  if (rule.members.length) config.members = [...rule.members];
  if (rule.teams.length) config.teams = [...rule.teams];
  if (rule.placeId) config.placeUid = rule.placeId;
  if (rule.zoneId) config.zoneId = rule.zoneId;
  if (rule.interval !== null) config.interval = rule.interval;
  if (ALERT_ACTIONS[rule.action].threshold) config.threshold = rule.threshold ?? DEFAULT_BATTERY_THRESHOLD;
  if (rule.window) config.window = { days: [...rule.window.days], start: rule.window.start, end: rule.window.end };
  return config;
}

/**
 * The `alert` object of an `alerttriggered` payload (spec "Events", the service events): the rule
 * (`id` its id, `config` its parameters, `tsCreated` its creation time, ms), the company, the
 * firing's generated `message`, and our `actionCode` / `type` numbers (docs/alerts.md). `interval`
 * (ms) only when the rule has one.
 */
export function alertPayloadOf(rule: AlertRule, companyUid: string, message: string): AlertTriggeredEventData['alert'] {
  const spec = ALERT_ACTIONS[rule.action];
  return {
    id: rule.id,
    config: alertRuleConfig(rule),
    companyUid,
    title: rule.title,
    description: rule.description,
    message,
    action: rule.action,
    actionCode: spec.code,
    type: spec.type,
    ...(rule.interval !== null ? { interval: rule.interval } : {}),
    tsCreated: rule.createdAt,
  };
}
