import type { ReportContext, ReportDefinition, ReportMember } from '../report-definition';
import type { ColumnSpec, ReportRow } from '../report-table';
import { countTrips, readTripDayTotals, readTrips, TripDayTotalRow, TripRow } from '../reads/locations-trips.read';
import { coordinatesText, memberDayOf, memberWindow } from './track-days';

export type { TripDayTotalRow, TripRow } from '../reads/locations-trips.read';

/** The `mileage` columns: exactly the spec's keys, in its order. */
const COLUMNS: readonly ColumnSpec[] = [
  { key: 'date', title: 'Date', kind: 'date', width: 12 },
  { key: 'member', title: 'Member', kind: 'text', width: 24 },
  { key: 'start', title: 'Start', kind: 'datetime', width: 18 },
  { key: 'end', title: 'End', kind: 'datetime', width: 18 },
  { key: 'distance', title: 'Distance', kind: 'distance', width: 10 },
  { key: 'duration', title: 'Duration', kind: 'duration', width: 10 },
  { key: 'minutes', title: 'Minutes', kind: 'number', width: 9 },
  { key: 'maxspeed', title: 'Max speed', kind: 'speed', width: 10 },
  { key: 'avgspeed', title: 'Average speed', kind: 'speed', width: 10 },
  { key: 'from', title: 'From', kind: 'text', width: 26 },
  { key: 'to', title: 'To', kind: 'text', width: 26 },
  { key: 'purpose', title: 'Purpose', kind: 'text', width: 14 },
  { key: 'comment', title: 'Comment', kind: 'text', width: 14 },
  { key: 'approvalstatus', title: 'Approval status', kind: 'text', width: 12 },
  { key: 'approvedby', title: 'Approved by', kind: 'text', width: 14 },
  { key: 'placesheet', title: 'Place sheet', kind: 'text', width: 12 },
];

/** The fields we hold no data for: present and empty. */
const EMPTY = { purpose: null, comment: null, approvalstatus: null, approvedby: null, placesheet: null };

/** One trip (a stored track) as a row: `from`/`to` = the nearest place of its start/end, else their coordinates. */
export function tripRow(member: ReportMember, t: TripRow): ReportRow {
  const start = Number(t.start_ts);
  const end = Number(t.end_ts);
  const seconds = (end - start) / 1000;
  return {
    values: {
      date: memberDayOf(start, member),
      member: member.name,
      start,
      end,
      distance: t.distance,
      duration: seconds,
      minutes: seconds / 60,
      maxspeed: t.speed_max,
      avgspeed: t.speed_avg,
      from: t.from_place ?? coordinatesText(t.start_lat, t.start_lng),
      to: t.to_place ?? coordinatesText(t.end_lat, t.end_lng),
      ...EMPTY,
    },
  };
}

/**
 * A member-day's total row (the totals section after all trips): `from` says `Day total: N trips`,
 * first start, last end, summed distance and duration (driving time, not the span), the day's top
 * speed, average = distance / driving time; `to` empty.
 */
export function dayTotalRow(member: ReportMember, t: TripDayTotalRow): ReportRow {
  const seconds = t.duration_ms / 1000;
  return {
    values: {
      date: t.day,
      member: member.name,
      start: t.start_ts,
      end: t.end_ts,
      distance: t.distance,
      duration: seconds,
      minutes: seconds / 60,
      maxspeed: t.speed_max,
      avgspeed: seconds > 0 ? t.distance / seconds : 0,
      from: `Day total: ${t.trips} trip${t.trips === 1 ? '' : 's'}`,
      to: null,
      ...EMPTY,
    },
  };
}

/** The empty row between the trips and the totals: it ends the trips' table for a pivot's range detection. */
export const MILEAGE_SEPARATOR_ROW: ReportRow = { values: {} };

/** The read's query: the members' ids, their windows (their own days of the range) and zones. */
function tripsQuery(ctx: ReportContext) {
  const windows = ctx.members.map((m) => memberWindow(ctx, m));
  return {
    companyId: ctx.companyId,
    memberIds: ctx.members.map((m) => m.id),
    fromMs: windows.map((w) => w.fromMs),
    untilMs: windows.map((w) => w.untilMs),
    timezones: ctx.members.map((m) => m.timezone),
  };
}

/**
 * `mileage` (xlsx): one row per trip — a stored track (docs/tracks.md), the open one included —
 * whose start falls on one of the member's days of the range (its time zone), members in request
 * order, trips by start. The trips' rows are all alike (a table to pivot or filter); after the last
 * one, an empty row, then the totals section: one row per member-day with trips (member order, then
 * day), labelled `Day total: N trips` in `from`, summed by the read model in the same snapshot. The
 * spec's keys; `purpose`, `comment`, `approvalstatus`, `approvedby`, `placesheet` are empty (we hold
 * no such data).
 */
export const MILEAGE_REPORT: ReportDefinition = {
  type: 'mileage',
  title: 'Mileage',
  columns: COLUMNS,
  async *rows(ctx: ReportContext): AsyncIterable<ReportRow> {
    const q = tripsQuery(ctx);
    let trips = 0;
    for await (const t of readTrips(ctx.db, q)) {
      trips++;
      yield tripRow(ctx.members[Number(t.ord) - 1], t);
    }
    if (!trips) return;
    yield MILEAGE_SEPARATOR_ROW;
    for await (const d of readTripDayTotals(ctx.db, q)) yield dayTotalRow(ctx.members[Number(d.ord) - 1], d);
  },
  count: (ctx: ReportContext): Promise<number> => countTrips(ctx.db, tripsQuery(ctx)),
};
