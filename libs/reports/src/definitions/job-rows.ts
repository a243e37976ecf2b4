/**
 * What the job-based reports (`jobs`, `dayroute`, `worksheet`) share: the pure functions turning a job
 * row (read by `../reads/jobs-rows.read.ts`) into the spec's job column values (docs/reports.md
 * "jobs"). Pure: safe in the report threads (no Nest, no TypeORM).
 */
import { zonedDayTimeToMs } from '@app/core/pure';
import { progressOf } from '@app/jobs/pure';
import type { Point } from 'geojson';
import { formatCell } from '../formats/cell-format';
import type { CellValue, ReportLocale } from '../report-table';
import type { JobInput, JobReportRow } from '../reads/jobs-rows.read';

export type { JobInput, JobReportRow } from '../reads/jobs-rows.read';

/** A position in degrees. */
export interface Position {
  lat: number;
  lng: number;
}

/** Where a job is: its destination when both coordinates are set, else its place's location, else null. */
export function jobPosition(r: Pick<JobReportRow, 'destination_lat' | 'destination_lng' | 'place_lat' | 'place_lng'>): Position | null {
  if (r.destination_lat !== null && r.destination_lng !== null) return { lat: r.destination_lat, lng: r.destination_lng };
  if (r.place_lat !== null && r.place_lng !== null) return { lat: r.place_lat, lng: r.place_lng };
  return null;
}

/** A GeoJSON Point of `p` (`[lng, lat]`), or null. */
export function pointOf(p: Position | null): Point | null {
  return p ? { type: 'Point', coordinates: [p.lng, p.lat] } : null;
}

/** A job visit: check-in and check-out (ms; out null while on site). */
export interface Visit {
  in: number;
  out: number | null;
}

/**
 * The job's visits: its `checkins` rows (the geofence's automatic check-ins) when it has any, else the
 * single visit of its `tsCheckIn`/`tsCheckOut` (a check set through editjobs, which writes no row);
 * none when neither is set. A check-out without a check-in is a visit with in = out.
 */
export function visitsOf(r: Pick<JobReportRow, 'visits' | 'ts_check_in' | 'ts_check_out'>): Visit[] {
  if (r.visits && r.visits.length) return r.visits.map(([i, o]) => ({ in: i, out: o }));
  if (r.ts_check_in > 0) return [{ in: r.ts_check_in, out: r.ts_check_out >= r.ts_check_in ? r.ts_check_out : null }];
  if (r.ts_check_out > 0) return [{ in: r.ts_check_out, out: r.ts_check_out }];
  return [];
}

/** Seconds on site: the sum of the closed visits' out − in (s, whole); null when no visit is closed. */
export function onsiteSeconds(visits: readonly Visit[]): number | null {
  const closed = visits.filter((v) => v.out !== null);
  if (!closed.length) return null;
  return Math.round(closed.reduce((s, v) => s + (v.out! - v.in), 0) / 1000);
}

/** Instants (ms) as one text cell: each as a `datetime` in the requester's zone and formats, `; `-joined; null when none. */
export function instantsText(ms: readonly number[], locale: ReportLocale): string | null {
  return ms.length ? ms.map((t) => formatCell(t, 'datetime', locale)).join('; ') : null;
}

const hhmmToMinutes = (hhmm: number) => Math.floor(hhmm / 100) * 60 + (hhmm % 100);

/**
 * The scheduled window as text: the window's HHMM start and end on the job's day in the company's
 * zone, shown as times of day in the requester's zone and `unit_time` — `09:00–11:00`, `from 09:00`,
 * `until 11:00`; null without a day or without both ends unset.
 */
export function scheduledWindowText(
  r: Pick<JobReportRow, 'day' | 'window_start' | 'window_end'>,
  companyZone: string,
  locale: ReportLocale,
): string | null {
  if (!r.day || (!r.window_start && !r.window_end)) return null;
  const at = (hhmm: number) => formatCell(zonedDayTimeToMs(r.day, hhmmToMinutes(hhmm), companyZone), 'time', locale);
  if (r.window_start && r.window_end) return `${at(r.window_start)}–${at(r.window_end)}`;
  return r.window_start ? `from ${at(r.window_start)}` : `until ${at(r.window_end)}`;
}

const JOB_TYPES = ['work', 'pickup', 'dropoff'] as const;

/** `custom_fields` as `key: val; …`, null when none. */
function customFieldsText(fields: ReadonlyArray<{ key: string; val: string }>): string | null {
  return fields.length ? fields.map((f) => `${f.key}: ${f.val}`).join('; ') : null;
}

