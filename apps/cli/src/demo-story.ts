/**
 * The demo worker's day as a list of timed steps, built from the real recorded drive
 * (`apps/cli/demo-data/around-visnjan-with-car.gpx`) by parking the car where the day's work is: the
 * drive's own fixes at their recorded spacing, and at each stop a stationary stretch (a fix every
 * {@link DWELL_FIX_MS}, a few metres of GPS scatter) long enough for the check-in dwell and the stop
 * threshold. Pure: `demo-live` sends the steps through the api.
 */

/** A recorded fix: ms since the epoch, degrees, metres (null = none). */
export interface TracePoint {
  ts: number;
  lat: number;
  lng: number;
  elv: number | null;
}

/** A place in the day where the car is parked for `dwellMs` (ms), at the drive's fix nearest `at`. */
export interface StoryStop {
  name: string;
  at: { lat: number; lng: number };
  dwellMs: number;
}

/** One step of the day; `at` is ms from the start of the day's story. */
export type StoryStep =
  | { kind: 'fix'; at: number; lat: number; lng: number; elv: number | null }
  | { kind: 'clock'; at: number; on: boolean }
  | { kind: 'arrive' | 'leave'; at: number; stop: string };

/** A stationary stretch sends a fix this often (ms), as a phone on a dashboard mount does. */
export const DWELL_FIX_MS = 30_000;

/** Squared planar distance in degrees (longitude scaled by cos φ): enough to find the nearest fix. */
function near2(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const dl = (a.lng - b.lng) * Math.cos((a.lat * Math.PI) / 180);
  return (a.lat - b.lat) ** 2 + dl * dl;
}

/**
 * The day: clock-in, the drive with the car parked at each of `stops` (in the order given, each at the
 * nearest fix after the previous stop's; a stop at the first or last fix parks before or after the
 * drive), clock-out. Stationary fixes scatter ±3 m around the parked fix (a fixed pattern: the story
 * is the same on every run). `arrive` is the first stationary fix, `leave` the last.
 * @returns the steps in time order and the story's length (ms, clock-in to clock-out)
 */
export function buildStory(trace: TracePoint[], stops: StoryStop[]): { steps: StoryStep[]; durationMs: number } {
  if (trace.length < 2) throw new Error('the demo drive needs at least two fixes');
  const parkAt = new Map<number, StoryStop[]>();
  let from = 0;
  for (const stop of stops) {
    let best = from;
    for (let i = from; i < trace.length; i++) if (near2(trace[i], stop.at) < near2(trace[best], stop.at)) best = i;
    parkAt.set(best, [...(parkAt.get(best) ?? []), stop]);
    from = best;
  }
  const steps: StoryStep[] = [{ kind: 'clock', at: 0, on: true }];
  let t = 1000;
  let k = 0;
  for (let i = 0; i < trace.length; i++) {
    if (i > 0) t += trace[i].ts - trace[i - 1].ts;
    const p = trace[i];
    steps.push({ kind: 'fix', at: t, lat: p.lat, lng: p.lng, elv: p.elv });
    for (const stop of parkAt.get(i) ?? []) {
      const n = Math.max(2, Math.round(stop.dwellMs / DWELL_FIX_MS));
      for (let s = 1; s <= n; s++) {
        t += DWELL_FIX_MS;
        k++;
        // ±3 m: 1e-5° of latitude is 1.1 m
        const lat = p.lat + 2.7e-5 * Math.sin(k * 2.3);
        const lng = p.lng + 3.8e-5 * Math.cos(k * 1.7);
        if (s === 1) steps.push({ kind: 'arrive', at: t, stop: stop.name });
        steps.push({ kind: 'fix', at: t, lat, lng, elv: p.elv });
      }
      steps.push({ kind: 'leave', at: t, stop: stop.name });
      t += DWELL_FIX_MS;
    }
  }
  steps.push({ kind: 'clock', at: t + 1000, on: false });
  return { steps, durationMs: t + 1000 };
}

/** The story is never squeezed below this share of its length: stops shorter than ~40 % of theirs stop being stops. */
export const MIN_STORY_SCALE = 0.4;

/**
 * Where a story of `durationMs` lands so that it ends at `endTs` (ms) and, when it can, starts after
 * the company's midnight (`sinceMidnightMs` before `endTs`, minus a minute): at its own pace when
 * it fits, else squeezed evenly (factor ≥ {@link MIN_STORY_SCALE}; below that its start falls on the
 * previous day). @returns step offset (ms) → its instant (ms since the epoch)
 */
export function placeStory(durationMs: number, endTs: number, sinceMidnightMs: number): (at: number) => number {
  const room = sinceMidnightMs - 60_000;
  const scale = durationMs <= room ? 1 : Math.max(MIN_STORY_SCALE, room / durationMs);
  return (at) => Math.round(endTs - (durationMs - at) * scale);
}
