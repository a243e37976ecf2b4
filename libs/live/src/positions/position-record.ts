import { movingState, MovingState } from '@app/core';

/**
 * A member's state as the live stream, the console and `/v1/locations` name it (CONTRACTS.md "Wave 3:
 * live stream", "Member state"): computed by the server from `states.moving`.
 */
export type MemberState = 'moving' | 'halted' | 'stale' | 'off';

const STATE_OF: Record<MovingState, MemberState> = { moving: 'moving', stopped: 'halted', offline: 'stale', '': 'off' };

/** `states.moving` → the member state: `moving` → moving, `stopped` → halted, `offline` → stale, `""` → off. */
export function memberState(moving: MovingState): MemberState {
  return STATE_OF[moving];
}

/** One member's latest-location row with what a position record names (ms, degrees, m, m/s, percent). */
export interface PositionRow {
  uid: string;
  username: string;
  name: string;
  ts: number;
  lat: number;
  lng: number;
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
 * A `position` event's `data` (CONTRACTS.md "Wave 3: live stream"): `{member: {uid, username, name},
 * lat, lng, ts, acc, spd, dir, bat, state}` — `ts` ms, `lat`/`lng` degrees, `acc` m, `spd` m/s, `dir`
 * degrees, `bat` percent (null = the device never sent it), `state` at `now` (ms).
 */
export interface PositionRecord {
  member: { uid: string; username: string; name: string };
  lat: number;
  lng: number;
  ts: number;
  acc: number | null;
  spd: number | null;
  dir: number | null;
  bat: number | null;
  state: MemberState;
}

/** A row → its position record, the state computed with core's `movingState` at `now` (ms). */
export function toPositionRecord(r: PositionRow, now: number): PositionRecord {
  const anchor =
    r.anchorTs !== null && r.anchorLat !== null && r.anchorLng !== null ? { ts: r.anchorTs, lat: r.anchorLat, lng: r.anchorLng } : null;
  const moving = movingState({ ts: r.ts, lat: r.lat, lng: r.lng, spd: r.spd }, anchor, r.trackingStatus, now);
  return {
    member: { uid: r.uid, username: r.username, name: r.name },
    lat: r.lat,
    lng: r.lng,
    ts: r.ts,
    acc: r.acc,
    spd: r.spd,
    dir: r.dir,
    bat: r.bat,
    state: memberState(moving),
  };
}
