import type { ReportContext, ReportDefinition } from '../report-definition';
import type { ColumnSpec, ReportRow } from '../report-table';
import { TimesheetDay, timesheetDays } from './time-accounting';
import { MEMBER_SPANS_SQL, memberSpan, readClocked } from './time-data';

/** The `timesheet` report's columns (ours; docs/reports-time.md). */
const COLUMNS: readonly ColumnSpec[] = [
  { key: 'member', title: 'Member', kind: 'text', width: 24 },
  { key: 'row', title: 'Row', kind: 'text', width: 7 },
  { key: 'date', title: 'Date', kind: 'date', width: 12 },
  { key: 'clock_in', title: 'Clock in', kind: 'datetime', width: 18 },
  { key: 'clock_out', title: 'Clock out', kind: 'datetime', width: 18 },
  { key: 'sessions', title: 'Sessions', kind: 'integer', width: 9 },
  { key: 'worked', title: 'Worked', kind: 'duration', width: 11 },
  { key: 'pause', title: 'Pause', kind: 'duration', width: 11 },
  { key: 'open', title: 'Still clocked in', kind: 'check', width: 9 },
  { key: 'days', title: 'Days worked', kind: 'integer', default: false },
  { key: 'username', title: 'Username', kind: 'text', default: false, width: 28 },
  { key: 'timezone', title: 'Member time zone', kind: 'text', default: false, width: 18 },
];

/** A day of a member as a row. */
export function timesheetDayRow(member: { name: string; username: string; timezone: string }, d: TimesheetDay): ReportRow {
  return {
    values: {
      member: member.name,
      row: 'day',
      date: d.day,
      clock_in: d.firstIn,
      clock_out: d.lastOut,
      sessions: d.sessions,
      worked: d.worked,
      pause: d.pause,
      open: d.open,
      days: null,
      username: member.username,
      timezone: member.timezone,
    },
  };
}

/** A member's total row: its days summed (`clock_in`/`clock_out` the first and last of them). */
export function timesheetTotalRow(member: { name: string; username: string; timezone: string }, days: readonly TimesheetDay[]): ReportRow {
  const last = days[days.length - 1];
  return {
    values: {
      member: member.name,
      row: 'total',
      date: null,
      clock_in: days.length ? days[0].firstIn : null,
      clock_out: last ? last.lastOut : null,
      sessions: days.reduce((s, d) => s + d.sessions, 0),
      worked: days.reduce((s, d) => s + d.worked, 0),
      pause: days.reduce((s, d) => s + d.pause, 0),
      open: last?.open ?? false,
      days: days.length,
      username: member.username,
      timezone: member.timezone,
    },
  };
}

/**
 * Upper bound of the rows: per member its total row plus the member-zone days its clocked-in time
 * touches (events from 31 days before the range: a clock-in left open longer than that is not
 * foreseen here, and the render then stops at the pdf limit instead).
 */
const COUNT_SQL = `
  WITH s AS (${MEMBER_SPANS_SQL}),
  ev AS (
    SELECT e.member_id, e.ts, e.tracking, lead(e.ts) OVER (PARTITION BY e.member_id ORDER BY e.ts) AS next_ts
      FROM clock_events e JOIN s ON s.id = e.member_id
     WHERE e.company_id = $1 AND e.ts >= s.start_ms - 31 * 86400000::bigint AND e.ts < s.end_ms
  )
  SELECT (SELECT count(*) FROM s)::int + (
    SELECT count(*) FROM (
      SELECT DISTINCT ev.member_id, d
        FROM ev JOIN s ON s.id = ev.member_id,
             generate_series((to_timestamp(GREATEST(ev.ts, s.start_ms) / 1000.0) AT TIME ZONE s.tz)::date,
                             (to_timestamp((LEAST(COALESCE(ev.next_ts, s.end_ms), s.end_ms) - 1) / 1000.0) AT TIME ZONE s.tz)::date,
                             interval '1 day') d
       WHERE ev.tracking AND COALESCE(ev.next_ts, s.end_ms) > s.start_ms) x)::int AS n`;

/**
 * `timesheet`: worked time from clock in/out (`clock_events`). Per member (request order) one row
 * per day of its own time zone with clocked-in time, then a total row. A shift over midnight is split
 * at the member's midnight; a clock-in still open at the range's end counts up to the end (or now).
 */
export const TIMESHEET_REPORT: ReportDefinition = {
  type: 'timesheet',
  title: 'Timesheet',
  columns: COLUMNS,
  async *rows(ctx: ReportContext) {
    const now = Date.now();
    for (const member of ctx.members) {
      const clocked = await readClocked(ctx.db, ctx.companyId, member.id, memberSpan(ctx, member), now);
      const days = timesheetDays(clocked, member.timezone);
      for (const d of days) yield timesheetDayRow(member, d);
      yield timesheetTotalRow(member, days);
    }
  },
  async count(ctx) {
    if (!ctx.range || !ctx.members.length) return ctx.members.length;
    const [r] = await ctx.db.query<{ n: number }>(COUNT_SQL, [ctx.companyId, ctx.members.map((m) => m.id), ctx.range.from, ctx.range.until]);
    return r?.n ?? ctx.members.length;
  },
};
