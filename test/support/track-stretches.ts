import { Geodesic } from 'geographiclib-geodesic';
import type { Fix } from '@app/locations';

/** A stretch of a trace between split points, measured independently of libs/locations. */
export interface Stretch {
  fixes: Fix[];
  /** m, WGS84 geodesic (GeographicLib directly) */
  distance: number;
  durationMs: number;
}

const MIN = 60_000;

/**
 * An independent reading of the split rule for tests (no code shared with split.ts; all fixes
 * accurate, no tracking-off): cut at gaps ≥ 10 min; in each run try every fix as the start of a stay
 * (the fixes after it within 100 m); a stay of ≥ `stopMinutes` ends the stretch at its first fix
 * and starts the next at its last; a run's stretch holding only a stop's departure is none.
 * @param fixes sorted by ts
 */
export function independentStretches(fixes: Fix[], stopMinutes = 5): Stretch[] {
  const geod = Geodesic.WGS84;
  const dist = (a: Fix, b: Fix) => geod.Inverse(a.lat, a.lng, b.lat, b.lng).s12!;
  const out: Stretch[] = [];
  const runs: Fix[][] = [[]];
  fixes.forEach((f, i) => {
    if (i > 0 && f.ts - fixes[i - 1].ts >= 10 * MIN) runs.push([]);
    runs[runs.length - 1].push(f);
  });
  const measure = (stretch: Fix[]): Stretch => {
    let distance = 0;
    for (let k = 1; k < stretch.length; k++) distance += dist(stretch[k - 1], stretch[k]);
    return { fixes: stretch, distance, durationMs: stretch[stretch.length - 1].ts - stretch[0].ts };
  };
  for (const run of runs) {
    let from = 0;
    let fromIsDeparture = false;
    let i = 0;
    while (i < run.length) {
      let j = i;
      for (let k = i + 1; k < run.length && dist(run[i], run[k]) <= 100; k++) j = k;
      const isStop = (!fromIsDeparture || i > from) && run[j].ts - run[i].ts >= stopMinutes * MIN;
      if (!isStop) {
        i++;
        continue;
      }
      if (i > from) out.push(measure(run.slice(from, i + 1)));
      from = j;
      fromIsDeparture = true;
      i = j + 1;
    }
    if (!(fromIsDeparture && from === run.length - 1)) out.push(measure(run.slice(from)));
  }
  return out;
}

/** A stop of a trace read independently: its first (arrival) and last (departure) fix. */
export interface IndependentStop {
  arrival: Fix;
  departure: Fix;
  /** the stay's fixes, arrival to departure */
  fixes: Fix[];
}

/**
 * The stops of {@link independentStretches}' reading of the split rule (no code shared with
 * split.ts; all fixes accurate, no tracking-off): in each run (cut at gaps ≥ 10 min) every fix is
 * tried as the start of a stay (the following fixes within 100 m of it); a stay of ≥ `stopMinutes`
 * is a stop and the search resumes after its last fix.
 * @param fixes sorted by ts
 */
export function independentStops(fixes: Fix[], stopMinutes = 5): IndependentStop[] {
  const geod = Geodesic.WGS84;
  const dist = (a: Fix, b: Fix) => geod.Inverse(a.lat, a.lng, b.lat, b.lng).s12!;
  const out: IndependentStop[] = [];
  const runs: Fix[][] = [[]];
  fixes.forEach((f, i) => {
    if (i > 0 && f.ts - fixes[i - 1].ts >= 10 * MIN) runs.push([]);
    runs[runs.length - 1].push(f);
  });
  for (const run of runs) {
    let i = 0;
    while (i < run.length) {
      let j = i;
      for (let k = i + 1; k < run.length && dist(run[i], run[k]) <= 100; k++) j = k;
      if (run[j].ts - run[i].ts >= stopMinutes * MIN) {
        out.push({ arrival: run[i], departure: run[j], fixes: run.slice(i, j + 1) });
        i = j + 1;
      } else {
        i++;
      }
    }
  }
  return out;
}
