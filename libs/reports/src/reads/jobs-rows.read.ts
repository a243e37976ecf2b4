/**
 * The job-based reports' read model (`jobs`, `dayroute`, `worksheet`, `statistics`; docs/reports.md
 * "Read model"): a member's jobs of a range of days with their place, team and check-in visits. Reads
 * `jobs` (the jobs lib's), `places` (name, location), `companies` (`teams_config`: the team's name)
 * and `checkins` (the job's visits). Plain SQL through {@link ReportDb}: safe in the report threads
 * (no Nest, no TypeORM).
 */
import type { ReportDb } from '../report-definition';

/** A job of a member as {@link jobRowsSql} reads it (bigint columns as numbers, ms). */
export interface JobReportRow {
  id: string;
  worker_id: string;
  /** YYYYMMDD (company time zone) */
  day: number;
  number: number;
  /** HHMM, 0 unset */
  window_start: number;
  /** HHMM, 0 unset */
  window_end: number;
  type: number;
  team_name: string | null;
  destination_name: string;
  destination_text: string;
  destination_lat: number | null;
  destination_lng: number | null;
  text_dispatcher: string;
  text_receiver: string;
  contact_name: string;
  contact_phone: string;
  priority: number;
  order_id: number;
  items_to_pickup: number;
  items_to_dropoff: number;
  custom_fields: Array<{ key: string; val: string }>;
  extra: Record<string, string | number>;
  ts_created: number;
  ts_assigned: number;
  ts_accepted: number;
  ts_rejected: number;
  ts_done_success: number;
  ts_done_failed: number;
  ts_check_in: number;
  ts_check_out: number;
  ts_check_nfc1: number;
  ts_check_nfc2: number;
  ts_saved: number;
  /** ms, insert time (database clock) */
  created_at: number;
  place_name: string | null;
  /** the job's place position (degrees), when it has a place with a location */
  place_lat: number | null;
  place_lng: number | null;
  /** the job's `checkins` rows as [in ms, out ms | null], by in_ts; null when none */
  visits: Array<[number, number | null]> | null;
}

/** What the job reads select by: company, the members (request order) and the range's days (YYYYMMDD, inclusive). */
export interface JobRowsQuery {
  companyId: string;
  memberIds: string[];
  from: number;
  until: number;
}

/**
 * The route order of a member's day: `number` (0 = unnumbered, after the numbered ones), then the
 * window's start (unset after set ones), then id (stable).
 */
export const ROUTE_ORDER_SQL = `(j.number = 0), j.number, (j.window_start = 0), j.window_start, j.id`;

/** A {@link JobReportRow} field: what {@link jobRowsSql} can select. */
export type JobInput = keyof JobReportRow;

/** Each {@link JobReportRow} field's SQL (on `j` the job, `p` its place). */
const JOB_INPUT_SQL: { readonly [K in JobInput]: string } = {
  id: 'j.id',
  worker_id: 'j.worker_id',
  day: 'j.day',
  number: 'j.number',
  window_start: 'j.window_start',
  window_end: 'j.window_end',
  type: 'j.type',
  team_name: `(SELECT t->>'name' FROM companies c, jsonb_array_elements(c.teams_config) t
               WHERE c.id = j.company_id AND j.team_id <> 0 AND (t->>'id')::int = j.team_id LIMIT 1) AS team_name`,
  destination_name: 'j.destination_name',
  destination_text: 'j.destination_text',
  destination_lat: 'j.destination_lat',
  destination_lng: 'j.destination_lng',
  text_dispatcher: 'j.text_dispatcher',
  text_receiver: 'j.text_receiver',
  contact_name: 'j.contact_name',
  contact_phone: 'j.contact_phone',
  priority: 'j.priority',
  order_id: 'j.order_id::float8 AS order_id',
  items_to_pickup: 'j.items_to_pickup',
  items_to_dropoff: 'j.items_to_dropoff',
  custom_fields: 'j.custom_fields',
  // the values, with the company's labels of the worker-input fields (editcompany) over any of the job's
  extra: `j.extra || (SELECT c.extra_labels FROM companies c WHERE c.id = j.company_id) AS extra`,
  ts_created: 'j.ts_created::float8 AS ts_created',
  ts_assigned: 'j.ts_assigned::float8 AS ts_assigned',
  ts_accepted: 'j.ts_accepted::float8 AS ts_accepted',
  ts_rejected: 'j.ts_rejected::float8 AS ts_rejected',
  ts_done_success: 'j.ts_done_success::float8 AS ts_done_success',
  ts_done_failed: 'j.ts_done_failed::float8 AS ts_done_failed',
  ts_check_in: 'j.ts_check_in::float8 AS ts_check_in',
  ts_check_out: 'j.ts_check_out::float8 AS ts_check_out',
  ts_check_nfc1: 'j.ts_check_nfc1::float8 AS ts_check_nfc1',
  ts_check_nfc2: 'j.ts_check_nfc2::float8 AS ts_check_nfc2',
  ts_saved: 'j.ts_saved::float8 AS ts_saved',
  created_at: 'j.created_at::float8 AS created_at',
  place_name: 'p.name AS place_name',
  place_lat: 'ST_Y(p.location::geometry) AS place_lat',
  place_lng: 'ST_X(p.location::geometry) AS place_lng',
  visits: `(SELECT json_agg(json_build_array(k.in_ts::float8, k.out_ts::float8) ORDER BY k.in_ts)
              FROM checkins k WHERE k.company_id = j.company_id AND k.job_id = j.id) AS visits`,
};

