import type { ReportContext, ReportDefinition } from '../report-definition';
import type { ColumnSpec, ReportRow } from '../report-table';
import { TimesheetDay, timesheetDays } from './time-accounting';
import { countTimesheetRows } from '../reads/locations-time-data.read';
import { memberSpan, readClocked } from './time-data';

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
    const q = { companyId: ctx.companyId, memberIds: ctx.members.map((m) => m.id), from: ctx.range.from, until: ctx.range.until };
    return (await countTimesheetRows(ctx.db, q)) ?? ctx.members.length;
  },
};
