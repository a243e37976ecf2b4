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

/** One row of the locate query: a member with its `member_locations` row (LEFT JOIN: all null without one). */
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
  /** The device columns: selected only for `withDetails`. */
  connection_type?: number | null;
  android_id?: string | null;
  loc_gps_on?: boolean | null;
  loc_net_on?: boolean | null;
  tracking_status?: boolean | null;
  signal_ts?: number | null;
}

/**
 * One row as the locate query returns it (the cheap form of {@link LocateRow}): `teams` as JSON text,
 * and the fix's numbers as ONE text `loc` = `ts,lat,lng,acc,dir,spd,elv,bat` (an empty field = null;
 * the whole of `loc` null when `ts`, `lat` or `lng` is null: never located). The driver turns every
 * column into a JS string, then parses it by type; 8 columns instead of 15 halve its work per row
 * (`docs/locate.md`, *Queries*). Device columns as in {@link LocateRow}.
 */
export type LocateRawRow = Omit<LocateRow, 'teams' | 'ts' | 'lat' | 'lng' | 'acc' | 'dir' | 'spd' | 'elv' | 'bat'> & {
  teams: string;
  loc: string | null;
};

/**
 * The SQL of {@link LocateRawRow}'s `loc` over `member_locations l`: NULL unless `ts`, `lat` and `lng`
 * are all set (`||` with a NULL is NULL); the optional values coalesced to "" (float8 text output is
 * the shortest exact form, so `Number()` gets the stored double back).
 */
export const LOC_SQL = `l.ts || ',' || l.lat || ',' || l.lng || ',' || coalesce(l.acc::text, '') || ',' || coalesce(l.dir::text, '')
  || ',' || coalesce(l.spd::text, '') || ',' || coalesce(l.elv::text, '') || ',' || coalesce(l.bat::text, '')`;

const optionalNumber = (s: string | undefined): number | null => (s === undefined || s === '' ? null : Number(s));

/**
 * A {@link LocateRawRow} → {@link LocateRow}. `teamsCache` (one per call) keeps each distinct `teams`
 * text parsed once (members share few team sets); the arrays it holds are shared, never mutate them.
 */
export function decodeLocateRow(raw: LocateRawRow, teamsCache: Map<string, number[]>): LocateRow {
  let teams = teamsCache.get(raw.teams);
  if (!teams) {
    teams = JSON.parse(raw.teams) as number[];
    teamsCache.set(raw.teams, teams);
  }
  const f = raw.loc === null ? undefined : raw.loc.split(',');
  const row: LocateRow = {
    uid: raw.uid,
    usr: raw.usr,
    name: raw.name,
    email: raw.email,
    phone: raw.phone,
    role: raw.role,
    teams,
    ts: f ? Number(f[0]) : null,
    lat: f ? Number(f[1]) : null,
    lng: f ? Number(f[2]) : null,
    acc: optionalNumber(f?.[3]),
    dir: optionalNumber(f?.[4]),
    spd: optionalNumber(f?.[5]),
    elv: optionalNumber(f?.[6]),
    bat: optionalNumber(f?.[7]),
  };
  if ('tracking_status' in raw) {
    row.connection_type = raw.connection_type;
    row.android_id = raw.android_id;
    row.loc_gps_on = raw.loc_gps_on;
    row.loc_net_on = raw.loc_net_on;
    row.tracking_status = raw.tracking_status;
    row.signal_ts = raw.signal_ts;
  }
  return row;
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
    record.connection_type = row.connection_type ?? null;
    record.android_id = row.android_id ?? null;
    record.loc_gps_on = row.loc_gps_on ?? null;
    record.loc_net_on = row.loc_net_on ?? null;
    record.tracking_status = row.tracking_status ?? false;
    record.signal_ts = row.signal_ts ?? 0;
  }
  return record;
}
