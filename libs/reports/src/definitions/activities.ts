import { progressOf } from '@app/jobs/pure';
import type { ReportContext, ReportDefinition } from '../report-definition';
import type { CellValue, ColumnSpec, ReportRow } from '../report-table';
import { ActivityEvent, ActivityRow, countActivities, readActivities } from '../reads/jobs-activities.read';
import { jobPosition, pointOf } from './job-rows';

export type { ActivityEvent, ActivityRow } from '../reads/jobs-activities.read';

/** The `activities` report's columns (ours; docs/reports.md "activities"). */
const COLUMNS: readonly ColumnSpec[] = [
  { key: 'time', title: 'Time', kind: 'datetime', width: 18 },
  { key: 'member', title: 'Member', kind: 'text', width: 20 },
  { key: 'event', title: 'Event', kind: 'text', width: 14 },
  { key: 'job', title: 'Job', kind: 'text', width: 24 },
  { key: 'address', title: 'Address', kind: 'text', width: 26 },
  { key: 'place', title: 'Place', kind: 'text', width: 18 },
  { key: 'duration', title: 'Visit', kind: 'duration', width: 10 },
  { key: 'response', title: 'Response', kind: 'text', width: 24 },
  { key: 'status', title: 'Job status now', kind: 'text', width: 10 },
  { key: 'date', title: 'Job date', kind: 'date', width: 11, default: false },
  { key: 'latitude', title: 'Latitude', kind: 'coordinate', width: 11, default: false },
  { key: 'longitude', title: 'Longitude', kind: 'coordinate', width: 11, default: false },
  { key: 'job_id', title: 'Job id', kind: 'text', width: 28, default: false },
];

/** An event kind and how it reads in the `event` column. */
export const ACTIVITY_EVENTS = {
  created: 'Created',
  assigned: 'Assigned',
  accepted: 'Accepted',
  rejected: 'Rejected',
  checked_in: 'Checked in',
  nfc_check: 'NFC check',
  checked_out: 'Checked out',
  done_success: 'Done (success)',
  done_failed: 'Done (failed)',
} as const satisfies Record<ActivityEvent, string>;

/** Events carrying the worker's reply text (`textReceiver`): the closing ones. */
const RESPONSE_EVENTS = new Set<ActivityEvent>(['rejected', 'done_success', 'done_failed']);

/** One event as a row: its time, what happened, the job, a Point at the job (null without coordinates). */
export function activityRow(r: ActivityRow, memberName: string): ReportRow {
  const position = jobPosition(r);
  const gone = r.day === null;
  const values: Record<string, CellValue> = {
    time: r.ts,
    member: memberName,
    event: ACTIVITY_EVENTS[r.kind] ?? r.kind,
    job: r.destination_name || null,
    address: r.destination_text || null,
    place: r.place_name || null,
    duration: r.duration === null ? null : Math.round(r.duration),
    response: RESPONSE_EVENTS.has(r.kind) ? r.text_receiver || null : null,
    status: gone
      ? null
      : progressOf({
          tsAccepted: r.ts_accepted ?? 0,
          tsRejected: r.ts_rejected ?? 0,
          tsDoneSuccess: r.ts_done_success ?? 0,
          tsDoneFailed: r.ts_done_failed ?? 0,
          tsCheckIn: r.ts_check_in ?? 0,
        }),
    date: r.day || null,
    latitude: position?.lat ?? null,
    longitude: position?.lng ?? null,
    job_id: r.job_id,
  };
  return { values, geometry: pointOf(position) };
}

const eventsQuery = (ctx: ReportContext) => ({ companyId: ctx.companyId, memberIds: ctx.members.map((m) => m.id), fromMs: ctx.range!.fromMs, untilMs: ctx.range!.untilMs });

/**
 * `activities`: the timeline of the named members' job events in the range (instants, [start of
 * `from`, start of the day after `until`) in the company's zone), one row per event, time-ordered.
 * Derived from the jobs' progress timestamps and the `checkins` rows — durable, unlike the outbox
 * (pruned after `WEBHOOK_RETENTION_DAYS`; docs/reports.md "activities").
 */
export const ACTIVITIES_REPORT: ReportDefinition = {
  type: 'activities',
  title: 'Activities',
  columns: COLUMNS,
  async *rows(ctx: ReportContext) {
    const names = new Map(ctx.members.map((m) => [m.id, m.name]));
    for await (const r of readActivities(ctx.db, eventsQuery(ctx))) yield activityRow(r, names.get(r.member_id) ?? '');
  },
  count: (ctx) => countActivities(ctx.db, eventsQuery(ctx)),
};
