/**
 * What the fix- and track-based report types (`gpx`, `stopsreport`, `mileage`, `timeline`) share:
 * a member's days of the range in its own time zone, its fixes streamed a day at a time, the stop
 * rule of the tracks (libs/locations `findStops`, the same code the track builder runs) and the
 * nearest place of a position. Pure functions over the read models' rows
 * (`../reads/locations-fixes.read.ts`, `../reads/places-nearest.read.ts`): safe in the report threads.
 */
import { addDays, dayInZone, zonedDayTimeToMs } from '@app/core/pure';
import type { Fix } from '@app/locations/pure';
import { findStops, isUsable, splitRules, SplitRules } from '@app/locations/pure';
import type { ReportContext, ReportDb, ReportMember } from '../report-definition';
import { readFixRows } from '../reads/locations-fixes.read';

export { trackingOffTimes } from '../reads/locations-fixes.read';
export { NEAREST_PLACE_M, nearestPlaces, nearestPlaceSql } from '../reads/places-nearest.read';
export type { NearPlace } from '../reads/places-nearest.read';

/** One day of a member: YYYYMMDD and its instants in the member's time zone, [startMs, endMs). */
export interface MemberDay {
  day: number;
  startMs: number;
  endMs: number;
}

/**
 * The range's days `from`..`until` (YYYYMMDD, inclusive) as the member's own days: each day's
 * midnight to the next in `zone` (IANA). So a member's day 20261123 is its local 23rd, whatever the
 * company's zone (docs/reports-tracks.md, "Days").
 */
export function memberDays(from: number, until: number, zone: string): MemberDay[] {
  const days: MemberDay[] = [];
  for (let day = from; day <= until; day = addDays(day, 1)) {
    days.push({ day, startMs: zonedDayTimeToMs(day, 0, zone), endMs: zonedDayTimeToMs(addDays(day, 1), 0, zone) });
  }
  return days;
}

/** The instants bounding a member's days of the range: [first day's midnight, the day after the last's), ms. */
export function memberWindow(ctx: ReportContext, member: ReportMember): { fromMs: number; untilMs: number } {
  const range = requireRange(ctx);
  return { fromMs: zonedDayTimeToMs(range.from, 0, member.timezone), untilMs: zonedDayTimeToMs(addDays(range.until, 1), 0, member.timezone) };
}

/** The context's range. @throws Error for an undated request (every type here is dated; the api checks it first) */
export function requireRange(ctx: ReportContext): NonNullable<ReportContext['range']> {
  if (!ctx.range) throw new Error('a dated report without a range');
  return ctx.range;
}

/** The server's TRACK_STOP_MINUTES from the environment (report threads inherit the worker's; default 5, as the config's). */
export function envStopMinutes(env: NodeJS.ProcessEnv = process.env): number {
  const minutes = Number(env.TRACK_STOP_MINUTES);
  return Number.isInteger(minutes) && minutes >= 1 ? minutes : 5;
}

/**
 * The split rule's limits for a report: the context's stop threshold (`ctx.stopMinutes` — the
 * request's `stopMinutes`, else the company's `stop_minutes`, the one the track builder uses; absent:
 * {@link envStopMinutes}), 100 m, 10-min gaps, 100 m accuracy.
 */
export function trackRules(ctx: Pick<ReportContext, 'stopMinutes'>, env: NodeJS.ProcessEnv = process.env): SplitRules {
  return splitRules(ctx.stopMinutes ?? envStopMinutes(env));
}

/** A member's day and its fixes (oldest first, at least one). */
export interface FixDay extends MemberDay {
  fixes: Fix[];
}

/**
 * A member's fixes of the range, streamed through a cursor and handed over a day (the member's) at a
 * time — only days holding fixes. At most one day of fixes is in memory. The cursor stays open while
 * the caller handles a day: the caller must not query `ctx.db` before the iteration ends (one
 * connection; collect what needs a query and run it afterwards).
 */
