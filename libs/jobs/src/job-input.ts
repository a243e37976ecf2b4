import {
  EmailOrEmpty,
  EmptyOr,
  invalid,
  invalidAll,
  isRealDay,
  isRealHhmm,
  NullableOptional,
  Optional,
  passesRules,
  PhoneOrEmpty,
  Rule,
  validationIssues,
} from '@app/core';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsNumber,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
  validateSync,
} from 'class-validator';

const MAX_TS = Number.MAX_SAFE_INTEGER;

/** `[A-Za-z0-9_]{1,40}`: the name in `custom_<name>` and a `customFields` key. */
export const CUSTOM_NAME = /^[A-Za-z0-9_]{1,40}$/;
export const MAX_CUSTOM_FIELDS = 50;

export class CustomFieldDto {
  @IsString()
  @Matches(CUSTOM_NAME, { message: 'must be 1 to 40 of A-Z a-z 0-9 _' })
  key: string;

  @IsString()
  @MaxLength(2000)
  val: string;
}

/**
 * The RW fields of a job (spec "Job (action API)", Access RW), each with its rule. `custom_*` and
 * `extra_*_val` keys are matched by pattern outside this class ({@link parseJobWrite}).
 */
export class JobWriteDto {
  @Optional()
  @IsIn([0, 1, 2], { message: 'must be 0 (work), 1 (pickup) or 2 (dropoff)' })
  type?: number;

  @Optional()
  @IsInt()
  @Min(0)
  @Max(2147483647)
  teamId?: number;

  @Optional()
  @IsString()
  @MaxLength(500)
  destinationName?: string;

  @NullableOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-90)
  @Max(90)
  destinationLat?: number | null;

  @NullableOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-180)
  @Max(180)
  destinationLng?: number | null;

  @Optional()
  @IsString()
  @MaxLength(2000)
  destinationText?: string;

  @Optional()
  @IsString()
  @EmptyOr()
  @MaxLength(2000)
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL, or ""' })
  destinationUrl?: string;

  @Optional()
  @IsString()
  @MaxLength(10000)
  textDispatcher?: string;

  @Optional()
  @IsString()
  @MaxLength(10000)
  textReceiver?: string;

  @Optional()
  @IsString()
  @MaxLength(200)
  contactName?: string;

  @Optional()
  @PhoneOrEmpty()
  contactPhone?: string;

  @Optional()
  @EmailOrEmpty()
  contactEmail?: string;

  @Optional()
  @Rule((v) => v === 0 || isRealDay(v), 'must be a real date YYYYMMDD, or 0 for no date')
  day?: number;

  @Optional()
  @IsInt()
  @Min(0)
  @Max(10)
  priority?: number;

  @Optional()
  @IsInt()
  @Min(-2147483648)
  @Max(2147483647)
  number?: number;

  /** s */
  @Optional()
  @IsInt()
  @Min(0)
  @Max(604800)
  onSiteSeconds?: number;

  @Optional()
  @Rule((v) => isRealHhmm(v), 'must be a time HHMM (0 to 2359), 0 = unset')
  windowStart?: number;

  @Optional()
  @Rule((v) => isRealHhmm(v, true), 'must be a time HHMM (0 to 2359, or 2400 as an end), 0 = unset')
  windowEnd?: number;

  @Optional()
  @IsInt()
  @Min(0)
  @Max(MAX_TS)
  orderId?: number;

  @Optional()
  @IsString()
  @MaxLength(64)
  dispatcherUid?: string;

  @Optional()
  @IsString()
  @MaxLength(64)
  placeUid?: string;

  /** Assignee username; "" unassigns. */
  @Optional()
  @IsString()
  @MaxLength(254)
  worker?: string;

  @Optional()
  @IsInt()
  @Min(0)
  @Max(1000000)
  itemsToDropoff?: number;

  @Optional()
  @IsInt()
  @Min(0)
  @Max(1000000)
  itemsToPickup?: number;

  /** External id, unique in the company; null or "" clears. */
  @NullableOptional()
  @IsString()
  @Length(0, 200)
  uidSecondary?: string | null;

  /** Assignee uid; "" unassigns. */
  @Optional()
  @IsString()
  @MaxLength(64)
  receiverUid?: string;

  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_CUSTOM_FIELDS)
  @ValidateNested({ each: true })
  @Type(() => CustomFieldDto)
  customFields?: CustomFieldDto[];

  @Optional()
  @IsInt()
  @Min(0)
  @Max(MAX_TS)
  tsCreated?: number;

  @Optional()
  @IsInt()
  @Min(0)
  @Max(MAX_TS)
  tsAccepted?: number;

  @Optional()
  @IsInt()
  @Min(0)
  @Max(MAX_TS)
  tsRejected?: number;

  @Optional()
  @IsInt()
  @Min(0)
  @Max(MAX_TS)
  tsDoneSuccess?: number;

  @Optional()
  @IsInt()
  @Min(0)
  @Max(MAX_TS)
  tsDoneFailed?: number;

  @Optional()
  @IsInt()
  @Min(0)
  @Max(MAX_TS)
  tsCheckIn?: number;

  @Optional()
  @IsInt()
  @Min(0)
  @Max(MAX_TS)
  tsCheckOut?: number;

  @Optional()
  @IsInt()
  @Min(0)
  @Max(MAX_TS)
  tsCheckNFC1?: number;

  @Optional()
  @IsInt()
  @Min(0)
  @Max(MAX_TS)
  tsCheckNFC2?: number;
}

