import { zonedDayTimeToMs } from '@app/core';
import { CustomField } from './entities/job.entity';
import { Progress, progressOf } from './progress';

/**
 * A job's `linkedZones` (CONTRACTS.md "Alerts and zones"; docs/zones.md): the ids of the live zones
 * of its company that cover its destination — `destination_lat/lng` when both are set, else its
 * place's `location` — comma-joined in id order (= creation order), '' when none or no position.
 * Derived on every read, so a zone write changes no job and fires no event. A correlated subquery
 * answered from the GiST index on `zones (company_id, polygon) WHERE deleted_at IS NULL`
 * (`ST_Covers(geography)`: the boundary counts as covered).
 */
export const LINKED_ZONES_SQL = `COALESCE((SELECT string_agg(z.id, ',' ORDER BY z.id) FROM zones z
    WHERE z.company_id = j.company_id AND z.deleted_at IS NULL
      AND ST_Covers(z.polygon, COALESCE(CASE WHEN j.destination_lat IS NOT NULL AND j.destination_lng IS NOT NULL
        THEN ST_SetSRID(ST_MakePoint(j.destination_lng, j.destination_lat), 4326)::geography END, p.location))), '')`;

/**
 * The SELECT every job read uses (getjobs, events, the connector): the job with its assignee,
 * dispatcher, place and company defaults. bigint columns are cast to float8 so `pg` answers numbers.
 * Append `WHERE …` with `j.company_id = $1` first.
 *
 * A documented read model across domains: the join on `places` (owned by `@app/places`) reads only
 * a place's `name`, `radius` and `location`, for the view; writes and lookups go through
 * `PlacesService` (docs/places-and-geo.md). `linkedZones` reads `zones` (owned by `@app/zones`):
 * see {@link LINKED_ZONES_SQL}.
 */
export const JOB_SELECT_SQL = jobSelectSql('jobs');

/**
 * {@link JOB_SELECT_SQL} over `source` (aliased `j`): `jobs`, or a CTE holding `jobs` rows such as an
 * `INSERT … RETURNING *` (the views of the rows a statement just wrote, without reading them again).
 */
export function jobSelectSql(source: string): string {
  return `SELECT j.id, j.is_template AS "isTemplate", j.archived, j.type, j.team_id AS "teamId",
  j.destination_name AS "destinationName", j.destination_lat AS "destinationLat", j.destination_lng AS "destinationLng",
  j.destination_text AS "destinationText", j.destination_url AS "destinationUrl", j.text_dispatcher AS "textDispatcher",
  j.text_receiver AS "textReceiver", j.contact_name AS "contactName", j.contact_phone AS "contactPhone",
  j.contact_email AS "contactEmail", j.day, j.priority, j.number, j.on_site_seconds AS "onSiteSeconds",
  j.window_start AS "windowStart", j.window_end AS "windowEnd", j.order_id::float8 AS "orderId",
  j.dispatcher_uid AS "dispatcherUid", j.place_uid AS "placeUid", j.worker_id AS "workerId",
  j.items_to_dropoff AS "itemsToDropoff", j.items_to_pickup AS "itemsToPickup", j.uid_secondary AS "uidSecondary",
  j.custom_fields AS "customFields", j.extra, j.ts_created::float8 AS "tsCreated", j.ts_assigned::float8 AS "tsAssigned",
  j.ts_accepted::float8 AS "tsAccepted", j.ts_rejected::float8 AS "tsRejected", j.ts_done_success::float8 AS "tsDoneSuccess",
  j.ts_done_failed::float8 AS "tsDoneFailed", j.ts_check_in::float8 AS "tsCheckIn", j.ts_check_out::float8 AS "tsCheckOut",
  j.ts_check_nfc1::float8 AS "tsCheckNFC1", j.ts_check_nfc2::float8 AS "tsCheckNFC2", j.ts_saved::float8 AS "tsSaved",
  j.created_at::float8 AS "createdAt", j.version, j.created_by AS "createdBy", j.created_via AS "createdVia",
  w.username AS "workerUsername", w.name AS "workerName", w.email AS "workerEmail", w.phone AS "workerPhone",
  d.name AS "dispatcherName", p.name AS "placeName", p.radius AS "placeRadius",
  c.default_radius AS "defaultRadius", c.timezone AS "timezone", ${LINKED_ZONES_SQL} AS "linkedZones"
FROM ${source} j
JOIN companies c ON c.id = j.company_id
LEFT JOIN members w ON w.id = j.worker_id
LEFT JOIN members d ON d.id = j.dispatcher_uid AND d.company_id = j.company_id
LEFT JOIN places p ON p.id = j.place_uid AND p.company_id = j.company_id`;
}

