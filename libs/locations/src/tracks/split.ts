// deep import: split.ts is pure and also runs in the report threads (no Nest there)
import { withinM } from '@app/core/pure';
import type { Fix } from '../fix';

/** The split rule's limits (CONTRACTS.md "Tracks"). */
export interface SplitRules {
  /** A stay of at least this long (ms) within {@link stopRadiusM} is a stop (TRACK_STOP_MINUTES). */
  stopMs: number;
  /** m: how far from the stop's first fix the stop's fixes stay (100). */
  stopRadiusM: number;
  /** ms: a gap between two fixes of at least this ends the track (10 min). */
  gapMs: number;
  /** m: a fix whose `acc` exceeds this is not used for distance nor for finding stops (100). */
  maxAccuracyM: number;
}

/** The contract's limits with a given TRACK_STOP_MINUTES. */
export function splitRules(trackStopMinutes: number): SplitRules {
  return { stopMs: trackStopMinutes * 60_000, stopRadiusM: 100, gapMs: 10 * 60_000, maxAccuracyM: 100 };
}

/** What ended a segment; `null`: nothing yet (the newest segment, which may still grow). */
export type SegmentEnd = 'stop' | 'gap' | 'tracking_off' | null;

/** One track's fixes (oldest first, at least one) and what ended it. */
export interface Segment {
  fixes: Fix[];
  endedBy: SegmentEnd;
  /** Its first fix is a stop's departure (so that fix is not tried as a stop anchor again). */
  startsAtDeparture: boolean;
}

/** Whether a fix is accurate enough to be used (unknown accuracy counts as accurate). */
export function isUsable(fix: Fix, rules: Pick<SplitRules, 'maxAccuracyM'>): boolean {
  return fix.acc === null || fix.acc <= rules.maxAccuracyM;
}

/**
 * The split rule (CONTRACTS.md "Tracks"): cuts a member's fixes into tracks.
 *
 * 1. **Runs.** Fixes (sorted by `ts`, a repeated `ts` kept once) are cut between two consecutive fixes
 *    `ts` ≥ `gapMs` apart, and between the last fix at or before a tracking-off time and the next fix.
 * 2. **Stops** inside a run, by stay-point detection (Q. Li et al., "Mining user similarity based on
 *    location history", ACM GIS 2008): from an anchor fix, the following usable fixes that stay within
 *    `stopRadiusM` of it (geodesic m) form a stay; a stay lasting ≥ `stopMs` (first to last fix) is a
 *    stop, and the search goes on after its last fix; otherwise the next usable fix becomes the anchor.
 *    Inaccurate fixes (`acc` > `maxAccuracyM`) neither anchor nor break a stay.
 * 3. **Where a stop's fixes go:** the track before a stop ends at the stop's first fix (the arrival),
 *    the track after it starts at the stop's last fix (the departure); the fixes between them (the
 *    dwelling) belong to no track.
 * 4. **One-fix segments:** a run of a single fix is a one-fix track (0 m, 0 s: the member was seen
 *    once); a segment holding only a stop's arrival or departure (a run that starts or ends stopped)
 *    is not a track.
 *
 * `startsAfterStop`: the first fix is the departure of a stop found earlier (a rebuild that starts
 * at such a track's start), so it is not tried as a stop anchor — the result then equals that of
 * splitting the whole history.
 *
 * @param fixes a member's fixes, any order (ts ms)
 * @param trackingOffTimes ms of the member's tracking-off (clock out) events, any order
 * @returns the segments, oldest first; the last one's `endedBy` tells whether the rule closed it
 */
export function splitTracks(
  fixes: readonly Fix[],
  trackingOffTimes: readonly number[],
  rules: SplitRules,
  startsAfterStop = false,
): Segment[] {
  const sorted = [...fixes].sort((a, b) => a.ts - b.ts).filter((f, i, all) => i === 0 || f.ts !== all[i - 1].ts);
  const offs = [...trackingOffTimes].sort((a, b) => a - b);
  const segments: Segment[] = [];
  let runStart = 0;
  let offIdx = 0;
  for (let k = 0; k < sorted.length; k++) {
    while (offIdx < offs.length && offs[offIdx] < sorted[k].ts) offIdx++;
    const next = sorted[k + 1];
    let end: SegmentEnd = null;
    if (offIdx < offs.length && (!next || offs[offIdx] < next.ts)) end = 'tracking_off';
    else if (next && next.ts - sorted[k].ts >= rules.gapMs) end = 'gap';
    if (end || !next) {
      segments.push(...splitRun(sorted.slice(runStart, k + 1), end, rules, startsAfterStop && runStart === 0));
      runStart = k + 1;
    }
  }
  return segments;
}

