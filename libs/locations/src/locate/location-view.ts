import type { Role } from '@app/core';
import type { TeamConfig } from '@app/members';

/**
 * The spec's Location record (`locate`), field by field. Units: `ts` ms (0 = never located), `lat`/
 * `lng` degrees (null = never located), `acc` m, `dir` degrees 0..360, `spd` m/s, `elv` m, `bat`
 * percent; an optional value the device never sent is null.
 */
export interface LocationRecord {
  uid: string;
  usr: string;
  name: string;
  email: string;
  phone: string;
  teams: Array<{ name: string; number: number }>;
  lat: number | null;
  lng: number | null;
  ts: number;
  acc: number | null;
  dir: number | null;
  spd: number | null;
  elv: number | null;
  bat: number | null;
  /** Only with `withAddress`: the place the member is at, else the reverse geocoder's address, else "". */
  address?: string;
  /** Only with `withDetails` (device details the phone last reported; null = never reported). */
  connection_type?: number | null;
  android_id?: string | null;
  loc_gps_on?: boolean | null;
  loc_net_on?: boolean | null;
  tracking_status?: boolean;
  /** ms the device last received a ping; 0 = never. */
  signal_ts?: number;
}

/** A member with its `member_locations` row (all null without one), as a company snapshot holds it. */
export interface LocateRow {
  uid: string;
  usr: string;
  name: string;
  email: string;
  phone: string;
  role: Role;
  teams: number[];
  ts: number | null;
  lat: number | null;
  lng: number | null;
  acc: number | null;
  dir: number | null;
  spd: number | null;
  elv: number | null;
  bat: number | null;
  /** The device columns (answered only with `withDetails`; null without a `member_locations` row or never reported). */
  connection_type: number | null;
  android_id: string | null;
  loc_gps_on: boolean | null;
  loc_net_on: boolean | null;
  tracking_status: boolean | null;
  signal_ts: number | null;
}

/** Team id → name from the company's `teams_config`. */
export function teamNames(teamsConfig: readonly TeamConfig[]): Map<number, string> {
  return new Map(teamsConfig.map((t) => [t.id, t.name]));
}

/**
 * A locate row → the Location record. Members never located get `lat`/`lng` null and `ts` 0 (and
 * null fix values); a team missing from `teams_config` is named "". `withDetails` adds the device
 * fields; `address` is added by the caller.
 */
export function toLocationRecord(row: LocateRow, names: ReadonlyMap<number, string>, withDetails: boolean): LocationRecord {
  const located = row.ts !== null && row.lat !== null && row.lng !== null;
  const record: LocationRecord = {
    uid: row.uid,
    usr: row.usr,
    name: row.name,
    email: row.email,
    phone: row.phone,
    teams: row.teams.map((n) => ({ name: names.get(n) ?? '', number: n })),
    lat: located ? row.lat : null,
    lng: located ? row.lng : null,
    ts: located ? row.ts! : 0,
    acc: located ? row.acc : null,
    dir: located ? row.dir : null,
    spd: located ? row.spd : null,
    elv: located ? row.elv : null,
    bat: located ? row.bat : null,
  };
  if (withDetails) {
    record.connection_type = row.connection_type;
    record.android_id = row.android_id;
    record.loc_gps_on = row.loc_gps_on;
    record.loc_net_on = row.loc_net_on;
    record.tracking_status = row.tracking_status ?? false;
    record.signal_ts = row.signal_ts ?? 0;
  }
  return record;
}
