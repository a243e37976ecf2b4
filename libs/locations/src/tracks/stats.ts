import {
  BoundingBox,
  boundingBox,
  distanceM,
  encodeHeadings,
  encodeIntegers,
  encodePolyline,
  initialBearingDeg,
  normalizeDeg,
} from '@app/core';
import type { Fix } from '../fix';
import { isUsable, SplitRules } from './split';

/** Elevation changes smaller than this (m) are treated as GPS noise by gain/loss (see {@link trackStats}). */
export const ALTITUDE_NOISE_M = 5;

/** A track's figures, named as the `tracks` columns (camelCase). */
export interface TrackStats {
  /** ms */
  startTs: number;
  endTs: number;
  startLat: number;
  startLng: number;
  endLat: number;
  endLng: number;
  /** m, WGS84 geodesic */
  distance: number;
  waypointCount: number;
  /** m/s */
  speedAvg: number;
  speedMax: number;
  /** m, integers; null when no used fix has an elevation */
  altitudeMin: number | null;
  altitudeMax: number | null;
  altitudeGain: number | null;
  altitudeLoss: number | null;
  shortEncoded: string;
  courseEncoded: string;
  latMin: number;
  latMax: number;
  lngMin: number;
  lngMax: number;
}

/**
 * The fixes a track is drawn from: those whose accuracy is known and ≤ `maxAccuracyM` or unknown;
 * when none is, all of them (the best there is). Oldest first, as given.
 */
export function usedFixes(fixes: readonly Fix[], rules: Pick<SplitRules, 'maxAccuracyM'>): Fix[] {
  const used = fixes.filter((f) => isUsable(f, rules));
  return used.length ? used : [...fixes];
}

/**
 * The figures of one track from its fixes (a {@link Segment}'s, oldest first, at least one).
 * Everything is computed over the **used** fixes ({@link usedFixes}: `acc` > 100 m left out):
 * - `startTs`/`endTs`, start/end positions: the first and last used fix; `waypointCount` their number.
 * - `distance` (m): the sum of WGS84 geodesic distances (`distanceM`, Karney) between consecutive
 *   used fixes.
 * - `speedAvg` (m/s): distance / (endTs − startTs); 0 for a track of no duration.
 * - `speedMax` (m/s): the largest reported `spd`; when no used fix reports one, the largest speed of a
 *   step between consecutive used fixes (geodesic m / s, steps of 0 s left out), 0 for one fix.
 * - altitudes (m, rounded to integers): min and max of the reported `elv`; gain and loss accumulate
 *   only climbs or descents of at least {@link ALTITUDE_NOISE_M} from the last counted elevation
 *   (a dead band: GPS elevation jitters by a few metres, and summing every wiggle inflates the gain);
 *   all four null when no used fix has an elevation.
 * - bbox: `boundingBox` (the short way round across the antimeridian: then `lngMin > lngMax`).
 * - `shortEncoded`: Google's polyline (precision 5, `lat,lng`) of the used fixes.
 * - `courseEncoded`: one heading per used fix, in degrees clockwise from north — the reported `dir`,
 *   else the geodesic initial bearing from the previous used fix (for the first, towards the next; a
 *   lone fix without `dir` 0) — rounded to a degree, in the polyline integer encoding (`encodeHeadings`).
 */
export function trackStats(fixes: readonly Fix[], rules: Pick<SplitRules, 'maxAccuracyM'>): TrackStats {
  if (!fixes.length) throw new RangeError('a track has at least one fix');
  const used = usedFixes(fixes, rules);
  const acc = new TrackAccumulator();
  for (const f of used) acc.add(f);
  return acc.stats(boundingBox(used)!);
}

/**
 * The running figures of a track's used fixes, serialisable (JSON), so a track that only grows can be
 * extended by its new fixes instead of re-reading them all (stored as the open track's `build_state`).
 * Units as {@link TrackStats}; `distance`, `stepMax` and the altitude sums unrounded.
 */