/** Step 2–4 of {@link splitTracks} for one run; `runEnd` = what ended the run. */
function splitRun(run: Fix[], runEnd: SegmentEnd, rules: SplitRules, startsAfterStop: boolean): Segment[] {
  const stops = findStops(run, rules, startsAfterStop);
  const segments: Segment[] = [];
  let cursor = 0;
  let cursorIsDeparture = startsAfterStop;
  for (const [arrival, departure] of stops) {
    // a segment holding only the arrival (the run starts stopped, or right after a departure) is no track
    if (arrival > cursor) segments.push({ fixes: run.slice(cursor, arrival + 1), endedBy: 'stop', startsAtDeparture: cursorIsDeparture });
    cursor = departure;
    cursorIsDeparture = true;
  }
  const tail = run.slice(cursor);
  // a run that ends stopped: its last fix is the departure that has not happened yet, no track
  if (!(cursorIsDeparture && tail.length === 1)) segments.push({ fixes: tail, endedBy: runEnd, startsAtDeparture: cursorIsDeparture });
  return segments;
}

/**
 * Where a growing track's stop search must resume when fixes are appended (ms, a usable fix's `ts`):
 * the earliest usable fix from which every later usable fix of the segment stays within
 * `stopRadiusM` — only such an anchor's stay can still grow into a stop. Anchors older than `stopMs`
 * before the last usable fix are left out (their stay would already be a stop). Distances are judged
 * with a fast equirectangular estimate and a 3 % margin, so an anchor is never wrongly left out (an
 * earlier answer only makes the next read longer). `segment.fixes` oldest first.
 */
export function stopSearchResumeTs(segment: Segment, rules: SplitRules): number {
  const usable = segment.fixes.filter((f) => isUsable(f, rules));
  if (!usable.length) return segment.fixes[0].ts;
  const last = usable[usable.length - 1];
  const limit = rules.stopRadiusM * 1.03;
  for (let a = 0; a < usable.length - 1; a++) {
    const anchor = usable[a];
    if (last.ts - anchor.ts >= rules.stopMs) continue;
    const kx = Math.cos((anchor.lat * Math.PI) / 180) * METRES_PER_DEGREE;
    let within = true;
    for (let b = a + 1; b < usable.length && within; b++) {
      let dLng = usable[b].lng - anchor.lng;
      if (dLng > 180) dLng -= 360;
      else if (dLng < -180) dLng += 360;
      const dx = dLng * kx;
      const dy = (usable[b].lat - anchor.lat) * METRES_PER_DEGREE;
      within = dx * dx + dy * dy <= limit * limit;
    }
    if (within) return anchor.ts;
  }
  return last.ts;
}

/** m per degree of latitude on a sphere of the mean Earth radius (6,371,008.8 m). */
const METRES_PER_DEGREE = (6_371_008.8 * Math.PI) / 180;

/**
 * Step 2 of {@link splitTracks}, the stay-point search over one run (fixes oldest first, unique `ts`):
 * the stops as [arrival, departure] indexes into `run`. An anchor's stay is a stop exactly when
 * every usable fix up to the first one at least `stopMs` after the anchor (h) is within the radius;
 * h — far away for a member on the move — is tried first and the fixes between only when it is
 * within, so the search is linear in the fixes for a moving member (Li et al.'s search grows each
 * stay fix by fix: the same stops, tested against it in split.spec.ts).
 */
export function findStops(run: readonly Fix[], rules: SplitRules, startsAfterStop = false): Array<[number, number]> {
  const usable: number[] = [];
  run.forEach((f, i) => {
    if (isUsable(f, rules)) usable.push(i);
  });
  const stops: Array<[number, number]> = [];
  let a = startsAfterStop && usable[0] === 0 ? 1 : 0;
  // h: the first usable fix at least stopMs after the anchor. The anchor's stay is a stop exactly when
  // every usable fix up to h is within the radius, so h (far away for a moving member) is tried first
  // and the fixes between only when it is within: linear in the fixes for a member on the move.
  let h = a;
  while (a < usable.length) {
    const anchor = run[usable[a]];
    if (h < a) h = a;
    while (h < usable.length && run[usable[h]].ts - anchor.ts < rules.stopMs) h++;
    const within = (i: number) => withinM(anchor, run[usable[i]], rules.stopRadiusM);
    if (h === usable.length || !within(h)) {
      a++;
      continue;
    }
    let b = a;
    while (b + 1 < usable.length && within(b + 1)) b++;
    if (b >= h) {
      stops.push([usable[a], usable[b]]);
      a = b + 1;
    } else {
      a++;
    }
  }
  return stops;
}
