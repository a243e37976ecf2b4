/**
 * Events of the second wave whose owning lib does not exist yet, declared here as the contract
 * (spec "Events"; CONTRACTS.md, "Places, check-ins, clock" and "Alerts and zones") so the issues
 * that fire them are checked by the compiler from their first line. Types only: nothing fires them
 * yet. When its lib is created, an entry moves there (the same `declare module '@app/core'` block),
 * and `EventPlace` gives way to the places lib's view: place check-ins and clock events to the
 * locations lib (geofencing, tracking state), `alerttriggered` to the alerts lib.
 */

/** `who` of clock and place events, `member` of alert events: the member the event is about. */
export interface EventMember {
  uid: string;
  name: string;
  username: string;
}

/** A point in degrees (WGS 84). */
export interface EventLatLng {
  lat: number;
  lng: number;
}

/**
 * A place as the spec's Place resource answers it (CONTRACTS.md, "Places, check-ins, clock"); the
 * places lib's view will replace this declaration.
 */
export interface EventPlace {
  uid: string;
  name: string;
  address: string;
  city: string;
  state: string;
  postalcode: string;
  country_code: string;
  phone: string;
  email: string;
  location: EventLatLng | null;
  /** check-in radius, m (0 = the company's `default_radius`) */
  radius: number;
  color: string;
  /** comma-separated form ids */
  linkedForms: string;
  /** the creating member's name */
  creator: string;
  /** the extended data as single-key objects, `[{"gate": "B"}]` */
  data: Array<Record<string, string>>;
  teams: number[];
  /** ms */
  tsCreated: number;
  /** ms */
  tsSaved: number;
}

/** `placecheckin` / `placecheckout` data: the place, the member, and the entry or exit time. */
export interface PlaceCheckEventData {
  place: EventPlace;
  who: EventMember;
  /** ms: the entry time (the first fix inside) or the exit time (the first fix beyond) */
  ts: number;
}

/** `clockin` / `clockout` data: the member's reported tracking state changed. */
export interface ClockEventData {
  who: EventMember;
  /** true for clockin, false for clockout */
  tracking: boolean;
  /** ms: `tracking_ts`, else the receive time */
  ts: number;
  /** the newest fix of that call or the latest known within 10 min; absent when there is none */
  location?: EventLatLng;
}

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
 * An alert rule's parameters (`alert.config`, CONTRACTS.md "Alerts and zones"): targets,
 * place or zone, interval, threshold, window. The alerts issue fixes the details in `docs/alerts.md`.
 */
export interface AlertRuleConfig {
  /** member uids; with `teams` absent and this absent, every worker of the company */
  members?: string[];
  /** team ids */
  teams?: number[];
  placeUid?: string;
  zoneId?: string;
  /** ms */
  interval?: number;
  /** battery %, default 15 */
  threshold?: number;
  /** when the rule is armed, in the company time zone: start and end HHMM */
  window?: { days: number[]; start: number; end: number };
}

/** `alerttriggered` data (spec "Events", "the service events"). */
export interface AlertTriggeredEventData {
  alert: {
    /** the rule's id */
    id: string;
    config: AlertRuleConfig;
    companyUid: string;
    title: string;
    description: string;
    /** generated text */
    message: string;
    action: AlertAction;
    /** our number for `action` (docs/alerts.md) */
    actionCode: number;
    /** our number (docs/alerts.md) */
    type: number;
    /** ms, when configured */
    interval?: number;
    /** ms: the rule's creation time */
    tsCreated: number;
  };
  member: EventMember;
  place?: EventPlace;
  zone?: { id: string; name: string };
  checkType?: 'IN' | 'OUT';
}

declare module './outbox-events' {
  interface OutboxEvents {
    /** form `id` `<member_uid>-<place_uid>-<ts>` */
    placecheckin: { key: 'place_checked'; id: `${string}-${string}-${number}`; data: PlaceCheckEventData };
    placecheckout: { key: 'place_checked'; id: `${string}-${string}-${number}`; data: PlaceCheckEventData };
    /** form `id` `<member_uid>-<ts>-<action>` */
    clockin: { key: 'clock_in_out'; id: `${string}-${number}-clockin`; data: ClockEventData };
    clockout: { key: 'clock_in_out'; id: `${string}-${number}-clockout`; data: ClockEventData };
    /** form `id` = the firing's id */
    alerttriggered: { key: 'alert_triggered'; id: string; data: AlertTriggeredEventData };
  }
}
