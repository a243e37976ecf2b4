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
 * The latest fix and anchor after `fixes` arrive (any order). The latest only ever moves forward: it
 * becomes the newest fix when that is newer than the stored latest (a fix not newer enters history
 * only). When it moves, the anchor becomes the newest of the previous latest fixes — the stored
 * anchor, the stored latest, and the call's fixes between the stored latest and the new one — that
 * is at least {@link ANCHOR_MIN_AGE_MS} older than the new latest (none → null). The single ingest
 * statement (`INGEST_MEMBER_SQL` in `ingest.repository.ts`) computes the same (keep them in step).
 * @returns the new state, or null when no fix is newer than the stored latest (nothing to write).
 */
export function advanceLatest(state: LatestState, fixes: readonly Fix[]): LatestState | null {
  const from = state.latest?.ts ?? -Infinity;
  let newest: Fix | null = null;
  for (const f of fixes) if (f.ts > from && (!newest || f.ts > newest.ts)) newest = f;
  if (!newest) return null;
  const bound = newest.ts - ANCHOR_MIN_AGE_MS;
  const candidates: TimedPoint[] = [];
  if (state.anchor) candidates.push(state.anchor);
  if (state.latest) candidates.push(state.latest);
  for (const f of fixes) if (f.ts > from) candidates.push(f);
  let anchor: TimedPoint | null = null;
  for (const c of candidates) if (c.ts <= bound && (!anchor || c.ts > anchor.ts)) anchor = c;
  return { latest: newest, anchor: anchor && { ts: anchor.ts, lat: anchor.lat, lng: anchor.lng } };
}
