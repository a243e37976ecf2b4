import type { ReportContext, ReportDefinition } from '../report-definition';
import type { ColumnSpec, ReportRow } from '../report-table';
import { jobPosition, pointOf } from './job-rows';

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

/** A `checkins` row with its place's or job's name, address and position. */
export interface CheckinRow {
  member_id: string;
  place_id: string | null;
  job_id: string | null;
  in_ts: number;
  out_ts: number | null;
  /** ms (as stored) */
  duration: number | null;
  place_name: string | null;
  place_address: string | null;
  place_lat: number | null;
  place_lng: number | null;
  job_name: string | null;
  job_address: string | null;
  destination_lat: number | null;
  destination_lng: number | null;
  job_place_lat: number | null;
  job_place_lng: number | null;
}

const WHERE = `k.company_id = $1 AND k.member_id = ANY($2::text[]) AND k.in_ts >= $3 AND k.in_ts < $4`;

/**
 * The members' check-ins (`checkins`, the geofence's place and job visits) that began in the range,
 * by member (request order), then in time. A job's position is its destination, else its place's.
 */
const ROWS_SQL = `
  SELECT k.member_id, k.place_id, k.job_id, k.in_ts::float8 AS in_ts, k.out_ts::float8 AS out_ts, k.duration::float8 AS duration,
         p.name AS place_name, NULLIF(concat_ws(', ', NULLIF(p.address, ''), NULLIF(p.city, '')), '') AS place_address,
         ST_Y(p.location::geometry) AS place_lat, ST_X(p.location::geometry) AS place_lng,
         j.destination_name AS job_name, j.destination_text AS job_address, j.destination_lat, j.destination_lng,
         ST_Y(jp.location::geometry) AS job_place_lat, ST_X(jp.location::geometry) AS job_place_lng
    FROM checkins k
    LEFT JOIN places p ON p.company_id = k.company_id AND p.id = k.place_id
    LEFT JOIN jobs j ON j.company_id = k.company_id AND j.id = k.job_id
    LEFT JOIN places jp ON jp.company_id = j.company_id AND jp.id = j.place_uid
   WHERE ${WHERE}
   ORDER BY array_position($2::text[], k.member_id), k.in_ts, k.id`;

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

const params = (ctx: ReportContext) => [ctx.companyId, ctx.members.map((m) => m.id), ctx.range!.fromMs, ctx.range!.untilMs];

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
    for await (const r of ctx.db.cursor<CheckinRow>(ROWS_SQL, params(ctx))) yield checkinRow(r, names.get(r.member_id) ?? '');
  },
  async count(ctx) {
    const [{ n }] = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM checkins k WHERE ${WHERE}`, params(ctx));
    return n;
  },
};
