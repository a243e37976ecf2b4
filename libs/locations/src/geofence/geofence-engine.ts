/**
 * The geofence rule (CONTRACTS.md, "Places, check-ins, clock" — Geofencing and Job check-ins): a pure
 * function over a member's per-geofence state and its new fixes, so the rule is tested apart from
 * SQL. The evaluator (`geofence-evaluator.service.ts`) loads the inputs and writes the outcome.
 */
import { distanceM, LatLng } from '@app/core';

/** 30 min in ms: a visit with no fix for this long is closed at its last fix inside. */
export const VISIT_GAP_MS = 30 * 60_000;

/** The hysteresis margin beyond the radius: max(20 m, 25 % of the radius), in m. */
export function hysteresisMarginM(radiusM: number): number {
  return Math.max(20, 0.25 * radiusM);
}

/**
 * One geofence: a place or a job of the member. `key` is the evaluator's (`p:<placeId>`,
 * `j:<jobId>`); `center` degrees; `radius` m (> 0: the caller has already put the company default
 * for 0). `from`/`until` (ms, `until` exclusive) bound the fixes that count for it (a job counts only
 * fixes of its day); absent = always.
 */
export interface Geofence {
  key: string;
  center: LatLng;
  radius: number;
  from?: number;
  until?: number;
}

/**
 * A fence whose zone of a fix is decided by the caller instead of by the distance to a centre: e.g. an
 * alert zone, a polygon classified by PostGIS (`ST_Covers` → `in`, within a band → `edge`, else
 * `out`). `maxAcc` (m): fixes whose `acc` exceeds it don't count (absent = every fix counts). `key`,
 * `from` and `until` as {@link Geofence}.
 */
export interface ClassifiedFence {
  key: string;
  classify: (fix: GeofenceFix) => Zone;
  maxAcc?: number;
  from?: number;
  until?: number;
}

/** What {@link evaluateGeofences} runs the rule over: a circle around a centre, or a fence classified by the caller. */
export type Fence = Geofence | ClassifiedFence;

/** A fix as the rule reads it: `ts` ms, degrees, `acc` m (null = unknown, counts). */
export interface GeofenceFix {
  ts: number;
  lat: number;
  lng: number;
  acc: number | null;
}

/**
 * What the rule remembers per geofence (stored as JSON in `geofence_states.state`). A fence that is
 * outside with nothing pending has no entry.
 * - `inside`: the member is checked in (a visit is open since `inTs`).
 * - `runTs`: the first fix of the run that may change the state (the first fix inside while
 *   outside, the first fix beyond while inside), null when none is pending.
 * - `lastInTs`: the last fix inside the radius of the open visit (what a 30-min gap closes it at).
 * - `lastTs`: the last fix that counted for this fence (any zone), for the 30-min gap.
 */
export interface FenceState {
  inside: boolean;
  inTs: number | null;
  runTs: number | null;
  lastInTs: number | null;
  lastTs: number;
}

/** A decided entry or exit. `ts` ms: the entry time, or the exit time (`gap`: the last fix inside). */
export interface GeofenceTransition {
  key: string;
  kind: 'in' | 'out';
  ts: number;
  /** for `out`: the visit's entry time */
  inTs?: number;
  /** for `out`: true when closed by the 30-min gap rather than by fixes beyond the ring */
  gap?: boolean;
}

/**
 * The rule's settings: dwell (ms; the company's `checkin_dwell_seconds` × 1000) and the gap (ms;
 * `Infinity` = a visit is never closed by silence, only by fixes beyond).
 */
export interface GeofenceRules {
  dwellMs: number;
  gapMs: number;
}

/** What {@link evaluateGeofences} answers: the new states (by fence key) and the transitions in ts order. */
export interface GeofenceOutcome {
  states: Record<string, FenceState>;
  transitions: GeofenceTransition[];
  /** open visits of fences no longer given (a deleted place, a job not of the day): closed without an event */
  dropped: Array<{ key: string; inTs: number; lastInTs: number }>;
}

/** Where a fix lies relative to a fence: within the radius, in the hysteresis ring, or beyond it. */
export type Zone = 'in' | 'edge' | 'out';

/** The zone of a point at `distance` m from a fence of `radius` m. */
export function zoneOf(distance: number, radius: number): Zone {
  if (distance <= radius) return 'in';
  return distance > radius + hysteresisMarginM(radius) ? 'out' : 'edge';
}

