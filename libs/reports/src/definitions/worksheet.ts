import { distanceM } from '@app/core/pure';
import { progressOf } from '@app/jobs/pure';
import type { ReportContext, ReportDefinition } from '../report-definition';
import type { CellValue, ColumnSpec } from '../report-table';
import { countWorkedJobRows, readWorkedJobRows } from '../reads/jobs-rows.read';
import { jobPosition, JobReportRow, onsiteSeconds, pointOf, Position, visitsOf } from './job-rows';
import { jobQuery } from './jobs';

/** The `worksheet` report's columns (ours; docs/reports.md "worksheet"). */
const COLUMNS: readonly ColumnSpec[] = [
  { key: 'member', title: 'Member', kind: 'text', width: 20 },
  { key: 'date', title: 'Date', kind: 'date', width: 11 },
  { key: 'seq', title: 'No.', kind: 'integer', width: 5 },
  { key: 'title', title: 'Job', kind: 'text', width: 24 },
  { key: 'address', title: 'Address', kind: 'text', width: 26 },
  { key: 'place', title: 'Place', kind: 'text', width: 18 },
  { key: 'status', title: 'Status', kind: 'text', width: 9 },
  { key: 'arrived', title: 'Arrived', kind: 'datetime', width: 18 },
  { key: 'left', title: 'Left', kind: 'datetime', width: 18 },
  { key: 'onsite', title: 'On site', kind: 'duration', width: 10 },
  { key: 'travel', title: 'Travel from previous job', kind: 'duration', width: 12 },
  { key: 'travel_distance', title: 'Straight line from previous job', kind: 'distance', width: 12, default: false },
  { key: 'done', title: 'Done at', kind: 'datetime', width: 18 },
  { key: 'pickup_items', title: 'Pickup items', kind: 'integer', width: 8 },
  { key: 'dropoff_items', title: 'Drop-off items', kind: 'integer', width: 8 },
  { key: 'response', title: 'Response', kind: 'text', width: 24 },
  { key: 'orderid', title: 'Order id', kind: 'integer', width: 10, default: false },
  { key: 'latitude', title: 'Latitude', kind: 'coordinate', width: 11, default: false },
  { key: 'longitude', title: 'Longitude', kind: 'coordinate', width: 11, default: false },
];

/** What the next job of the same member and day measures its travel from. */
export interface PreviousJob {
  /** ms: its last check-out, else its done time; null when neither */
  end: number | null;
  position: Position | null;
}

/** One worked job as a worksheet row's values, and what the next job of its day measures from. */
export function worksheetValues(
  r: JobReportRow,
  memberName: string,
  seq: number,
  prev: PreviousJob | null,
): { values: Record<string, CellValue>; next: PreviousJob } {
  const visits = visitsOf(r);
  const position = jobPosition(r);
  const arrived = visits.length ? visits[0].in : null;
  const outs = visits.filter((v) => v.out !== null).map((v) => v.out!);
  const left = outs.length ? Math.max(...outs) : null;
  const done = r.ts_done_success > 0 ? r.ts_done_success : r.ts_done_failed > 0 ? r.ts_done_failed : null;
  const start = arrived ?? done;
  const travel = prev?.end != null && start !== null && start >= prev.end ? Math.round((start - prev.end) / 1000) : null;
  return {
    values: {
      member: memberName,
      date: r.day,
      seq,
      title: r.destination_name || null,
      address: r.destination_text || null,
      place: r.place_name || null,
      status: progressOf({
        tsAccepted: r.ts_accepted,
        tsRejected: r.ts_rejected,
        tsDoneSuccess: r.ts_done_success,
        tsDoneFailed: r.ts_done_failed,
        tsCheckIn: arrived ?? 0,
      }),
      arrived,
      left,
      onsite: onsiteSeconds(visits),
      travel,
      travel_distance: prev?.position && position ? distanceM(prev.position, position) : null,
      done,
      pickup_items: r.items_to_pickup,
      dropoff_items: r.items_to_dropoff,
      response: r.text_receiver || null,
      orderid: r.order_id > 0 ? r.order_id : null,
      latitude: position?.lat ?? null,
      longitude: position?.lng ?? null,
    },
    next: { end: left ?? done, position: position ?? prev?.position ?? null },
  };
}

/**
 * `worksheet`: per member and day (the job's `day`, company time zone), the jobs worked on in the
 * order they were worked — arrival, departure, time on site, travel from the previous job's
 * departure, items, the worker's response. Streams; only the previous job of the day is kept.
 */
export const WORKSHEET_REPORT: ReportDefinition = {
  type: 'worksheet',
  title: 'Worksheet',
  columns: COLUMNS,
  async *rows(ctx: ReportContext) {
    const names = new Map(ctx.members.map((m) => [m.id, m.name]));
    let key = '';
    let seq = 0;
    let prev: PreviousJob | null = null;
    for await (const r of readWorkedJobRows(ctx.db, jobQuery(ctx))) {
      if (`${r.worker_id}|${r.day}` !== key) {
        key = `${r.worker_id}|${r.day}`;
        seq = 0;
        prev = null;
      }
      const { values, next } = worksheetValues(r, names.get(r.worker_id) ?? '', ++seq, prev);
      prev = next;
      yield { values, geometry: pointOf(jobPosition(r)) };
    }
  },
  count: (ctx) => countWorkedJobRows(ctx.db, jobQuery(ctx)),
};
