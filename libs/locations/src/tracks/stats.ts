import { boundingBox, distanceM, encodeHeadings, encodePolyline, initialBearingDeg } from '@app/core';
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
  const first = used[0];
  const last = used[used.length - 1];

  let distance = 0;
  let stepMax = 0;
  for (let i = 1; i < used.length; i++) {
    const d = distanceM(used[i - 1], used[i]);
    distance += d;
    const dt = (used[i].ts - used[i - 1].ts) / 1000;
    if (dt > 0) stepMax = Math.max(stepMax, d / dt);
  }
  const reported = used.map((f) => f.spd).filter((s): s is number => s !== null);
  const durationS = (last.ts - first.ts) / 1000;

  const box = boundingBox(used)!;
  return {
    startTs: first.ts,
    endTs: last.ts,
    startLat: first.lat,
    startLng: first.lng,
    endLat: last.lat,
    endLng: last.lng,
    distance,
    waypointCount: used.length,
    speedAvg: durationS > 0 ? distance / durationS : 0,
    speedMax: reported.length ? Math.max(...reported) : stepMax,
    ...altitudes(used),
    shortEncoded: encodePolyline(used),
    courseEncoded: encodeHeadings(headings(used)),
    latMin: box.minLat,
    latMax: box.maxLat,
    lngMin: box.minLng,
    lngMax: box.maxLng,
  };
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
