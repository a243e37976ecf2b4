import type { ReportContext, ReportDefinition } from '../report-definition';
import type { ColumnSpec, ReportRow } from '../report-table';
import { CheckinRow, countCheckins, readCheckins } from '../reads/locations-checkins.read';
import { jobPosition, pointOf } from './job-rows';

export type { CheckinRow } from '../reads/locations-checkins.read';

/** The `checkins` report's columns (ours; docs/reports.md "checkins"). */
const COLUMNS: readonly ColumnSpec[] = [
  { key: 'member', title: 'Member', kind: 'text', width: 20 },
  { key: 'kind', title: 'At', kind: 'text', width: 6 },
  { key: 'name', title: 'Place / job', kind: 'text', width: 24 },
  { key: 'address', title: 'Address', kind: 'text', width: 26 },
  { key: 'in', title: 'In', kind: 'datetime', width: 18 },
  { key: 'out', title: 'Out', kind: 'datetime', width: 18 },
  { key: 'duration', title: 'Duration', kind: 'duration', width: 10 },
  { key: 'latitude', title: 'Latitude', kind: 'coordinate', width: 11, default: false },
  { key: 'longitude', title: 'Longitude', kind: 'coordinate', width: 11, default: false },
  { key: 'target_id', title: 'Place / job id', kind: 'text', width: 28, default: false },
];

/** One check-in as a row: a Point at its place or job, `geometry: null` without a position. */
export function checkinRow(r: CheckinRow, memberName: string): ReportRow {
  const atJob = r.place_id === null;
  const position = atJob
    ? jobPosition({
        destination_lat: r.destination_lat,
        destination_lng: r.destination_lng,
        place_lat: r.job_place_lat,
        place_lng: r.job_place_lng,
      })
    : r.place_lat !== null && r.place_lng !== null
      ? { lat: r.place_lat, lng: r.place_lng }
      : null;
  return {
    values: {
      member: memberName,
      kind: atJob ? 'job' : 'place',
      name: (atJob ? r.job_name : r.place_name) || null,
      address: (atJob ? r.job_address : r.place_address) || null,
      in: r.in_ts,
      out: r.out_ts,
      duration: r.duration === null ? null : Math.round(r.duration / 1000),
      latitude: position?.lat ?? null,
      longitude: position?.lng ?? null,
      target_id: r.place_id ?? r.job_id,
    },
    geometry: pointOf(position),
  };
}

const checkinsQuery = (ctx: ReportContext) => ({ companyId: ctx.companyId, memberIds: ctx.members.map((m) => m.id), fromMs: ctx.range!.fromMs, untilMs: ctx.range!.untilMs });

/**
 * `checkins`: one row per check-in (a place or a job) of the named members that began in the range
 * (instants, company-zone days): who, where, in, out, duration (null while still on site).
 */
export const CHECKINS_REPORT: ReportDefinition = {
  type: 'checkins',
  title: 'Check-ins',
  columns: COLUMNS,
  async *rows(ctx: ReportContext) {
    const names = new Map(ctx.members.map((m) => [m.id, m.name]));
    for await (const r of readCheckins(ctx.db, checkinsQuery(ctx))) yield checkinRow(r, names.get(r.member_id) ?? '');
  },
  count: (ctx) => countCheckins(ctx.db, checkinsQuery(ctx)),
};
