/**
 * Time accounting for the time reports (timesheet, timeallocation, memberonsite, statistics): pure
 * functions over half-open intervals of instants, [start, end) in ms since the epoch. No I/O, no
 * clock: "now" is a parameter. Days are calendar days in an IANA zone, so a DST day is 23 or 25 h long
 * and an interval crossing midnight is split at the zone's midnight (docs/reports-time.md).
 */
import { addDays, dayInZone, groupBy, zonedDayTimeToMs } from '@app/core/pure';

/** [start, end) in ms since the epoch; empty when end ≤ start. */
export interface Interval {
  start: number;
  end: number;
}

/** A piece of an interval inside one calendar day (YYYYMMDD in the zone it was split by). */
export interface DayPiece extends Interval {
  day: number;
}

/** A clock event: the reported tracking state (`true` = clocked in) from `ts` (ms) on. */
export interface ClockEvent {
  ts: number;
  tracking: boolean;
}

/** The clocked-in intervals of a span, and whether the last one was still open at the span's end. */
export interface ClockedTime {
  intervals: Interval[];
  /** true when the member was still clocked in at the end counted (no clock-out by then) */
  openAtEnd: boolean;
}

/** The instants bounding days `from`..`until` (YYYYMMDD, inclusive) in `zone`: [from 00:00, day after until 00:00). */
export function daysSpan(from: number, until: number, zone: string): Interval {
  return { start: zonedDayTimeToMs(from, 0, zone), end: zonedDayTimeToMs(addDays(until, 1), 0, zone) };
}

/**
 * The clocked-in intervals within `span` from clock events.
 * - `before`: the state in force at `span.start` (the last event before it; `false` when none);
 * - `events`: the events in [span.start, span.end), in ts order; a repeated state changes nothing;
 * - an interval still open at the end is counted up to min(span.end, nowMs) and `openAtEnd` is set
 *   (a member who forgot to clock out is counted as working until then: we hold no other end).
 */
export function clockedIntervals(before: boolean, events: readonly ClockEvent[], span: Interval, nowMs: number): ClockedTime {
  const intervals: Interval[] = [];
  let openSince: number | null = before ? span.start : null;
  for (const e of events) {
    if (e.ts < span.start || e.ts >= span.end) continue;
    if (e.tracking && openSince === null) openSince = e.ts;
    else if (!e.tracking && openSince !== null) {
      if (e.ts > openSince) intervals.push({ start: openSince, end: e.ts });
      openSince = null;
    }
  }
  let openAtEnd = false;
  if (openSince !== null) {
    const end = Math.min(span.end, nowMs);
    if (end > openSince) intervals.push({ start: openSince, end });
    openAtEnd = true;
  }
  return { intervals, openAtEnd };
}

/** The union of `intervals` as sorted, disjoint, non-empty intervals (touching ones joined). */
export function union(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter((i) => i.end > i.start).sort((a, b) => a.start - b.start || a.end - b.end);
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else out.push({ start: i.start, end: i.end });
  }
  return out;
}

/** `a` minus every interval of `b`, as sorted disjoint intervals. */
export function subtract(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const cut = union(b);
  const out: Interval[] = [];
  for (const i of union(a)) {
    let start = i.start;
    for (const c of cut) {
      if (c.end <= start) continue;
      if (c.start >= i.end) break;
      if (c.start > start) out.push({ start, end: c.start });
      start = Math.max(start, c.end);
      if (start >= i.end) break;
    }
    if (start < i.end) out.push({ start, end: i.end });
  }
  return out;
}

/** The parts of `a` inside `b` (both unions), as sorted disjoint intervals. */
export function intersect(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const x = union(a);
  const y = union(b);
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    const start = Math.max(x[i].start, y[j].start);
    const end = Math.min(x[i].end, y[j].end);
    if (end > start) out.push({ start, end });
    if (x[i].end < y[j].end) i++;
    else j++;
  }
  return out;
}

/** Each interval cut to `span` (empty ones dropped; overlaps kept). */
export function clip(intervals: readonly Interval[], span: Interval): Interval[] {
  const out: Interval[] = [];
  for (const i of intervals) {
    const start = Math.max(i.start, span.start);
    const end = Math.min(i.end, span.end);
    if (end > start) out.push({ start, end });
  }
  return out;
}

/** The summed length of `intervals` in ms (overlaps counted twice: pass a union for covered time). */
export function totalMs(intervals: readonly Interval[]): number {
  let sum = 0;
  for (const i of intervals) if (i.end > i.start) sum += i.end - i.start;
  return sum;
}

/**
 * `interval` cut at the midnights of `zone`: one piece per calendar day it touches, in order. A shift
 * 22:00–06:00 gives 22:00–24:00 on its first day and 00:00–06:00 on the next; a DST day's piece can be
 * 23 or 25 h long.
 */