/** The fields a job's row ({@link JOB_SELECT_SQL}) and its view share, with the same name and type. */
interface JobColumns {
  type: number;
  teamId: number;
  destinationName: string;
  destinationLat: number | null;
  destinationLng: number | null;
  destinationText: string;
  destinationUrl: string;
  textDispatcher: string;
  textReceiver: string;
  contactName: string;
  contactPhone: string;
  contactEmail: string;
  /** YYYYMMDD, 0 when the job has no day */
  day: number;
  priority: number;
  number: number;
  onSiteSeconds: number;
  /** HHMM, 0 when unset */
  windowStart: number;
  /** HHMM, 0 when unset */
  windowEnd: number;
  orderId: number;
  dispatcherUid: string;
  placeUid: string;
  itemsToDropoff: number;
  itemsToPickup: number;
  customFields: CustomField[];
  isTemplate: boolean;
  tsCreated: number;
  tsAssigned: number;
  tsAccepted: number;
  tsRejected: number;
  tsDoneSuccess: number;
  tsDoneFailed: number;
  tsCheckIn: number;
  tsCheckOut: number;
  tsCheckNFC1: number;
  tsCheckNFC2: number;
  tsSaved: number;
  createdBy: string;
  createdVia: string;
  /** ms, insert time (database clock) */
  createdAt: number;
  version: number;
}

/** A row of {@link JOB_SELECT_SQL}. */
export interface JobRow extends JobColumns {
  id: string;
  archived: boolean;
  workerId: string | null;
  uidSecondary: string | null;
  extra: Record<string, string | number>;
  workerUsername: string | null;
  workerName: string | null;
  workerEmail: string | null;
  workerPhone: string | null;
  dispatcherName: string | null;
  placeName: string | null;
  placeRadius: number | null;
  defaultRadius: number;
  timezone: string;
  /** comma-separated ids of the live zones covering the destination ({@link LINKED_ZONES_SQL}) */
  linkedZones: string;
}

/** `extra_number_1_key` … `extra_text_4_val`: the worker-input fields, flattened. */
export type JobExtraKey = `extra_${'number' | 'text'}_${1 | 2 | 3 | 4}_${'key' | 'val'}`;

/**
 * A job as the action API (version 2) answers it; also the webhook payload's element. Every field
 * of the spec's Job tables (see {@link toJobView}); the OpenAPI document's job schema is generated
 * from this type, so a field added to the view belongs here.
 */
export type JobView = JobViewFields & { [K in JobExtraKey]: string | number };

interface JobViewFields extends JobColumns {
  /** `tpl-<id>` for a template */
  id: string;
  dispatcherName: string;
  dispatcherUrl: string;
  placeName: string;
  placeUrl: string;
  radius: number;
  /** the assignee's username, "" when unassigned */
  worker: string;
  workerName: string;
  /** present only on an archived job */
  status?: 'archived';
  uidSecondary: string;
  receiverUid: string;
  tsScheduled: number;
  /** ms, the day and window start in the company's time zone; 0 without both */
  scheduledStart: number;
  /** ms, the day and window end in the company's time zone; 0 without both */
  scheduledEnd: number;
  assigneeName: string;
  assigneeUsername: string;
  workerEmail: string;
  workerPhone: string;
  fileNumber: string;
  labels: string;
  carryOver: number;
  linkedForms: string;
  linkedZones: string;
  confirmationEmails: string;
  signatureName: string;
  signatureSvg: string;
  tsSignature: number;
  jobType: string;
  progress: Progress;
}

/** getjobs `compact`: a job without its empty, zero or null fields (see {@link toCompact}). */
export type CompactJobView = Partial<JobView> & Pick<JobView, 'id'>;

/** The wire id: templates are addressed as `tpl-<id>`. */
export const wireJobId = (row: { id: string; isTemplate: boolean }) => (row.isTemplate ? `tpl-${row.id}` : row.id);

/**
 * Builds the full job (every field of the spec's Job tables; response-only fields computed as
 * CONTRACTS.md says; fields we cannot derive are always empty: fileNumber, labels, carryOver,
 * linkedForms, confirmationEmails, signature*, jobType, dispatcherUrl, placeUrl); `linkedZones` is derived
 * from the zones ({@link LINKED_ZONES_SQL}).
 * Our extensions: `version`, `progress` and `createdAt` (insert time, database clock, ms).
 */
