import { distanceM, LatLng } from '@app/core';

/**
 * The pure rules the alerts fix consumer runs over a member's new fixes besides the zone rule (which
 * is the geofence engine's): battery arming and the current still period for `idle`
 * (docs/alerts-evaluation.md).
 */

/** Battery: a rule re-arms only when a later fix reports at least threshold + this margin (%). */
export const BATTERY_REARM_MARGIN = 2;

/** A fix as these rules read it: `ts` ms, degrees, `acc` m and `bat` % (null = unknown). */
export interface RuleFix {
  ts: number;
  lat: number;
  lng: number;
  acc: number | null;
  bat: number | null;
}

/**
 * `battery_low` for one rule over `fixes` (ascending ts), from `low` (true = fired, not re-armed).
 * Armed, a fix with `bat` < `threshold` whose ts `inWindow` fires (the occurrence is that fix's ts)
 * and disarms; a low fix outside the window changes nothing (the first low fix in the window fires).
 * Disarmed, a fix with `bat` ≥ `threshold` + {@link BATTERY_REARM_MARGIN} re-arms. Fixes without
 * `bat` change nothing.
 * @returns the new `low` and the fixes that fired, in ts order
 */
export function evaluateBattery(
  low: boolean,
  fixes: readonly RuleFix[],
  threshold: number,
  inWindow: (ts: number) => boolean,
): { low: boolean; fired: Array<{ ts: number; bat: number }> } {
  const fired: Array<{ ts: number; bat: number }> = [];
  for (const f of fixes) {
    if (f.bat === null) continue;
    if (!low && f.bat < threshold && inWindow(f.ts)) {
      fired.push({ ts: f.ts, bat: f.bat });
      low = true;
    } else if (low && f.bat >= threshold + BATTERY_REARM_MARGIN) low = false;
  }
  return { low, fired };
}

/** `idle`: a member has moved when a fix lies this far (m) from the first fix of its still period. */
export const IDLE_MOVE_M = 50;
/** `idle`: fixes less accurate than this (m) neither move the member nor start a still period. */
export const IDLE_MAX_ACC_M = 100;

/** The current still period: its first fix's position (degrees) and ts (ms). */
export interface StillPeriod {
  lat: number;
  lng: number;
  since: number;
}

/**
 * Advances the still period over `fixes` (ascending ts): the first counted fix starts one; a fix at
 * ≥ {@link IDLE_MOVE_M} m from the period's first fix starts a new one at that fix. Fixes with `acc`
 * > {@link IDLE_MAX_ACC_M} don't count (a fix without `acc` counts).
 * @param distance injected for tests; m between two positions
 */
export function advanceStill(
  period: StillPeriod | null,
  fixes: readonly RuleFix[],
  distance: (a: LatLng, b: LatLng) => number = distanceM,
): StillPeriod | null {
  let p = period;
  for (const f of fixes) {
    if (f.acc !== null && f.acc > IDLE_MAX_ACC_M) continue;
    if (!p || distance(p, f) >= IDLE_MOVE_M) p = { lat: f.lat, lng: f.lng, since: f.ts };
  }
  return p;
}
