/** The spec's 13 alert actions. */
export type AlertAction =
  | 'checks_in'
  | 'checks_out'
  | 'checks_any'
  | 'no_check_in'
  | 'no_check_out'
  | 'no_check_any'
  | 'idle'
  | 'enters_zone'
  | 'leaves_zone'
  | 'no_connection_to_device'
  | 'enters_danger_zone'
  | 'battery_low'
  | 'none';

/**
 * How a rule of an action is evaluated: `1` event-driven (from a member's fixes and check-ins, in the
 * worker's location pipeline), `2` time-driven (from the clock, by the repeatable evaluation task),
 * `0` never (`none`). The payload's `alert.type` (docs/alerts.md).
 */
export type AlertType = 0 | 1 | 2;

/** What a rule of an action names besides its targets. */
export interface AlertActionSpec {
  /** the payload's `alert.actionCode`: the action's position in the spec's list, 1–13 (docs/alerts.md) */
  code: number;
  type: AlertType;
  /** `placeUid`: required, optional (absent = any live place), or not taken */
  place: 'required' | 'optional' | 'none';
  /** `zoneId`: required, optional (absent = any danger zone), or not taken */
  zone: 'required' | 'optional' | 'none';
  /** `interval` (ms): required or not taken */
  interval: 'required' | 'none';
  /** `window`: required (its end is the deadline) or optional (limits when the rule fires) */
  window: 'required' | 'optional';
  /** `threshold` (battery %): taken (default {@link DEFAULT_BATTERY_THRESHOLD}) or not */
  threshold: boolean;
}

/** `battery_low`'s default threshold, %. */
export const DEFAULT_BATTERY_THRESHOLD = 15;

/**
 * The spec's thirteen alert actions (spec "Events", in its order) with our numbers and what each rule
 * needs (CONTRACTS.md "Alerts and zones"; docs/alerts.md is the reader's copy of this table).
 */
export const ALERT_ACTIONS: Readonly<Record<AlertAction, AlertActionSpec>> = {
  checks_in: { code: 1, type: 1, place: 'optional', zone: 'none', interval: 'none', window: 'optional', threshold: false },
  checks_out: { code: 2, type: 1, place: 'optional', zone: 'none', interval: 'none', window: 'optional', threshold: false },
  checks_any: { code: 3, type: 1, place: 'optional', zone: 'none', interval: 'none', window: 'optional', threshold: false },
  no_check_in: { code: 4, type: 2, place: 'optional', zone: 'none', interval: 'none', window: 'required', threshold: false },
  no_check_out: { code: 5, type: 2, place: 'optional', zone: 'none', interval: 'none', window: 'required', threshold: false },
  no_check_any: { code: 6, type: 2, place: 'optional', zone: 'none', interval: 'none', window: 'required', threshold: false },
  idle: { code: 7, type: 2, place: 'none', zone: 'none', interval: 'required', window: 'optional', threshold: false },
  enters_zone: { code: 8, type: 1, place: 'none', zone: 'required', interval: 'none', window: 'optional', threshold: false },
  leaves_zone: { code: 9, type: 1, place: 'none', zone: 'required', interval: 'none', window: 'optional', threshold: false },
  no_connection_to_device: { code: 10, type: 2, place: 'none', zone: 'none', interval: 'required', window: 'optional', threshold: false },
  enters_danger_zone: { code: 11, type: 1, place: 'none', zone: 'optional', interval: 'none', window: 'optional', threshold: false },
  battery_low: { code: 12, type: 1, place: 'none', zone: 'none', interval: 'none', window: 'optional', threshold: true },
  none: { code: 13, type: 0, place: 'none', zone: 'none', interval: 'none', window: 'optional', threshold: false },
};

/** Every action name, in the spec's order. */
export const ALERT_ACTION_NAMES = Object.keys(ALERT_ACTIONS) as AlertAction[];
