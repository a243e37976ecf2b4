import { distanceM, LatLng } from './geodesic';

/** `states.moving` (CONTRACTS.md "Locations, devices, tracks"): the spec leaves its values open. */
export type MovingState = 'moving' | 'stopped' | 'offline' | '';

/** A latest fix counts as current for this long after its `ts` (ms): 10 min. */
export const MOVING_FRESH_MS = 10 * 60_000;
/** Reported speed from which a member counts as moving, m/s. */
export const MOVING_MIN_SPEED_MPS = 1;
/** Distance from the fix ≥ 2 min before from which a member counts as moving, m. */
export const MOVING_MIN_DISTANCE_M = 50;
/** The anchor must be at least this much older than the latest fix (ms): 2 min. */
export const MOVING_ANCHOR_MIN_GAP_MS = 2 * 60_000;
/**
 * An anchor older than this before the latest fix (ms, 10 min) is not "the fix 2 min before" but
 * the last fix before a gap: it is not compared (a phone switched on again after a drive is not moving).
 */
export const MOVING_ANCHOR_MAX_GAP_MS = 10 * 60_000;

/** The member's latest fix: `ts` ms, `lat`/`lng` degrees, `spd` m/s (null = unknown). */
export interface MovingFix extends LatLng {
  ts: number;
  spd: number | null;
}

/** The anchor: the newest earlier latest fix at least 2 min older than the latest one (`ts` ms). */
export interface MovingAnchor extends LatLng {
  ts: number;
}

/**
 * Whether a member is moving, from its latest-location row alone (`member_locations`: the latest fix,
 * the `anchor_*` fix and `tracking_status`), at `now` (ms):
 *
 * - `""` — never located (`latest` null), or tracking off (`trackingStatus` false);
 * - `"offline"` — tracking on, but the latest fix is older than 10 min (`now - ts > 600,000 ms`);
 * - `"moving"` — the latest fix is within 10 min and its speed is ≥ 1 m/s, or it lies ≥ 50 m
 *   (geodesic, WGS84) from the anchor, an earlier fix 2–10 min older than it;
 * - `"stopped"` — the latest fix is within 10 min and none of the above.
 *
 * A fix stamped slightly in the future (ingestion allows 5 min) counts as within 10 min.
 * Rules: CONTRACTS.md "Locations, devices, tracks" (`states.moving`); the 10-min anchor limit is ours
 * (docs/locate.md).
 */
export function movingState(latest: MovingFix | null, anchor: MovingAnchor | null, trackingStatus: boolean, now: number): MovingState {
  if (!latest || !trackingStatus) return '';
  if (now - latest.ts > MOVING_FRESH_MS) return 'offline';
  if (latest.spd !== null && latest.spd >= MOVING_MIN_SPEED_MPS) return 'moving';
  if (anchor) {
    const gap = latest.ts - anchor.ts;
    if (gap >= MOVING_ANCHOR_MIN_GAP_MS && gap <= MOVING_ANCHOR_MAX_GAP_MS && distanceM(anchor, latest) >= MOVING_MIN_DISTANCE_M)
      return 'moving';
  }
  return 'stopped';
}
