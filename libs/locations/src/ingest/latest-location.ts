import { Fix } from '../fix';

/** ms: the anchor of `states.moving` is a previous latest fix at least this much older than the latest. */
export const ANCHOR_MIN_AGE_MS = 2 * 60_000;

/** A point at a time: `ts` ms, `lat`/`lng` degrees. */
export interface TimedPoint {
  ts: number;
  lat: number;
  lng: number;
}

/** A member's latest fix and its anchor, as `member_locations` keeps them (null = none yet). */
export interface LatestState {
  latest: Fix | null;
  anchor: TimedPoint | null;
}

/**
 * The latest fix and anchor after `fixes` arrive (any order), as if they had arrived one by one in
 * time order: the latest only ever moves forward (a fix not newer than the stored latest enters
 * history only), and each time it moves, the fix it replaces becomes the anchor when it is at least
 * {@link ANCHOR_MIN_AGE_MS} older than the new latest (else the anchor stays, and is older still).
 * @returns the new state, or null when no fix is newer than the stored latest (nothing to write).
 */
export function advanceLatest(state: LatestState, fixes: readonly Fix[]): LatestState | null {
  const from = state.latest?.ts ?? -Infinity;
  const newer = fixes.filter((f) => f.ts > from).sort((a, b) => a.ts - b.ts);
  if (!newer.length) return null;
  let { latest, anchor } = state;
  for (const fix of newer) {
    if (latest && latest.ts === fix.ts) continue; // a duplicate within the call
    if (latest && latest.ts <= fix.ts - ANCHOR_MIN_AGE_MS) anchor = { ts: latest.ts, lat: latest.lat, lng: latest.lng };
    latest = fix;
  }
  return { latest, anchor };
}