/**
 * The worker-input fields (`extra_number_<x>` / `extra_text_<x>`, the job's form) that hold a value,
 * as `label: value; …` (label = the `_key`, else `number <x>` / `text <x>`); null when none is set.
 */
export function formFieldsText(extra: Readonly<Record<string, string | number>>): string | null {
  const parts: string[] = [];
  for (const f of FORM_FIELDS) {
    const val = extra[f.val];
    if (val === undefined || val === null || val === '') continue;
    const label = extra[f.key];
    parts.push(`${label === undefined || label === '' ? f.name : label}: ${val}`);
  }
  return parts.length ? parts.join('; ') : null;
}

/** The worker-input fields `extra_<kind>_<n>_val` / `_key`, number ones first (keys built once, not per row). */
const FORM_FIELDS = (['number', 'text'] as const).flatMap((kind) =>
  [1, 2, 3, 4].map((x) => ({ name: `${kind} ${x}`, val: `extra_${kind}_${x}_val`, key: `extra_${kind}_${x}_key` })),
);

/** The timestamp (ms) of a job's current progress (success, failed, rejected, started = first check-in, accepted; scheduled = assigned), or null. */
export function statusTs(r: JobReportRow, visits: readonly Visit[]): number | null {
  const status = progressOf(progressInput(r, visits));
  const ts = {
    success: r.ts_done_success,
    failed: r.ts_done_failed,
    rejected: r.ts_rejected,
    started: visits.length ? visits[0].in : r.ts_check_in,
    accepted: r.ts_accepted,
    scheduled: r.ts_assigned,
  }[status];
  return ts > 0 ? ts : null;
}

/** The progress timestamps of a row, a visit (a geofence check-in row) counting as started. */
function progressInput(r: JobReportRow, visits: readonly Visit[]) {
  return {
    tsAccepted: r.ts_accepted,
    tsRejected: r.ts_rejected,
    tsDoneSuccess: r.ts_done_success,
    tsDoneFailed: r.ts_done_failed,
    tsCheckIn: r.ts_check_in > 0 ? r.ts_check_in : visits.length ? visits[0].in : 0,
  };
}

const ms = (v: number): number | null => (v > 0 ? v : null);
const text = (v: string | null | undefined): string | null => (v === null || v === undefined || v === '' ? null : v);

/** What a job cell is computed from besides the row: computed once per row, only when a cell needs it. */
interface JobCellEnv {
  memberName: string;
  companyZone: string;
  locale: ReportLocale;
  visits: readonly Visit[];
  position: Position | null;
}

/** One job column: the row fields it reads and its value. */
interface JobCell {
  inputs: readonly JobInput[];
  /** needs `env.visits` / `env.position` */
  visits?: true;
  position?: true;
  value(r: JobReportRow, env: JobCellEnv): CellValue;
}

const VISIT_INPUTS: readonly JobInput[] = ['visits', 'ts_check_in', 'ts_check_out'];
const PROGRESS_INPUTS: readonly JobInput[] = ['ts_accepted', 'ts_rejected', 'ts_done_success', 'ts_done_failed', ...VISIT_INPUTS];
const POSITION_INPUTS: readonly JobInput[] = ['destination_lat', 'destination_lng', 'place_lat', 'place_lng'];
const none = (): CellValue => null;

/**
 * The spec's job columns (keys of the `jobs` and `dayroute` sets, docs/reports.md), each with the row
 * fields it reads. Keys the spec lists that we hold no data for (comments, signature, signature_name,
 * signature_date, attachments, public_url) are present and null.
 */
