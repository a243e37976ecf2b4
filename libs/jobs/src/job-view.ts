import { zonedDayTimeToMs } from '@app/core';
import { CustomField, Job } from './entities/job.entity';
import { Progress, progressOf } from './progress';

/** The fields a job's row (`JOB_SELECT_SQL`) and its view share, with the same name and type. */
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

/** A row of `JOB_SELECT_SQL`. */
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
  /** comma-separated ids of the live zones covering the destination (`LINKED_ZONES_SQL`) */
  linkedZones: string;
  /** the company's labels of the worker-input fields (`extra_number_1_key` → "Meter reading"; editcompany) */
  extraLabels: Record<string, string>;
}

/** What a {@link JobRow} holds beyond the job's own columns: the database clock's columns and what the view joins. */
export type JobRowJoined = Pick<
  JobRow,
  | 'tsSaved'
  | 'createdAt'
  | 'workerUsername'
  | 'workerName'
  | 'workerEmail'
  | 'workerPhone'
  | 'dispatcherName'
  | 'placeName'
  | 'placeRadius'
  | 'defaultRadius'
  | 'timezone'
  | 'linkedZones'
  | 'extraLabels'
>;

/**
 * A view row of a job just written: its state plus what the view joins (the values a read gives).
 * Written out field by field: an object built with rest/spread here made `toJobView` several times
 * slower on 1,000 rows.
 */
export function jobRowOf(j: Job, joined: JobRowJoined): JobRow {
  return {
    id: j.id,
    isTemplate: j.isTemplate,
    archived: j.archived,
    type: j.type,
    teamId: j.teamId,
    destinationName: j.destinationName,
    destinationLat: j.destinationLat,
    destinationLng: j.destinationLng,
    destinationText: j.destinationText,
    destinationUrl: j.destinationUrl,
    textDispatcher: j.textDispatcher,
    textReceiver: j.textReceiver,
    contactName: j.contactName,
    contactPhone: j.contactPhone,
    contactEmail: j.contactEmail,
    day: j.day,
    priority: j.priority,
    number: j.number,
    onSiteSeconds: j.onSiteSeconds,
    windowStart: j.windowStart,
    windowEnd: j.windowEnd,
    orderId: j.orderId,
    dispatcherUid: j.dispatcherUid,
    placeUid: j.placeUid,
    workerId: j.workerId,
    itemsToDropoff: j.itemsToDropoff,
    itemsToPickup: j.itemsToPickup,
    uidSecondary: j.uidSecondary,
    customFields: j.customFields,
    extra: j.extra,
    tsCreated: j.tsCreated,
    tsAssigned: j.tsAssigned,
    tsAccepted: j.tsAccepted,
    tsRejected: j.tsRejected,
    tsDoneSuccess: j.tsDoneSuccess,
    tsDoneFailed: j.tsDoneFailed,
    tsCheckIn: j.tsCheckIn,
    tsCheckOut: j.tsCheckOut,
    tsCheckNFC1: j.tsCheckNfc1,
    tsCheckNFC2: j.tsCheckNfc2,
    tsSaved: joined.tsSaved,
    createdAt: joined.createdAt,
    version: j.version,
    createdBy: j.createdBy,
    createdVia: j.createdVia,
    workerUsername: joined.workerUsername,
    workerName: joined.workerName,
    workerEmail: joined.workerEmail,
    workerPhone: joined.workerPhone,
    dispatcherName: joined.dispatcherName,
    placeName: joined.placeName,
    placeRadius: joined.placeRadius,
    defaultRadius: joined.defaultRadius,
    timezone: joined.timezone,
    linkedZones: joined.linkedZones,
    extraLabels: joined.extraLabels,
  };
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
 * from the zones (`LINKED_ZONES_SQL`).
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
    ...extrasOf(r.extra, r.extraLabels),
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

/**
 * The eight key/value pairs: values from the job's `extra`, labels (`_key`) from the company's
 * `labels` (editcompany), "" (or 0 for a number's value) where unset.
 */
function extrasOf(extra: Record<string, string | number>, labels: Record<string, string>): { [K in JobExtraKey]: string | number } {
  const out: Record<string, string | number> = {};
  for (const [key, unset] of EXTRA_FIELDS) out[key] = labels[key] ?? extra[key] ?? unset;
  return out as { [K in JobExtraKey]: string | number };
}

const hhmmToMinutes = (hhmm: number) => Math.floor(hhmm / 100) * 60 + (hhmm % 100);
