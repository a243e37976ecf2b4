import type { ReportContext, ReportDefinition } from '../report-definition';
import type { ColumnSpec, ReportRow } from '../report-table';
import { countJobRows, JobRowsQuery, readJobRowBatches } from '../reads/jobs-rows.read';
import { jobPosition, jobValueMapper, pointOf } from './job-rows';

/**
 * The spec's `jobs` column keys in the spec's order (docs/reports.md "jobs"); `default: false` ones
 * are offered through `columns` only.
 */
export const JOB_COLUMNS: readonly ColumnSpec[] = [
  { key: 'member', title: 'Member', kind: 'text', width: 20 },
  { key: 'date', title: 'Date', kind: 'date', width: 11 },
  { key: 'title', title: 'Title', kind: 'text', width: 24 },
  { key: 'status', title: 'Status', kind: 'text', width: 10 },
  { key: 'status_ts', title: 'Status time', kind: 'datetime', width: 18 },
  { key: 'status_response', title: 'Response', kind: 'text', width: 20, default: false },
  { key: 'address', title: 'Address', kind: 'text', width: 28 },
  { key: 'place', title: 'Place', kind: 'text', width: 18 },
  { key: 'contact_name', title: 'Contact', kind: 'text', width: 18, default: false },
  { key: 'contact_phone', title: 'Contact phone', kind: 'text', width: 16, default: false },
  { key: 'teams', title: 'Team', kind: 'text', width: 14, default: false },
  { key: 'orderid', title: 'Order id', kind: 'integer', width: 10, default: false },
  { key: 'type', title: 'Type', kind: 'text', width: 8, default: false },
  { key: 'scheduled_window', title: 'Scheduled window', kind: 'text', width: 20 },
  { key: 'check_ins', title: 'Check-ins', kind: 'text', width: 18 },
  { key: 'check_outs', title: 'Check-outs', kind: 'text', width: 18 },
  { key: 'onsite', title: 'On site', kind: 'duration', width: 10 },
  { key: 'priority', title: 'Priority', kind: 'integer', width: 8, default: false },
  { key: 'created', title: 'Created', kind: 'datetime', width: 18, default: false },
  { key: 'saved', title: 'Saved', kind: 'datetime', width: 18, default: false },
  { key: 'accepted', title: 'Accepted', kind: 'datetime', width: 18, default: false },
  { key: 'pickup_items', title: 'Pickup items', kind: 'integer', width: 8, default: false },
  { key: 'dropoff_items', title: 'Drop-off items', kind: 'integer', width: 8, default: false },
  { key: 'manual_checks', title: 'NFC checks', kind: 'text', width: 18, default: false },
  { key: 'notes', title: 'Notes', kind: 'text', width: 28 },
  { key: 'latitude', title: 'Latitude', kind: 'coordinate', width: 11, default: false },
  { key: 'longitude', title: 'Longitude', kind: 'coordinate', width: 11, default: false },
  { key: 'comments', title: 'Comments', kind: 'text', width: 20, default: false },
  { key: 'signature', title: 'Signature', kind: 'text', width: 12, default: false },
  { key: 'signature_name', title: 'Signed by', kind: 'text', width: 16, default: false },
  { key: 'signature_date', title: 'Signed at', kind: 'datetime', width: 18, default: false },
  { key: 'attachments', title: 'Attachments', kind: 'text', width: 16, default: false },
  { key: 'custom_fields', title: 'Custom fields', kind: 'text', width: 24, default: false },
  { key: 'form_fields', title: 'Form fields', kind: 'text', width: 24, default: false },
  { key: 'public_url', title: 'Public link', kind: 'text', width: 24, default: false },
];

/** The range's days and the members as the job reads' query. */
export function jobQuery(ctx: ReportContext): JobRowsQuery {
  const { from, until } = ctx.range!;
  return { companyId: ctx.companyId, memberIds: ctx.members.map((m) => m.id), from, until };
}

/**
 * `jobs`: the named members' jobs whose `day` (YYYYMMDD, company time zone) lies in the range — one row
 * per job, by member (request order), day and route order; a Point at the job's destination (else
 * its place), `geometry: null` without coordinates.
 */
export const JOBS_REPORT: ReportDefinition = {
  type: 'jobs',
  title: 'Jobs',
  columns: JOB_COLUMNS,
  async *rows(ctx: ReportContext) {
    for await (const batch of jobBatches(ctx)) yield* batch;
  },
  batches: jobBatches,
  count: (ctx) => countJobRows(ctx.db, jobQuery(ctx)),
};

/** The `jobs` rows in the cursor's batches; only the columns written are read. */
async function* jobBatches(ctx: ReportContext): AsyncIterable<ReportRow[]> {
  const names = new Map(ctx.members.map((m) => [m.id, m.name]));
  // only the columns written are read (measured: 100,000 rows of the default columns read in about
  // half the time of every column's); the position only for a geojson's geometry
  const geometry = ctx.output?.geometry ?? true;
  const mapper = jobValueMapper(ctx.output?.keys, { position: geometry });
  const { timezone } = ctx.company;
  for await (const batch of readJobRowBatches(ctx.db, jobQuery(ctx), mapper.inputs)) {
    yield batch.map((r) => ({
      values: mapper.values(r, names.get(r.worker_id) ?? '', timezone, ctx.locale),
      geometry: geometry ? pointOf(jobPosition(r)) : null,
    }));
  }
}
