import { MemberState, memberState, toPositionRecord } from '@app/live/pure';
import type { LocateQuery } from './locate.service';
import type { LocationRecord } from './location-view';

/**
 * One member's latest position as `GET /v1/locations` answers it (CONTRACTS.md "Wave 3: connector for
 * automation platforms"). Units: `ts` ms, `lat`/`lng` degrees, `accuracy` m, `speed` m/s, `heading`
 * degrees 0..360, `battery` percent; a value the device never sent is null, and a member never
 * located has every position field null. `state` is the live stream's member state
 * (`moving|halted|stale|off`, computed by `@app/live`'s `memberState`); `trackingOn` the tracking
 * state the device last reported.
 */
export interface ConnectorPosition {
  member: { id: string; username: string; name: string };
  lat: number | null;
  lng: number | null;
  ts: number | null;
  accuracy: number | null;
  speed: number | null;
  heading: number | null;
  battery: number | null;
  state: MemberState;
  trackingOn: boolean;
}

/** The filters of `GET /v1/locations` (each narrows; none = every member the caller may see). */
export interface PositionsFilter {
  memberId?: string;
  /** compared case-insensitively */
  username?: string;
  team?: number;
}

/**
 * A member's `member_locations` row as the connector's position needs it (ms, degrees, m, m/s,
 * percent; null = never located or never sent): the latest fix, its `anchor_*` fix and the tracking state.
 */
export interface LatestPositionRow {
  memberId: string;
  ts: number | null;
  lat: number | null;
  lng: number | null;
  acc: number | null;
  spd: number | null;
  dir: number | null;
  bat: number | null;
  anchorTs: number | null;
  anchorLat: number | null;
  anchorLng: number | null;
  trackingStatus: boolean;
}

/**
 * The `locate` request that selects at least the members `f` names — one member by uid or username,
 * else a team's members, else every member — so that {@link matchesPositionFilter} can narrow it.
 */
export function locateQueryOf(f: PositionsFilter): LocateQuery {
  const key = f.memberId ?? f.username;
  return {
    accounts: key === undefined ? [] : [key],
    teams: key !== undefined ? undefined : f.team !== undefined ? [f.team] : 'all',
    withAddress: false,
    withDetails: false,
    ping: false,
  };
}

/** Whether a Location record passes every filter of `f` (`locate` selects by uid *or* username, and unites teams). */
export function matchesPositionFilter(r: Pick<LocationRecord, 'uid' | 'usr' | 'teams'>, f: PositionsFilter): boolean {
  if (f.memberId !== undefined && r.uid !== f.memberId) return false;
  if (f.username !== undefined && r.usr.toLowerCase() !== f.username.toLowerCase()) return false;
  return f.team === undefined || r.teams.some((t) => t.number === f.team);
}

/**
 * The connector's position of a member (identity from its Location record) from its latest-location
 * row (undefined when it has none), its state at `now` (ms) computed as the live stream computes it
 * (`toPositionRecord`).
 */
export function toConnectorPosition(
  member: Pick<LocationRecord, 'uid' | 'usr' | 'name'>,
  row: LatestPositionRow | undefined,
  now: number,
): ConnectorPosition {
  const who = { id: member.uid, username: member.usr, name: member.name };
  const trackingOn = row?.trackingStatus ?? false;
  if (!row || row.ts === null || row.lat === null || row.lng === null) {
    return {
      member: who,
      lat: null,
      lng: null,
      ts: null,
      accuracy: null,
      speed: null,
      heading: null,
      battery: null,
      state: memberState(''),
      trackingOn,
    };
  }
  const p = toPositionRecord(
    { ...row, uid: member.uid, username: member.usr, name: member.name, ts: row.ts, lat: row.lat, lng: row.lng },
    now,
  );
  return {
    member: who,
    lat: p.lat,
    lng: p.lng,
    ts: p.ts,
    accuracy: p.acc,
    speed: p.spd,
    heading: p.dir,
    battery: p.bat,
    state: p.state,
    trackingOn,
  };
}