export interface TrackAccumulatorState {
  count: number;
  first: { ts: number; lat: number; lng: number };
  last: { ts: number; lat: number; lng: number };
  distance: number;
  /** m/s: the fastest step between consecutive used fixes */
  stepMax: number;
  /** m/s: the largest reported `spd`, null when none reported one */
  reportedMax: number | null;
  /** altitude dead band: the last counted elevation, the sums and extremes (m), null without elevations */
  elv: { ref: number; gain: number; loss: number; min: number; max: number } | null;
  latMin: number;
  latMax: number;
  /** degrees, plain min/max (no antimeridian handling; see {@link TrackAccumulator.plainBox}) */
  lngMin: number;
  lngMax: number;
  /** the last encoded heading (whole degrees); null while the first fix's heading waits for a second fix */
  lastHeading: number | null;
}

/**
 * Accumulates {@link trackStats}' figures fix by fix (used fixes, oldest first): `trackStats` is this
 * accumulator run over all of a track's used fixes, and the track builder restores it from a stored
 * {@link TrackAccumulatorState} to append fixes, so both give the same figures by construction.
 * The polylines are not in the state (they grow with the track): the accumulator encodes the fixes
 * added since it was made — each point as a delta from the previous one, as Google's format does —
 * and {@link stats} answers those characters, which continue the stored polylines.
 */
export class TrackAccumulator {
  private s: TrackAccumulatorState | null;
  private short = '';
  private course = '';

  constructor(state: TrackAccumulatorState | null = null) {
    this.s = state ? { ...state, first: { ...state.first }, last: { ...state.last }, elv: state.elv && { ...state.elv } } : null;
  }

  /** The state to store (a copy), or null before the first fix. */
  state(): TrackAccumulatorState | null {
    return this.s && new TrackAccumulator(this.s).s;
  }

  /** Adds the next used fix (its `ts` after the previous one's). */
  add(f: Fix): void {
    const s = this.s;
    if (!s) {
      this.s = {
        count: 1,
        first: { ts: f.ts, lat: f.lat, lng: f.lng },
        last: { ts: f.ts, lat: f.lat, lng: f.lng },
        distance: 0,
        stepMax: 0,
        reportedMax: f.spd,
        elv: f.elv === null ? null : { ref: f.elv, gain: 0, loss: 0, min: f.elv, max: f.elv },
        latMin: f.lat,
        latMax: f.lat,
        lngMin: f.lng,
        lngMax: f.lng,
        lastHeading: f.dir === null ? null : normalizeDeg(Math.round(f.dir)),
      };
      this.short = encodePolyline([f]);
      this.course = f.dir === null ? '' : encodeHeadings([f.dir]);
      return;
    }
    const d = distanceM(s.last, f);
    s.distance += d;
    const dt = (f.ts - s.last.ts) / 1000;
    if (dt > 0) s.stepMax = Math.max(s.stepMax, d / dt);
    if (f.spd !== null) s.reportedMax = s.reportedMax === null ? f.spd : Math.max(s.reportedMax, f.spd);
    if (f.elv !== null) {
      if (!s.elv) s.elv = { ref: f.elv, gain: 0, loss: 0, min: f.elv, max: f.elv };
      const e = s.elv;
      if (f.elv - e.ref >= ALTITUDE_NOISE_M) {
        e.gain += f.elv - e.ref;
        e.ref = f.elv;
      } else if (e.ref - f.elv >= ALTITUDE_NOISE_M) {
        e.loss += e.ref - f.elv;
        e.ref = f.elv;
      }
      e.min = Math.min(e.min, f.elv);
      e.max = Math.max(e.max, f.elv);
    }
    s.latMin = Math.min(s.latMin, f.lat);
    s.latMax = Math.max(s.latMax, f.lat);
    s.lngMin = Math.min(s.lngMin, f.lng);
    s.lngMax = Math.max(s.lngMax, f.lng);
    this.short += encodePolyline([s.last, f]).slice(encodePolyline([s.last]).length);
    const headings: number[] = [];
    // the first fix without a direction heads towards the second
    if (s.lastHeading === null) headings.push(initialBearingDeg(s.first, f));
    headings.push(f.dir ?? initialBearingDeg(s.last, f));
    const rounded = headings.map((h) => normalizeDeg(Math.round(h)));
    const previous = s.lastHeading === null ? [] : [s.lastHeading];
    this.course += encodeIntegers([...previous, ...rounded]).slice(encodeIntegers(previous).length);
    s.lastHeading = rounded[rounded.length - 1];
    s.count += 1;
    s.last = { ts: f.ts, lat: f.lat, lng: f.lng };
  }