/** Every {@link JobReportRow} field. */
export const ALL_JOB_INPUTS = Object.keys(JOB_INPUT_SQL) as JobInput[];

/**
 * The members' jobs (`worker_id` in `$2`, in that order) with `day` in [`$3`, `$4`] (YYYYMMDD), company
 * `$1`, templates left out (archived jobs are kept: archiving hides a job, it still happened), ordered
 * by member (request order), day, then `order` ({@link ROUTE_ORDER_SQL} by default). `extraWhere`
 * narrows further (on `j`). `inputs` are the fields selected (default all; `id` and `worker_id`
 * always): a report of a few columns reads, sends and parses only what they need — the rows have
 * only those fields.
 * Reads `jobs`, `places` (name, location), `companies.teams_config` (team name) and `checkins` (the
 * job's visits).
 */
export function jobRowsSql(extraWhere = '', order = ROUTE_ORDER_SQL, inputs: Iterable<JobInput> = ALL_JOB_INPUTS): string {
  const selected = new Set<JobInput>(['id', 'worker_id', ...inputs]);
  return `
  SELECT ${ALL_JOB_INPUTS.filter((k) => selected.has(k))
    .map((k) => JOB_INPUT_SQL[k])
    .join(',\n         ')}
    FROM unnest($2::text[]) WITH ORDINALITY AS a(id, ord)
    JOIN jobs j ON j.company_id = $1 AND j.worker_id = a.id AND j.is_template = false AND j.day BETWEEN $3 AND $4
    LEFT JOIN places p ON p.company_id = j.company_id AND p.id = j.place_uid
   WHERE true ${extraWhere}
   ORDER BY a.ord, j.day, ${order}`;
}

/** The cheap count of {@link jobRowsSql} with the same `extraWhere`. */
export function jobCountSql(extraWhere = ''): string {
  return `SELECT count(*)::int AS n FROM jobs j
           WHERE j.company_id = $1 AND j.worker_id = ANY($2::text[]) AND j.is_template = false AND j.day BETWEEN $3 AND $4 ${extraWhere}`;
}

/** A job was worked on: checked in or out (by the geofence or editjobs) or marked done (success or failed). */
const WORKED_SQL = `AND (j.ts_done_success > 0 OR j.ts_done_failed > 0 OR j.ts_check_in > 0 OR j.ts_check_out > 0
  OR EXISTS (SELECT 1 FROM checkins k WHERE k.company_id = j.company_id AND k.job_id = j.id))`;

/** A member's day in the order it was worked: first arrival, else the done time; then id. */
const WORK_ORDER_SQL = `COALESCE((SELECT min(k.in_ts) FROM checkins k WHERE k.company_id = j.company_id AND k.job_id = j.id),
  NULLIF(j.ts_check_in, 0), NULLIF(j.ts_check_out, 0), NULLIF(GREATEST(j.ts_done_success, j.ts_done_failed), 0)), j.id`;

const paramsOf = (q: JobRowsQuery): unknown[] => [q.companyId, q.memberIds, q.from, q.until];

/** The members' jobs of the range in route order, in the cursor's batches, with only the fields `inputs` (the `jobs` report). */
export function readJobRowBatches(db: ReportDb, q: JobRowsQuery, inputs?: Iterable<JobInput>): AsyncIterable<JobReportRow[]> {
  return db.batches<JobReportRow>(jobRowsSql('', ROUTE_ORDER_SQL, inputs), paramsOf(q));
}

/** The members' jobs of the range in route order, every field, streamed (`dayroute`). */
export function readJobRows(db: ReportDb, q: JobRowsQuery): AsyncIterable<JobReportRow> {
  return db.cursor<JobReportRow>(jobRowsSql(), paramsOf(q));
}

/** How many jobs {@link readJobRows} gives. */
export async function countJobRows(db: ReportDb, q: JobRowsQuery): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>(jobCountSql(), paramsOf(q));
  return n;
}

/**
 * The members' jobs of the range that were worked on (checked in or out, a `checkins` row, or done),
 * each member's day in the order it was worked (first arrival, else the done time; then id): `worksheet`.
 */
export function readWorkedJobRows(db: ReportDb, q: JobRowsQuery): AsyncIterable<JobReportRow> {
  return db.cursor<JobReportRow>(jobRowsSql(WORKED_SQL, WORK_ORDER_SQL), paramsOf(q));
}

/** How many jobs {@link readWorkedJobRows} gives. */
export async function countWorkedJobRows(db: ReportDb, q: JobRowsQuery): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>(jobCountSql(WORKED_SQL), paramsOf(q));
  return n;
}

/** A job's figures for `statistics`' on-time and outcome counts, as read (bigint columns as text). */
export interface JobFactsRow {
  day: number;
  window_start: number;
  window_end: number;
  ts_check_in: string;
  ts_done_success: string;
  ts_done_failed: string;
}

/** One member's jobs (templates and archived ones left out) with `day` in [from, until], any order, streamed. */
export function readJobFacts(db: ReportDb, companyId: string, memberId: string, from: number, until: number): AsyncIterable<JobFactsRow> {
  return db.cursor<JobFactsRow>(
    `SELECT day, window_start, window_end, ts_check_in, ts_done_success, ts_done_failed FROM jobs
      WHERE company_id = $1 AND worker_id = $2 AND NOT is_template AND NOT archived AND day BETWEEN $3 AND $4`,
    [companyId, memberId, from, until],
  );
}