/** Response-only fields: sending one in a write is an error naming it (CONTRACTS.md). */
export const READ_ONLY_JOB_FIELDS = new Set([
  'id',
  'status',
  'tsAssigned',
  'tsSaved',
  'tsScheduled',
  'scheduledStart',
  'scheduledEnd',
  'dispatcherName',
  'dispatcherUrl',
  'placeName',
  'placeUrl',
  'radius',
  'workerName',
  'assigneeName',
  'assigneeUsername',
  'workerEmail',
  'workerPhone',
  'fileNumber',
  'labels',
  'carryOver',
  'linkedForms',
  'linkedZones',
  'confirmationEmails',
  'signatureName',
  'signatureSvg',
  'tsSignature',
  'createdBy',
  'createdVia',
  'jobType',
  'version',
  'isTemplate',
  'progress',
  'createdAt',
]);

const CUSTOM_KEY = /^custom_(.*)$/;
const EXTRA_VAL = /^extra_(number|text)_([1-4])_val$/;
const EXTRA_KEY = /^extra_(number|text)_([1-4])_key$/;

/**
 * {@link JobWriteDto}'s fields (its instances define them all): a key among them is left to its rules
 * without testing the patterns above, which none of them matches (filtered here all the same).
 */
const DTO_FIELDS = new Set(
  Object.keys(new JobWriteDto()).filter(
    (k) => !READ_ONLY_JOB_FIELDS.has(k) && !CUSTOM_KEY.test(k) && !EXTRA_VAL.test(k) && !EXTRA_KEY.test(k),
  ),
);

/**
 * A validated job write — what createjobs/editjobs and the connector hand to {@link JobsService}:
 * the RW fields, `custom_<name>` operations and `extra_*_val` values, made once by
 * {@link parseJobWrite}.
 */
export interface JobWrite {
  /** The path its errors name: `data.jobs[3]`, `data.jobs.<id>`. */
  path: string;
  fields: JobWriteDto;
  /** name → value; "" removes the entry. Applied after `customFields`. */
  custom: Array<[string, string]>;
  /** `extra_number_1_val` → 3.5, `extra_text_2_val` → "…" */
  extra: Record<string, string | number>;
  /** The wire keys sent (for permission checks). */
  keys: string[];
}

/**
 * Validates one job object of createjobs/editjobs.
 * @param path the field path for errors, e.g. `data.jobs[3]`.
 * @throws DomainError invalid naming the first bad field (`data.jobs[3].priority: …`), a read-only
 *   field, or an unknown one.
 */
export function parseJobWrite(raw: unknown, path: string): JobWrite {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid(path, 'must be an object of job fields');
  const plain: Record<string, unknown> = {};
  const custom: Array<[string, string]> = [];
  const extra: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (DTO_FIELDS.has(key)) {
      plain[key] = value;
      continue;
    }
    if (READ_ONLY_JOB_FIELDS.has(key) || EXTRA_KEY.test(key)) throw invalid(`${path}.${key}`, 'is read-only');
    const c = CUSTOM_KEY.exec(key);
    if (c) {
      if (!CUSTOM_NAME.test(c[1])) throw invalid(`${path}.${key}`, 'custom field names must be 1 to 40 of A-Z a-z 0-9 _');
      if (typeof value !== 'string' || value.length > 2000)
        throw invalid(`${path}.${key}`, 'must be a string of at most 2000 characters ("" removes it)');
      custom.push([c[1], value]);
      continue;
    }
    const e = EXTRA_VAL.exec(key);
    if (e) {
      if (e[1] === 'number' && !(typeof value === 'number' && Number.isFinite(value))) throw invalid(`${path}.${key}`, 'must be a number');
      if (e[1] === 'text' && !(typeof value === 'string' && value.length <= 2000))
        throw invalid(`${path}.${key}`, 'must be a string of at most 2000 characters');
      extra[key] = value as string | number;
      continue;
    }
    plain[key] = value;
  }
  // the instance is built by hand (no class-transformer pass: a third of the per-job cost at 1,000 jobs)
  const fields = Object.assign(new JobWriteDto(), plain);
  if (Array.isArray(plain.customFields)) {
    fields.customFields = plain.customFields.map((c: unknown) =>
      typeof c === 'object' && c !== null && !Array.isArray(c) ? Object.assign(new CustomFieldDto(), c) : (c as CustomFieldDto),
    );
  }
  // the fast pass runs class-validator's own rules; class-validator itself explains a failure
  if (!passesRules(fields)) {
    const errors = validateSync(fields, { whitelist: true, forbidNonWhitelisted: true, validationError: { target: false, value: false } });
    // one job's error names its first broken rule only
    if (errors.length) throw invalidAll(validationIssues(errors, path).slice(0, 1), path);
  }
  if (fields.tsDoneSuccess && fields.tsDoneFailed) throw invalid(`${path}.tsDoneFailed`, 'set only one of tsDoneSuccess and tsDoneFailed');
  return { path, fields, custom, extra, keys: Object.keys(raw as object) };
}

/** One entry of editjobs: the job's wire id (`tpl-<id>` for a template) and its validated write. */
export interface JobEdit {
  id: string;
  write: JobWrite;
}

/**
 * createjobs' `jobs`: each entry validated by {@link parseJobWrite} with the path `${path}[i]`.
 * @throws DomainError invalid naming the first bad field of the first bad job.
 */
export function parseJobWrites(jobs: readonly unknown[], path: string): JobWrite[] {
  return jobs.map((raw, i) => parseJobWrite(raw, `${path}[${i}]`));
}

/**
 * editjobs' `jobs` (id → fields): each value validated by {@link parseJobWrite} with the path
 * `${path}.<id>`, in the order sent.
 * @throws DomainError invalid naming the first bad field of the first bad job.
 */
export function parseJobEdits(jobs: Readonly<Record<string, unknown>>, path: string): JobEdit[] {
  return Object.entries(jobs).map(([id, raw]) => ({ id, write: parseJobWrite(raw, `${path}.${id}`) }));
}
