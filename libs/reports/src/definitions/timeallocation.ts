import { addDays } from '@app/core/pure';
import type { ReportContext, ReportDefinition, ReportMember } from '../report-definition';
import type { ColumnSpec, ReportRow } from '../report-table';
import { allocateIntervals, byDay, Interval, splitByDay } from './time-accounting';
import { memberSpan, readClocked, readTracks, readVisits } from './time-data';

/** The `timeallocation` report's columns (ours; docs/reports.md "timeallocation"). */
const COLUMNS: readonly ColumnSpec[] = [
  { key: 'member', title: 'Member', kind: 'text', width: 24 },
  { key: 'date', title: 'Date', kind: 'date', width: 12 },
  { key: 'job', title: 'On jobs', kind: 'duration', width: 11 },
  { key: 'place', title: 'At places', kind: 'duration', width: 11 },
  { key: 'travel', title: 'Travelling', kind: 'duration', width: 11 },
  { key: 'idle', title: 'Idle', kind: 'duration', width: 11 },
  { key: 'total', title: 'Total', kind: 'duration', width: 11 },
  { key: 'clocked', title: 'Clocked in', kind: 'duration', width: 11 },
  { key: 'job_visits', title: 'Job visits', kind: 'integer', default: false },
  { key: 'place_visits', title: 'Place visits', kind: 'integer', default: false },
  { key: 'username', title: 'Username', kind: 'text', default: false, width: 28 },
];

const ALLOCATION_KEYS = ['clocked', 'job', 'place', 'travel', 'idle'] as const;

/** Each day of `from`..`until` (YYYYMMDD, inclusive). */
function daysOf(from: number, until: number): number[] {
  const out: number[] = [];
  for (let d = from; d <= until; d = addDays(d, 1)) out.push(d);
  return out;
}

/** Seconds of `pieces` on each day. */
function secondsByDay(intervals: readonly Interval[], zone: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const [day, pieces] of byDay(intervals, zone)) out.set(day, pieces.reduce((s, p) => s + p.end - p.start, 0) / 1000);
  return out;
}

/** Visits starting on each day (member zone). */
function startsByDay(intervals: readonly Interval[], zone: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const i of intervals) {
    const day = splitByDay({ start: i.start, end: i.start + 1 }, zone)[0].day;
    out.set(day, (out.get(day) ?? 0) + 1);
  }
  return out;
}

/** The zip's file name for a member: its name, with the username when two named members share a name. */
function groupNames(members: readonly ReportMember[]): Map<string, string> {
  const seen = new Map<string, number>();
  for (const m of members) seen.set(m.name, (seen.get(m.name) ?? 0) + 1);
  return new Map(members.map((m) => [m.id, (seen.get(m.name) ?? 0) > 1 ? `${m.name} (${m.username})` : m.name]));
}

/**
 * `timeallocation`: per member (request order, its rows together) and per day of the range (the
 * member's zone; every day, also empty ones), the time on jobs, at places, travelling and idle —
 * non-overlapping, precedence job > place > travel > idle (`allocateIntervals`). A visit's time is
 * its on-site time by the one rule (`./onsite.ts`, applied by `readVisits`). Each row's `group` is the
 * member's name (zip: one csv per member).
 */
export const TIMEALLOCATION_REPORT: ReportDefinition = {
  type: 'timeallocation',
  title: 'Time allocation',
  columns: COLUMNS,
  async *rows(ctx: ReportContext) {
    if (!ctx.range) return;
    const now = Date.now();
    const groups = groupNames(ctx.members);
    for (const member of ctx.members) {
      const span = memberSpan(ctx, member);
      const zone = member.timezone;
      const clocked = await readClocked(ctx.db, ctx.companyId, member.id, span, now);
      const visits = await readVisits(ctx.db, ctx.companyId, member.id, span, now);
      const tracks = await readTracks(ctx.db, ctx.companyId, member.id, span);
      const jobs = visits.filter((v) => v.kind === 'job');
      const places = visits.filter((v) => v.kind === 'place');
      const parts = allocateIntervals(
        clocked.intervals,
        jobs,
        places,
        tracks.map((t) => ({ start: Math.max(t.start, span.start), end: Math.min(t.end, span.end) })),
      );
      const per = {
        clocked: secondsByDay(parts.clocked, zone),
        job: secondsByDay(parts.job, zone),
        place: secondsByDay(parts.place, zone),
        travel: secondsByDay(parts.travel, zone),
        idle: secondsByDay(parts.idle, zone),
      };
      const jobVisits = startsByDay(jobs, zone);
      const placeVisits = startsByDay(places, zone);
      for (const day of daysOf(ctx.range.from, ctx.range.until)) {
        const a = { clocked: 0, job: 0, place: 0, travel: 0, idle: 0 };
        for (const k of ALLOCATION_KEYS) a[k] = per[k].get(day) ?? 0;
        const row: ReportRow = {
          values: {
            member: member.name,
            date: day,
            job: a.job,
            place: a.place,
            travel: a.travel,
            idle: a.idle,
            total: a.job + a.place + a.travel + a.idle,
            clocked: a.clocked,
            job_visits: jobVisits.get(day) ?? 0,
            place_visits: placeVisits.get(day) ?? 0,
            username: member.username,
          },
          group: groups.get(member.id),
        };
        yield row;
      }
    }
  },
  /** Exact: every member has a row for each day of the range. */
  count: async (ctx) => (ctx.range ? ctx.members.length * daysOf(ctx.range.from, ctx.range.until).length : 0),
};