/**
 * Runs the geofence rule over `fixes` (ascending `ts`, all newer than anything evaluated before) for
 * every fence of `fences`, starting from `states` (not modified). Per fence, fix by fix:
 * 1. A fix counts only when its `acc` is null or ≤ the radius (a {@link ClassifiedFence}: ≤ its
 *    `maxAcc`, when set), and its ts is in [`from`, `until`).
 * 2. Gap: when the fence has a pending run or an open visit and this fix comes ≥ `gapMs` after the
 *    fence's last counted fix, an open visit is closed (`out`, `gap: true`) at its last fix inside,
 *    and a pending run is forgotten; the fix is then read from the outside state.
 * 3. Zone by geodesic distance ({@link distanceM}, WGS84 — what PostGIS geography answers, so the
 *    evaluator's `ST_DWithin` candidate search and this rule agree at the boundary): `in` ≤ radius;
 *    `out` > radius + max(20 m, 25 % of radius); `edge` between them. A {@link ClassifiedFence}'s
 *    zone is what its `classify` answers for the fix.
 * 4. Outside: an `in` fix starts a run (`runTs`) if none is pending, and when it comes ≥ `dwellMs`
 *    after `runTs` the member is *in* with entry time `runTs` (dwell 0: at once). An `out` fix drops
 *    the run. An `edge` fix changes nothing (neither starts, confirms nor drops a run).
 * 5. Inside: an `out` fix starts an exit run if none is pending, and when it comes ≥ `dwellMs` after
 *    its start the member is *out* with exit time = the run's first fix. An `in` fix drops the exit
 *    run (and is the visit's new last fix inside). An `edge` fix changes nothing.
 * Fences of `states` missing from `fences` are dropped; an open visit among them is answered in
 * `dropped` (the caller closes its record without an event).
 * @param distance injected for tests; m between two positions
 */
export function evaluateGeofences(
  states: Readonly<Record<string, FenceState>>,
  fences: readonly Fence[],
  fixes: readonly GeofenceFix[],
  rules: GeofenceRules,
  distance: (a: LatLng, b: LatLng) => number = distanceM,
): GeofenceOutcome {
  const next: Record<string, FenceState> = {};
  const transitions: GeofenceTransition[] = [];
  const given = new Set(fences.map((f) => f.key));
  const dropped: GeofenceOutcome['dropped'] = [];
  for (const [key, s] of Object.entries(states)) {
    if (!given.has(key) && s.inside && s.inTs !== null) dropped.push({ key, inTs: s.inTs, lastInTs: s.lastInTs ?? s.inTs });
  }

  for (const fence of fences) {
    const prior = states[fence.key];
    const s: FenceState = prior ? { ...prior } : { inside: false, inTs: null, runTs: null, lastInTs: null, lastTs: 0 };
    const classified = 'classify' in fence ? fence : undefined;
    const maxAcc = classified ? (classified.maxAcc ?? Infinity) : (fence as Geofence).radius;
    for (const fix of fixes) {
      if (fix.acc !== null && fix.acc > maxAcc) continue;
      if ((fence.from !== undefined && fix.ts < fence.from) || (fence.until !== undefined && fix.ts >= fence.until)) continue;
      if ((s.inside || s.runTs !== null) && fix.ts - s.lastTs >= rules.gapMs) {
        if (s.inside) {
          transitions.push({ key: fence.key, kind: 'out', ts: s.lastInTs ?? s.inTs!, inTs: s.inTs!, gap: true });
          s.inside = false;
          s.inTs = null;
          s.lastInTs = null;
        }
        s.runTs = null;
      }
      s.lastTs = fix.ts;
      const zone = classified ? classified.classify(fix) : zoneOf(distance(fix, (fence as Geofence).center), (fence as Geofence).radius);
      if (!s.inside) {
        if (zone === 'in') {
          s.runTs ??= fix.ts;
          if (fix.ts - s.runTs >= rules.dwellMs) {
            transitions.push({ key: fence.key, kind: 'in', ts: s.runTs });
            s.inside = true;
            s.inTs = s.runTs;
            s.lastInTs = fix.ts;
            s.runTs = null;
          }
        } else if (zone === 'out') s.runTs = null;
      } else if (zone === 'in') {
        s.runTs = null;
        s.lastInTs = fix.ts;
      } else if (zone === 'out') {
        s.runTs ??= fix.ts;
        if (fix.ts - s.runTs >= rules.dwellMs) {
          transitions.push({ key: fence.key, kind: 'out', ts: s.runTs, inTs: s.inTs! });
          s.inside = false;
          s.inTs = null;
          s.lastInTs = null;
          s.runTs = null;
        }
      }
    }
    if (s.inside || s.runTs !== null) next[fence.key] = s;
  }
  transitions.sort((a, b) => a.ts - b.ts); // stable: one fence's transitions keep their order
  return { states: next, transitions, dropped };
}
