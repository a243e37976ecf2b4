import type { AlertAction } from './alert-actions';
import { ALERT_ACTIONS, AlertType, DEFAULT_BATTERY_THRESHOLD } from './alert-actions';
import type { AlertRule } from './entities/alert-rule.entity';

/**
 * An alert rule as createalert / editalert / getalerts answer it (docs/alerts.md "The rule object").
 * Optional keys are present only when the rule sets them; `threshold` is always present on
 * `battery_low` (the default 15 when unset) and never on other actions.
 */
export interface AlertRuleView {
  /** ULID */
  id: string;
  title: string;
  description: string;
  action: AlertAction;
  /** our number for the action, 1–13 (docs/alerts.md) */
  actionCode: number;
  /** 1 event-driven, 2 time-driven, 0 never fires (`none`) */
  type: AlertType;
  /** target member uids; with `teams` also empty, every worker of the company */
  members: string[];
  /** target team ids */
  teams: number[];
  placeUid?: string;
  zoneId?: string;
  /** ms */
  interval?: number;
  /** battery % */
  threshold?: number;
  /** company time zone: ISO weekdays 1–7, start and end HHMM */
  window?: { days: number[]; start: number; end: number };
  active: boolean;
  /** ms */
  tsCreated: number;
  /** ms of the last edit; `tsCreated` when never edited */
  tsSaved: number;
}

/** The answer's view of a stored rule. */
export function alertRuleView(rule: AlertRule): AlertRuleView {
  const spec = ALERT_ACTIONS[rule.action];
  return {
    id: rule.id,
    title: rule.title,
    description: rule.description,
    action: rule.action,
    actionCode: spec.code,
    type: spec.type,
    members: [...rule.members],
    teams: [...rule.teams],
    ...(rule.placeId !== null ? { placeUid: rule.placeId } : {}),
    ...(rule.zoneId !== null ? { zoneId: rule.zoneId } : {}),
    ...(rule.interval !== null ? { interval: rule.interval } : {}),
    ...(spec.threshold ? { threshold: rule.threshold ?? DEFAULT_BATTERY_THRESHOLD } : {}),
    ...(rule.window ? { window: { days: [...rule.window.days], start: rule.window.start, end: rule.window.end } } : {}),
    active: rule.active,
    tsCreated: rule.createdAt,
    tsSaved: rule.updatedAt ?? rule.createdAt,
  };
}

/** A firing as getalertfirings answers it (optional keys only when the firing has them). */
export interface AlertFiringView {
  /** ULID; the `alerttriggered` event's form `id` */
  id: string;
  ruleId: string;
  action: AlertAction;
  memberUid: string;
  placeUid?: string;
  zoneId?: string;
  checkType?: 'IN' | 'OUT';
  /** the generated sentence */
  message: string;
  /** ms: when the condition occurred */
  ts: number;
}

/** A row of `alert_firings` as the firings query reads it. */
export interface AlertFiringRow {
  id: string;
  ruleId: string;
  action: AlertAction;
  memberId: string;
  placeId: string | null;
  zoneId: string | null;
  checkType: 'IN' | 'OUT' | null;
  message: string;
  /** bigint: a string from pg */
  ts: string | number;
}

export function alertFiringView(row: AlertFiringRow): AlertFiringView {
  return {
    id: row.id,
    ruleId: row.ruleId,
    action: row.action,
    memberUid: row.memberId,
    ...(row.placeId !== null ? { placeUid: row.placeId } : {}),
    ...(row.zoneId !== null ? { zoneId: row.zoneId } : {}),
    ...(row.checkType !== null ? { checkType: row.checkType } : {}),
    message: row.message,
    ts: Number(row.ts),
  };
}
