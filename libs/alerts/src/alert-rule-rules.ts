import type { FieldIssue } from '@app/core';
import type { AlertAction } from './alert-actions';
import { ALERT_ACTIONS, DEFAULT_BATTERY_THRESHOLD } from './alert-actions';
import type { AlertWindow } from './entities/alert-rule.entity';

/** `interval` bounds, ms: at least a minute (the time-driven task's granularity), at most 30 days. */
export const MIN_ALERT_INTERVAL_MS = 60_000;
export const MAX_ALERT_INTERVAL_MS = 30 * 24 * 3_600_000;
/** `threshold` bounds, battery %. */
export const MIN_BATTERY_THRESHOLD = 1;
export const MAX_BATTERY_THRESHOLD = 99;

/**
 * The action-dependent parameters of a rule, as stored (`placeId` is the wire's `placeUid`); `null` =
 * not set. `threshold` null on `battery_low` reads as {@link DEFAULT_BATTERY_THRESHOLD}.
 */
export interface AlertRuleParams {
  placeId: string | null;
  zoneId: string | null;
  interval: number | null;
  threshold: number | null;
  window: AlertWindow | null;
}

/** The wire name of each parameter, as errors name it. */
const WIRE: Record<keyof AlertRuleParams, string> = {
  placeId: 'placeUid',
  zoneId: 'zoneId',
  interval: 'interval',
  threshold: 'threshold',
  window: 'window',
};

/** The actions that take a parameter, for "is taken only by …" sentences. */
function takers(param: keyof AlertRuleParams): AlertAction[] {
  return (Object.keys(ALERT_ACTIONS) as AlertAction[]).filter((a) => takes(a, param));
}

/** Whether `action`'s rules take `param` at all (required or optional). */
export function takes(action: AlertAction, param: keyof AlertRuleParams): boolean {
  const spec = ALERT_ACTIONS[action];
  switch (param) {
    case 'placeId':
      return spec.place !== 'none';
    case 'zoneId':
      return spec.zone !== 'none';
    case 'interval':
      return spec.interval !== 'none';
    case 'threshold':
      return spec.threshold;
    case 'window':
      return true;
  }
}

/** Whether `action`'s rules require `param`. */
function requires(action: AlertAction, param: keyof AlertRuleParams): boolean {
  const spec = ALERT_ACTIONS[action];
  return (
    (param === 'zoneId' && spec.zone === 'required') ||
    (param === 'interval' && spec.interval === 'required') ||
    (param === 'window' && spec.window === 'required')
  );
}

/**
 * The rules an action sets on a whole rule's parameters (CONTRACTS.md "Alerts and zones";
 * `ALERT_ACTIONS`): a parameter the action does not take is refused (`placeUid` for `idle`,
 * `interval` for `checks_in`, `threshold` for anything but `battery_low`), one it requires must be
 * set (`zoneId` for `enters_zone`/`leaves_zone`, `interval` for `idle`/`no_connection_to_device`,
 * `window` for `no_check_*`). Ranges and formats are the DTO's; existence (live place, live zone,
 * danger zone) is the service's.
 * @param prefix the path errors name (`data`)
 * @returns the first broken rule, in the order placeUid, zoneId, interval, threshold, window; null when none
 */
export function actionParamIssue(action: AlertAction, params: AlertRuleParams, prefix = 'data'): FieldIssue | null {
  for (const param of Object.keys(WIRE) as Array<keyof AlertRuleParams>) {
    const field = `${prefix}.${WIRE[param]}`;
    const set = params[param] !== null;
    if (set && !takes(action, param)) return { field, rule: `is not taken by ${action} (only by ${takers(param).join(', ')})` };
    if (!set && requires(action, param)) {
      const why = param === 'window' ? ' (its end is the daily deadline)' : '';
      return { field, rule: `is required for ${action}${why}` };
    }
  }
  return null;
}

/** A parameter an editalert sends: a value, `null` (clears it) or absent (`undefined`, keeps it). */
export type ParamPatch = { [K in keyof AlertRuleParams]?: AlertRuleParams[K] };

/**
 * editalert's parameters: the stored ones with the patch applied (`null` clears, absent keeps). When
 * the action changes, a stored parameter the new action does not take is dropped (the patch's own
 * values are kept, so `actionParamIssue` refuses them by name) — a rule is defined by its action, and
 * moving `idle` to `checks_in` should not demand `interval: null`. `battery_low` without a threshold
 * gets the default {@link DEFAULT_BATTERY_THRESHOLD}; any other action keeps none.
 */
export function mergeParams(stored: AlertRuleParams, storedAction: AlertAction, patch: ParamPatch, action: AlertAction): AlertRuleParams {
  const out = { ...stored };
  for (const param of Object.keys(WIRE) as Array<keyof AlertRuleParams>) {
    const sent = patch[param];
    if (sent !== undefined) (out as Record<string, unknown>)[param] = sent;
    else if (action !== storedAction && !takes(action, param)) (out as Record<string, unknown>)[param] = null;
  }
  return withDefaults(action, out);
}

/** `battery_low`'s default threshold filled in; the parameters otherwise as given. */
export function withDefaults(action: AlertAction, params: AlertRuleParams): AlertRuleParams {
  if (ALERT_ACTIONS[action].threshold && params.threshold === null) return { ...params, threshold: DEFAULT_BATTERY_THRESHOLD };
  return params;
}

/** Whether `v` is an HHMM time of day: an integer 0–2359 whose last two digits are minutes 0–59. */
export function isHhmm(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 2359 && v % 100 < 60;
}

/** The rule {@link endsAfterStart} checks, as errors state it (on `window.end`). */
export const WINDOW_ORDER_RULE = 'must be after start (the same day: overnight windows are not supported)';

/**
 * A window's order rule: `start` before `end`, the same day (no overnight windows). Values that are
 * not HHMM pass here — their own rule names them.
 */
export function endsAfterStart(start: unknown, end: unknown): boolean {
  return !isHhmm(start) || !isHhmm(end) || start < end;
}