export function splitByDay(interval: Interval, zone: string): DayPiece[] {
  const out: DayPiece[] = [];
  let start = interval.start;
  while (start < interval.end) {
    const day = dayInZone(start, zone);
    const midnight = zonedDayTimeToMs(addDays(day, 1), 0, zone);
    const end = Math.min(interval.end, midnight);
    out.push({ day, start, end });
    start = end;
  }
  return out;
}

/** `intervals` split by day in `zone` and grouped by day (days ascending, pieces in input order). */
export function byDay(intervals: readonly Interval[], zone: string): Map<number, DayPiece[]> {
  const days = groupBy(
    intervals.flatMap((i) => splitByDay(i, zone)),
    (p) => p.day,
  );
  return new Map([...days.entries()].sort((a, b) => a[0] - b[0]));
}

/** One member-day of the timesheet: clocked-in pieces of that day and their figures. */
export interface TimesheetDay {
  day: number;
  /** first clock-in of the day (or its midnight when a shift runs over from the day before), ms */
  firstIn: number;
  /** last clock-out of the day (or the next midnight when the shift runs on), ms; null when still clocked in at the end counted */
  lastOut: number | null;
  /** clocked-in pieces of the day */
  sessions: number;
  /** clocked-in time, s */
  worked: number;
  /** not clocked in between the day's first in and last out, s */
  pause: number;
  /** the day's last piece is the member still clocked in at the end counted */
  open: boolean;
}

/**
 * The timesheet's days from clocked-in intervals (disjoint, sorted — as {@link clockedIntervals}
 * answers them), split by `zone`'s days. `openAtEnd`: the last interval had no clock-out.
 */
export function timesheetDays(clocked: ClockedTime, zone: string): TimesheetDay[] {
  const last = clocked.intervals[clocked.intervals.length - 1];
  const out: TimesheetDay[] = [];
  for (const [day, pieces] of byDay(clocked.intervals, zone)) {
    const first = pieces[0];
    const end = pieces[pieces.length - 1];
    const open = clocked.openAtEnd && last !== undefined && end.end === last.end;
    const worked = totalMs(pieces);
    out.push({
      day,
      firstIn: first.start,
      lastOut: open ? null : end.end,
      sessions: pieces.length,
      worked: worked / 1000,
      pause: (end.end - first.start - worked) / 1000,
      open,
    });
  }
  return out;
}

/** What one member's time went to (timeallocation), non-overlapping, in s. */
export interface Allocation {
  /** clocked-in time, s */
  clocked: number;
  /** on job visits, s */
  job: number;
  /** at places, not on a job, s */
  place: number;
  /** travelling (tracks), neither on a job nor at a place, s */
  travel: number;
  /** clocked in but none of the above, s */
  idle: number;
}

/** The intervals of each kind after precedence job > place > travel > idle (each a disjoint union). */
export interface AllocationIntervals {
  clocked: Interval[];
  job: Interval[];
  place: Interval[];
  travel: Interval[];
  idle: Interval[];
}

/**
 * Splits time between jobs, places, travel and idle with precedence job > place > travel > idle:
 * job = ∪ job visits; place = ∪ place visits − job; travel = ∪ tracks − job − place; idle = clocked −
 * (job ∪ place ∪ travel). Job, place and travel time count whether clocked in or not (they are
 * observed), idle only while clocked in; so job + place + travel + idle = |clocked ∪ visits ∪ tracks|.
 */
export function allocateIntervals(clocked: readonly Interval[], jobs: readonly Interval[], places: readonly Interval[], tracks: readonly Interval[]): AllocationIntervals {
  const job = union(jobs);
  const place = subtract(places, job);
  const busy = union([...job, ...place]);
  const travel = subtract(tracks, busy);
  const idle = subtract(clocked, [...busy, ...travel]);
  return { clocked: union(clocked), job, place, travel, idle };
}

/** {@link allocateIntervals} summed, in s. */
export function allocationOf(parts: AllocationIntervals): Allocation {
  return {
    clocked: totalMs(parts.clocked) / 1000,
    job: totalMs(parts.job) / 1000,
    place: totalMs(parts.place) / 1000,
    travel: totalMs(parts.travel) / 1000,
    idle: totalMs(parts.idle) / 1000,
  };
}

/**
 * The gaps between consecutive intervals that stay within one day of `zone`: from the end reached so
 * far to the next interval's start, when positive and both instants fall on the same calendar day (a
 * gap over a midnight — the night between two working days — is none). Used for pauses (clocked-out
 * gaps between two clock-ins of a day) and time between jobs (from a visit's end to the next one's
 * start). `intervals` need not be sorted; they are taken in start order.
 */
export function sameDayGaps(intervals: readonly Interval[], zone: string): Interval[] {
  const sorted = [...intervals].filter((i) => i.end >= i.start).sort((a, b) => a.start - b.start || a.end - b.end);
  const out: Interval[] = [];
  let reach: number | null = null;
  for (const i of sorted) {
    if (reach !== null && i.start > reach && dayInZone(reach, zone) === dayInZone(i.start, zone)) out.push({ start: reach, end: i.start });
    reach = reach === null ? i.end : Math.max(reach, i.end);
  }
  return out;
}