export async function* fixDays(db: ReportDb, companyId: string, member: ReportMember, days: readonly MemberDay[]): AsyncIterable<FixDay> {
  if (!days.length) return;
  let k = 0;
  let current: Fix[] = [];
  for await (const r of readFixRows(db, companyId, member.id, days[0].startMs, days[days.length - 1].endMs)) {
    const ts = Number(r.ts);
    while (ts >= days[k].endMs) {
      if (current.length) yield { ...days[k], fixes: current };
      current = [];
      k++;
    }
    current.push({ ts, lat: r.lat, lng: r.lng, acc: r.acc, dir: r.dir, spd: r.spd, elv: r.elv, bat: r.bat });
  }
  if (current.length) yield { ...days[k], fixes: current };
}

/**
 * The recordings of a day: its fixes (oldest first) cut between two consecutive fixes `gapMs` or
 * more apart (CONTRACTS.md "Reports": one `trkseg` per recording split at gaps ≥ 10 min).
 */
export function gapSegments(fixes: readonly Fix[], gapMs: number): Fix[][] {
  const segments: Fix[][] = [];
  let current: Fix[] = [];
  for (const f of fixes) {
    if (current.length && f.ts - current[current.length - 1].ts >= gapMs) {
      segments.push(current);
      current = [];
    }
    current.push(f);
  }
  if (current.length) segments.push(current);
  return segments;
}

/** A stop found in a member's fixes. */
export interface DetectedStop {
  /** ms: the arrival (the stay's first fix) and the departure (its last fix) */
  fromTs: number;
  toTs: number;
  /** degrees: the mean position of the stay's usable fixes (Li et al.'s stay point) */
  lat: number;
  lng: number;
  /** fixes from arrival to departure, inclusive */
  fixes: number;
}

/**
 * The stops in one day of a member's fixes, by the tracks' split rule (docs/tracks.md): the fixes
 * are cut into runs at gaps ≥ `rules.gapMs` and after the last fix at or before a tracking-off time,
 * and each run searched with `findStops` (stay points: ≥ `stopMs` within `stopRadiusM`, inaccurate
 * fixes ignored). A stop's position is the mean of its usable fixes.
 * @param fixes the day's fixes, oldest first, unique `ts` (ms)
 * @param trackingOffTimes ms of the member's tracking-off events, ascending
 */
export function detectStops(fixes: readonly Fix[], trackingOffTimes: readonly number[], rules: SplitRules): DetectedStop[] {
  const stops: DetectedStop[] = [];
  let runStart = 0;
  let off = 0;
  for (let k = 0; k < fixes.length; k++) {
    while (off < trackingOffTimes.length && trackingOffTimes[off] < fixes[k].ts) off++;
    const next = fixes[k + 1];
    const offBeforeNext = off < trackingOffTimes.length && (!next || trackingOffTimes[off] < next.ts);
    if (!next || offBeforeNext || next.ts - fixes[k].ts >= rules.gapMs) {
      const run = fixes.slice(runStart, k + 1);
      for (const [a, b] of findStops(run, rules)) {
        const stay = run.slice(a, b + 1);
        const used = stay.filter((f) => isUsable(f, rules));
        stops.push({
          fromTs: run[a].ts,
          toTs: run[b].ts,
          lat: used.reduce((s, f) => s + f.lat, 0) / used.length,
          lng: used.reduce((s, f) => s + f.lng, 0) / used.length,
          fixes: stay.length,
        });
      }
      runStart = k + 1;
    }
  }
  return stops;
}

/** A position as text when no place names it: `lat, lng` to 5 decimals (about 1 m). */
export function coordinatesText(lat: number, lng: number): string {
  return `${lat.toFixed(5)}, ${lng.toFixed(5)}`;
}

/** The member's day (YYYYMMDD, its zone) of instant `ms`. */
export function memberDayOf(ms: number, member: ReportMember): number {
  return dayInZone(ms, member.timezone);
}