  /**
   * The bounding box of the fixes when it can be told from the plain extremes: they span less than
   * 180° of longitude, so the short way round is the plain one. Null otherwise (or before a fix).
   */
  plainBox(): BoundingBox | null {
    const s = this.s;
    if (!s || s.lngMax - s.lngMin >= 180) return null;
    return { minLat: s.latMin, maxLat: s.latMax, minLng: s.lngMin, maxLng: s.lngMax };
  }

  /**
   * The figures so far, with the track's bounding box `box`; `shortEncoded`/`courseEncoded` hold the
   * fixes added to this accumulator (all of them for one made empty; for one restored from a state,
   * the characters that continue the stored polylines). @throws RangeError before the first fix
   */
  stats(box: BoundingBox): TrackStats {
    const s = this.s;
    if (!s) throw new RangeError('a track has at least one fix');
    const durationS = (s.last.ts - s.first.ts) / 1000;
    const e = s.elv;
    return {
      startTs: s.first.ts,
      endTs: s.last.ts,
      startLat: s.first.lat,
      startLng: s.first.lng,
      endLat: s.last.lat,
      endLng: s.last.lng,
      distance: s.distance,
      waypointCount: s.count,
      speedAvg: durationS > 0 ? s.distance / durationS : 0,
      speedMax: s.reportedMax ?? s.stepMax,
      altitudeMin: e && Math.round(e.min),
      altitudeMax: e && Math.round(e.max),
      altitudeGain: e && Math.round(e.gain),
      altitudeLoss: e && Math.round(e.loss),
      shortEncoded: this.short,
      // a lone fix without a direction: 0
      courseEncoded: s.lastHeading === null ? encodeHeadings([0]) : this.course,
      latMin: box.minLat,
      latMax: box.maxLat,
      lngMin: box.minLng,
      lngMax: box.maxLng,
    };
  }
}

/** Altitude figures of {@link trackStats} (m, integers, null without elevations). */
export function altitudes(fixes: readonly Fix[]): Pick<TrackStats, 'altitudeMin' | 'altitudeMax' | 'altitudeGain' | 'altitudeLoss'> {
  const elv = fixes.map((f) => f.elv).filter((e): e is number => e !== null);
  if (!elv.length) return { altitudeMin: null, altitudeMax: null, altitudeGain: null, altitudeLoss: null };
  let gain = 0;
  let loss = 0;
  let ref = elv[0];
  for (const e of elv) {
    if (e - ref >= ALTITUDE_NOISE_M) {
      gain += e - ref;
      ref = e;
    } else if (ref - e >= ALTITUDE_NOISE_M) {
      loss += ref - e;
      ref = e;
    }
  }
  return {
    altitudeMin: Math.round(Math.min(...elv)),
    altitudeMax: Math.round(Math.max(...elv)),
    altitudeGain: Math.round(gain),
    altitudeLoss: Math.round(loss),
  };
}

/** Per-fix headings (degrees) of {@link trackStats}' `courseEncoded`, before rounding. */
export function headings(fixes: readonly Fix[]): number[] {
  return fixes.map((f, i) => {
    if (f.dir !== null) return f.dir;
    if (i > 0) return initialBearingDeg(fixes[i - 1], f);
    if (fixes.length > 1) return initialBearingDeg(f, fixes[1]);
    return 0;
  });
}