export function toJobView(r: JobRow): JobView {
  const scheduledStart = r.day && r.windowStart ? zonedDayTimeToMs(r.day, hhmmToMinutes(r.windowStart), r.timezone) : 0;
  const scheduledEnd = r.day && r.windowEnd ? zonedDayTimeToMs(r.day, hhmmToMinutes(r.windowEnd), r.timezone) : 0;
  return {
    id: wireJobId(r),
    type: r.type,
    teamId: r.teamId,
    destinationName: r.destinationName,
    destinationLat: r.destinationLat,
    destinationLng: r.destinationLng,
    destinationText: r.destinationText,
    destinationUrl: r.destinationUrl,
    textDispatcher: r.textDispatcher,
    textReceiver: r.textReceiver,
    contactName: r.contactName,
    contactPhone: r.contactPhone,
    contactEmail: r.contactEmail,
    day: r.day,
    priority: r.priority,
    number: r.number,
    onSiteSeconds: r.onSiteSeconds,
    windowStart: r.windowStart,
    windowEnd: r.windowEnd,
    orderId: r.orderId,
    dispatcherUid: r.dispatcherUid,
    dispatcherName: r.dispatcherName ?? '',
    dispatcherUrl: '',
    placeUid: r.placeUid,
    placeName: r.placeName ?? '',
    placeUrl: '',
    radius: r.placeRadius && r.placeRadius > 0 ? r.placeRadius : r.defaultRadius,
    worker: r.workerUsername ?? '',
    workerName: r.workerName ?? '',
    itemsToDropoff: r.itemsToDropoff,
    itemsToPickup: r.itemsToPickup,
    ...(r.archived ? { status: 'archived' as const } : {}),
    uidSecondary: r.uidSecondary ?? '',
    receiverUid: r.workerId ?? '',
    customFields: r.customFields,
    ...extrasOf(r.extra),
    isTemplate: r.isTemplate,
    tsCreated: r.tsCreated,
    tsAssigned: r.tsAssigned,
    tsAccepted: r.tsAccepted,
    tsRejected: r.tsRejected,
    tsDoneSuccess: r.tsDoneSuccess,
    tsDoneFailed: r.tsDoneFailed,
    tsCheckIn: r.tsCheckIn,
    tsCheckOut: r.tsCheckOut,
    tsCheckNFC1: r.tsCheckNFC1,
    tsCheckNFC2: r.tsCheckNFC2,
    tsSaved: r.tsSaved,
    tsScheduled: scheduledStart,
    scheduledStart,
    scheduledEnd,
    assigneeName: r.workerName ?? '',
    assigneeUsername: r.workerUsername ?? '',
    workerEmail: r.workerEmail ?? '',
    workerPhone: r.workerPhone ?? '',
    fileNumber: '',
    labels: '',
    carryOver: 0,
    linkedForms: '',
    linkedZones: r.linkedZones,
    confirmationEmails: '',
    signatureName: '',
    signatureSvg: '',
    tsSignature: 0,
    createdBy: r.createdBy,
    createdVia: r.createdVia,
    createdAt: r.createdAt,
    jobType: '',
    version: r.version,
    progress: progressOf(r),
  };
}

/** Left out of the compact format besides empty values (CONTRACTS.md). */
const COMPACT_OMITTED = new Set([
  'dispatcherName',
  'dispatcherUrl',
  'placeName',
  'placeUrl',
  'workerName',
  'assigneeName',
  'assigneeUsername',
  'workerEmail',
  'workerPhone',
]);

/** getjobs `compact`: the job without fields that are empty, zero or null, nor the named ones. */
export function toCompact(view: JobView): CompactJobView {
  const out: Record<string, unknown> = { id: view.id };
  for (const [k, v] of Object.entries(view)) {
    if (COMPACT_OMITTED.has(k) || v === null || v === 0 || v === '' || v === false || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out as CompactJobView;
}

/** The sixteen `extra_*` keys, with the value of an unset one ("" or, for a number's value, 0). */
const EXTRA_FIELDS: ReadonlyArray<[JobExtraKey, string | number]> = (['number', 'text'] as const).flatMap((kind) =>
  [1, 2, 3, 4].flatMap((x): Array<[JobExtraKey, string | number]> => [
    [`extra_${kind}_${x}_key` as JobExtraKey, ''],
    [`extra_${kind}_${x}_val` as JobExtraKey, kind === 'number' ? 0 : ''],
  ]),
);

/** The eight key/value pairs of `extra`, "" (or 0 for a number's value) where unset. */
function extrasOf(extra: Record<string, string | number>): { [K in JobExtraKey]: string | number } {
  const out: Record<string, string | number> = {};
  for (const [key, unset] of EXTRA_FIELDS) out[key] = extra[key] ?? unset;
  return out as { [K in JobExtraKey]: string | number };
}

const hhmmToMinutes = (hhmm: number) => Math.floor(hhmm / 100) * 60 + (hhmm % 100);
