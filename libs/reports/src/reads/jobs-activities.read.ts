/**
 * `activities`' read model (docs/reports.md "activities"): the members' job events derived from
 * `jobs` (the progress timestamps) and `checkins` (the geofence's visits), with the job's `places`
 * row (name, location). Plain SQL through {@link ReportDb} (a report thread).
 */
import type { ReportDb } from '../report-definition';

/**
 * The job lifecycle (docs/reports.md "activities"): the order a job's events happen in, which orders
 * the events of one instant — created → assigned → accepted → rejected (a reply instead of accepting)
 * → checked in → NFC check (made on site) → checked out → done (success) → done (failed).
 */
export const ACTIVITY_LIFECYCLE = [
  'created',
  'assigned',
  'accepted',
  'rejected',
  'checked_in',
  'nfc_check',
  'checked_out',
  'done_success',
  'done_failed',
] as const;

/** An event kind (the `event` column's texts are the definition's). */
export type ActivityEvent = (typeof ACTIVITY_LIFECYCLE)[number];

/** An event kind's place in {@link ACTIVITY_LIFECYCLE}, 1-based (the SQL's `kord`). */
export function lifecycleRank(kind: ActivityEvent): number {
  return ACTIVITY_LIFECYCLE.indexOf(kind) + 1;
}
const rank = lifecycleRank;

/** Company, members (request order) and the instants [fromMs, untilMs) the events fall in. */
export interface ActivitiesQuery {
  companyId: string;
  memberIds: string[];
  fromMs: number;
  untilMs: number;
}

/**
 * The events of the members ($2) in [$3, $4) ms, company $1:
 * - from each of their jobs (`worker_id`, templates left out): created (`tsCreated`, else the insert
 *   time), assigned, accepted, rejected, the NFC checks, done success/failed — and checked in/out from
 *   `tsCheckIn`/`tsCheckOut` only for a job with no `checkins` row (a check set through editjobs);
 * - from `checkins` rows of a job by the member: checked in at `in_ts`, checked out at `out_ts` with the
 *   visit's duration.
 * `kord` orders events of one instant by the lifecycle ({@link lifecycleRank}).
 */
const EVENTS_SQL = `
  SELECT j.worker_id AS member_id, j.id AS job_id, e.kind, e.kord, e.ts, e.duration
    FROM jobs j
    CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM checkins k WHERE k.company_id = j.company_id AND k.job_id = j.id) AS has_rows) h
    CROSS JOIN LATERAL (VALUES
      ('created', ${rank('created')}, CASE WHEN j.ts_created > 0 THEN j.ts_created ELSE j.created_at END, NULL::float8),
      ('assigned', ${rank('assigned')}, j.ts_assigned, NULL), ('accepted', ${rank('accepted')}, j.ts_accepted, NULL),
      ('rejected', ${rank('rejected')}, j.ts_rejected, NULL),
      ('checked_in', ${rank('checked_in')}, CASE WHEN h.has_rows THEN 0 ELSE j.ts_check_in END, NULL),
      ('nfc_check', ${rank('nfc_check')}, j.ts_check_nfc1, NULL), ('nfc_check', ${rank('nfc_check')}, j.ts_check_nfc2, NULL),
      ('checked_out', ${rank('checked_out')}, CASE WHEN h.has_rows THEN 0 ELSE j.ts_check_out END,
        CASE WHEN j.ts_check_in > 0 AND j.ts_check_out >= j.ts_check_in THEN (j.ts_check_out - j.ts_check_in) / 1000.0 END),
      ('done_success', ${rank('done_success')}, j.ts_done_success, NULL), ('done_failed', ${rank('done_failed')}, j.ts_done_failed, NULL)) AS e(kind, kord, ts, duration)
   WHERE j.company_id = $1 AND j.worker_id = ANY($2::text[]) AND j.is_template = false AND e.ts >= $3 AND e.ts < $4
  UNION ALL
  SELECT k.member_id, k.job_id, 'checked_in', ${rank('checked_in')}, k.in_ts, NULL
    FROM checkins k WHERE k.company_id = $1 AND k.member_id = ANY($2::text[]) AND k.job_id IS NOT NULL AND k.in_ts >= $3 AND k.in_ts < $4
  UNION ALL
  SELECT k.member_id, k.job_id, 'checked_out', ${rank('checked_out')}, k.out_ts, k.duration / 1000.0
    FROM checkins k WHERE k.company_id = $1 AND k.member_id = ANY($2::text[]) AND k.job_id IS NOT NULL AND k.out_ts >= $3 AND k.out_ts < $4`;

const ROWS_SQL = `
  SELECT ev.member_id, ev.job_id, ev.kind, ev.ts::float8 AS ts, ev.duration::float8 AS duration,
         j.day, j.destination_name, j.destination_text, j.destination_lat, j.destination_lng, j.text_receiver,
         j.ts_accepted::float8 AS ts_accepted, j.ts_rejected::float8 AS ts_rejected, j.ts_done_success::float8 AS ts_done_success,
         j.ts_done_failed::float8 AS ts_done_failed, j.ts_check_in::float8 AS ts_check_in,
         p.name AS place_name, ST_Y(p.location::geometry) AS place_lat, ST_X(p.location::geometry) AS place_lng
    FROM (${EVENTS_SQL}) ev
    LEFT JOIN jobs j ON j.company_id = $1 AND j.id = ev.job_id
    LEFT JOIN places p ON p.company_id = j.company_id AND p.id = j.place_uid
   ORDER BY ev.ts, ev.kord, array_position($2::text[], ev.member_id), ev.job_id`;

/** One event as {@link readActivities} reads it; the job's columns are null when the job is gone (a check-in row outlives it). */
export interface ActivityRow {
  member_id: string;
  job_id: string;
  kind: ActivityEvent;
  ts: number;
  /** s, the visit's duration on a check-out */
  duration: number | null;
  day: number | null;
  destination_name: string | null;
  destination_text: string | null;
  destination_lat: number | null;
  destination_lng: number | null;
  text_receiver: string | null;
  ts_accepted: number | null;
  ts_rejected: number | null;
  ts_done_success: number | null;
  ts_done_failed: number | null;
  ts_check_in: number | null;
  place_name: string | null;
  place_lat: number | null;
  place_lng: number | null;
}

const paramsOf = (q: ActivitiesQuery): unknown[] => [q.companyId, q.memberIds, q.fromMs, q.untilMs];

/** The events by time, then lifecycle ({@link ACTIVITY_LIFECYCLE}), then member (request order), then job; streamed. */
export function readActivities(db: ReportDb, q: ActivitiesQuery): AsyncIterable<ActivityRow> {
  return db.cursor<ActivityRow>(ROWS_SQL, paramsOf(q));
}

/** How many events {@link readActivities} gives. */
export async function countActivities(db: ReportDb, q: ActivitiesQuery): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${EVENTS_SQL}) ev`, paramsOf(q));
  return n;
}