const JOB_CELLS: Readonly<Record<string, JobCell>> = {
  member: { inputs: [], value: (_r, e) => e.memberName },
  date: { inputs: ['day'], value: (r) => r.day || null },
  title: { inputs: ['destination_name'], value: (r) => text(r.destination_name) },
  status: { inputs: PROGRESS_INPUTS, visits: true, value: (r, e) => progressOf(progressInput(r, e.visits)) },
  status_ts: { inputs: [...PROGRESS_INPUTS, 'ts_assigned'], visits: true, value: (r, e) => statusTs(r, e.visits) },
  status_response: { inputs: ['text_receiver'], value: (r) => text(r.text_receiver) },
  address: { inputs: ['destination_text'], value: (r) => text(r.destination_text) },
  place: { inputs: ['place_name'], value: (r) => text(r.place_name) },
  contact_name: { inputs: ['contact_name'], value: (r) => text(r.contact_name) },
  contact_phone: { inputs: ['contact_phone'], value: (r) => text(r.contact_phone) },
  teams: { inputs: ['team_name'], value: (r) => text(r.team_name) },
  orderid: { inputs: ['order_id'], value: (r) => (r.order_id > 0 ? r.order_id : null) },
  type: { inputs: ['type'], value: (r) => JOB_TYPES[r.type] ?? String(r.type) },
  scheduled_window: { inputs: ['day', 'window_start', 'window_end'], value: (r, e) => scheduledWindowText(r, e.companyZone, e.locale) },
  check_ins: {
    inputs: VISIT_INPUTS,
    visits: true,
    value: (_r, e) =>
      instantsText(
        e.visits.map((v) => v.in),
        e.locale,
      ),
  },
  check_outs: {
    inputs: VISIT_INPUTS,
    visits: true,
    value: (_r, e) =>
      instantsText(
        e.visits.filter((v) => v.out !== null).map((v) => v.out!),
        e.locale,
      ),
  },
  onsite: { inputs: VISIT_INPUTS, visits: true, value: (_r, e) => onsiteSeconds(e.visits) },
  priority: { inputs: ['priority'], value: (r) => r.priority },
  created: { inputs: ['ts_created', 'created_at'], value: (r) => (r.ts_created > 0 ? r.ts_created : r.created_at) },
  saved: { inputs: ['ts_saved'], value: (r) => ms(r.ts_saved) },
  accepted: { inputs: ['ts_accepted'], value: (r) => ms(r.ts_accepted) },
  pickup_items: { inputs: ['items_to_pickup'], value: (r) => r.items_to_pickup },
  dropoff_items: { inputs: ['items_to_dropoff'], value: (r) => r.items_to_dropoff },
  manual_checks: {
    inputs: ['ts_check_nfc1', 'ts_check_nfc2'],
    value: (r, e) =>
      instantsText(
        [r.ts_check_nfc1, r.ts_check_nfc2].filter((t) => t > 0),
        e.locale,
      ),
  },
  notes: { inputs: ['text_dispatcher'], value: (r) => text(r.text_dispatcher) },
  latitude: { inputs: POSITION_INPUTS, position: true, value: (_r, e) => e.position?.lat ?? null },
  longitude: { inputs: POSITION_INPUTS, position: true, value: (_r, e) => e.position?.lng ?? null },
  comments: { inputs: [], value: none },
  signature: { inputs: [], value: none },
  signature_name: { inputs: [], value: none },
  signature_date: { inputs: [], value: none },
  attachments: { inputs: [], value: none },
  custom_fields: { inputs: ['custom_fields'], value: (r) => customFieldsText(r.custom_fields ?? []) },
  form_fields: { inputs: ['extra'], value: (r) => formFieldsText(r.extra ?? {}) },
  public_url: { inputs: [], value: none },
};

/** Every job column key {@link jobValues} answers, in the spec's order. */
export const JOB_VALUE_KEYS = Object.keys(JOB_CELLS);

/**
 * A mapper of job rows to the values of the job columns `keys` (unknown keys are left out), and the
 * row fields they read (`jobRowsSql`'s `inputs`); `position: true` also reads what
 * {@link jobPosition} needs (a geojson's geometry).
 */
export function jobValueMapper(
  keys: Iterable<string> = JOB_VALUE_KEYS,
  opts: { position?: boolean } = {},
): { inputs: JobInput[]; values(r: JobReportRow, memberName: string, companyZone: string, locale: ReportLocale): Record<string, CellValue> } {
  const cells = [...new Set(keys)].filter((k) => k in JOB_CELLS).map((k) => [k, JOB_CELLS[k]] as const);
  const needVisits = cells.some(([, c]) => c.visits);
  const needPosition = cells.some(([, c]) => c.position);
  const inputs = new Set<JobInput>(cells.flatMap(([, c]) => c.inputs));
  if (opts.position) POSITION_INPUTS.forEach((i) => inputs.add(i));
  return {
    inputs: [...inputs],
    values(r, memberName, companyZone, locale) {
      const env: JobCellEnv = {
        memberName,
        companyZone,
        locale,
        visits: needVisits ? visitsOf(r) : [],
        position: needPosition ? jobPosition(r) : null,
      };
      const out: Record<string, CellValue> = {};
      for (const [key, cell] of cells) out[key] = cell.value(r, env);
      return out;
    },
  };
}

const ALL_JOB_VALUES = jobValueMapper();

/** Every job column value of one (fully selected) job row — {@link jobValueMapper} of all keys. */
export function jobValues(r: JobReportRow, memberName: string, companyZone: string, locale: ReportLocale): Record<string, CellValue> {
  return ALL_JOB_VALUES.values(r, memberName, companyZone, locale);
}
