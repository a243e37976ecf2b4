import { IdOrIdsDto, MsNotSeconds, NamedTarget, NullableOptional, Optional, Rule } from '@app/core';
import type { AlertAction } from '../alert-actions';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { ALERT_ACTION_NAMES } from '../alert-actions';
import {
  endsAfterStart,
  isHhmm,
  MAX_ALERT_INTERVAL_MS,
  MAX_BATTERY_THRESHOLD,
  MIN_ALERT_INTERVAL_MS,
  MIN_BATTERY_THRESHOLD,
  ParamPatch,
  WINDOW_ORDER_RULE,
} from '../alert-rule-rules';
import type { AlertWindow } from '../entities/alert-rule.entity';

/** Targets (`members`, `teams`) one rule may name, and rules one getalerts / deletealert call may name. */
export const MAX_ALERT_TARGETS = 1000;
export const MAX_ALERT_IDS = 1000;
/** getalertfirings `limit`: default and largest value. */
export const DEFAULT_FIRINGS_LIMIT = 100;
export const MAX_FIRINGS_LIMIT = 1000;

const HHMM_RULE = 'must be a time of day HHMM: an integer with hour 0–23 and minute 0–59 (e.g. 1730)';
const ACTION_RULE = `must be one of ${ALERT_ACTION_NAMES.join(', ')}`;
const INTERVAL_RULE = `must be an integer number of ms from ${MIN_ALERT_INTERVAL_MS} (1 min) to ${MAX_ALERT_INTERVAL_MS} (30 days)`;
const THRESHOLD_RULE = `must be an integer battery % from ${MIN_BATTERY_THRESHOLD} to ${MAX_BATTERY_THRESHOLD}`;

/**
 * A rule's daily window, in the company time zone: ISO weekdays (1 = Monday … 7 = Sunday; non-empty,
 * no repeats) and `start` < `end`, both HHMM (`0` = 00:00, `1730` = 17:30). The same day only: no
 * overnight windows.
 */
export class AlertWindowDto implements AlertWindow {
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(7)
  @ArrayUnique({ message: 'must not repeat a day' })
  @IsInt({ each: true, message: 'must be ISO weekdays: integers 1 (Monday) to 7 (Sunday)' })
  @Min(1, { each: true, message: 'must be ISO weekdays: integers 1 (Monday) to 7 (Sunday)' })
  @Max(7, { each: true, message: 'must be ISO weekdays: integers 1 (Monday) to 7 (Sunday)' })
  days: number[];

  @Rule(isHhmm, HHMM_RULE)
  start: number;

  @Rule(isHhmm, HHMM_RULE)
  @Rule((end, args) => endsAfterStart((args.object as { start?: unknown }).start, end), WINDOW_ORDER_RULE)
  end: number;
}

/** The fields createalert and editalert share that every action takes. */
class AlertCommonFields {
  /** default "" */
  @Optional()
  @IsString()
  @MaxLength(200)
  title?: string;

  /** default "" */
  @Optional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  /** member uids or usernames (case-insensitive) of the company's active members; answered as uids */
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_ALERT_TARGETS)
  @IsString({ each: true })
  @Length(1, 254, { each: true })
  members?: string[];

  /** team ids of the company's `teams_config` */
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_ALERT_TARGETS)
  @IsInt({ each: true, message: 'must be an array of team ids (integers)' })
  teams?: number[];

  /** default true */
  @Optional()
  @IsBoolean()
  active?: boolean;
}

/**
 * createalert (our extension, CONTRACTS.md "Alerts and zones"): `action` required; `placeUid`,
 * `zoneId`, `interval` (ms), `threshold` (battery %), `window` as the action takes them (checked by
 * `actionParamIssue` once the DTO's rules pass; existence by the service).
 */
export class CreateAlertDto extends AlertCommonFields {
  @IsIn(ALERT_ACTION_NAMES, { message: ACTION_RULE })
  action: AlertAction;

  @Optional()
  @IsString()
  @Length(1, 64)
  placeUid?: string;

  @Optional()
  @IsString()
  @Length(1, 64)
  zoneId?: string;

  /** ms */
  @Optional()
  @IsInt({ message: INTERVAL_RULE })
  @Min(MIN_ALERT_INTERVAL_MS, { message: INTERVAL_RULE })
  @Max(MAX_ALERT_INTERVAL_MS, { message: INTERVAL_RULE })
  interval?: number;

  /** battery %, `battery_low` only; default 15 */
  @Optional()
  @IsInt({ message: THRESHOLD_RULE })
  @Min(MIN_BATTERY_THRESHOLD, { message: THRESHOLD_RULE })
  @Max(MAX_BATTERY_THRESHOLD, { message: THRESHOLD_RULE })
  threshold?: number;

  @Optional()
  @IsObject({ message: 'must be an object {days, start, end}' })
  @ValidateNested()
  @Type(() => AlertWindowDto)
  window?: AlertWindowDto;
}

/**
 * editalert: `id` and createalert's fields; only the fields sent change, and `null` clears
 * `placeUid`, `zoneId`, `interval`, `threshold` (back to the default) or `window`. The rule that
 * results must still satisfy its action's rules (see `mergeParams`).
 */
export class EditAlertDto extends AlertCommonFields {
  @IsString()
  @Length(1, 64)
  id: string;

  @Optional()
  @IsIn(ALERT_ACTION_NAMES, { message: ACTION_RULE })
  action?: AlertAction;

  @NullableOptional()
  @IsString()
  @Length(1, 64)
  placeUid?: string | null;

  @NullableOptional()
  @IsString()
  @Length(1, 64)
  zoneId?: string | null;

  @NullableOptional()
  @IsInt({ message: INTERVAL_RULE })
  @Min(MIN_ALERT_INTERVAL_MS, { message: INTERVAL_RULE })
  @Max(MAX_ALERT_INTERVAL_MS, { message: INTERVAL_RULE })
  interval?: number | null;

  @NullableOptional()
  @IsInt({ message: THRESHOLD_RULE })
  @Min(MIN_BATTERY_THRESHOLD, { message: THRESHOLD_RULE })
  @Max(MAX_BATTERY_THRESHOLD, { message: THRESHOLD_RULE })
  threshold?: number | null;

  @NullableOptional()
  @IsObject({ message: 'must be an object {days, start, end}, or null' })
  @ValidateNested()
  @Type(() => AlertWindowDto)
  window?: AlertWindowDto | null;
}

/** The action parameters a create or edit DTO sends, as a patch of the stored columns. */
export function paramPatchOf(dto: CreateAlertDto | EditAlertDto): ParamPatch {
  const window = dto.window === undefined || dto.window === null ? dto.window : windowOf(dto.window);
  return { placeId: dto.placeUid, zoneId: dto.zoneId, interval: dto.interval, threshold: dto.threshold, window };
}

/** A window as stored: days ascending. */
function windowOf(w: AlertWindowDto): AlertWindow {
  return { days: [...w.days].sort((a, b) => a - b), start: w.start, end: w.end };
}

/** getalerts: the company's live rules, all or those of `ids` (unknown ids simply absent), optionally only active or inactive ones. */
export class GetAlertsDto {
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_ALERT_IDS)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  ids?: string[];

  @Optional()
  @IsBoolean()
  active?: boolean;
}

/** A rule a deletealert call names, with the field an error about it names. */
export type AlertTarget = NamedTarget;

/** deletealert: `id | ids`, exactly one. The pipe calls {@link completeValidation} once the rules pass. */
export class DeleteAlertDto extends IdOrIdsDto {
  protected get noun(): string {
    return 'alert rule';
  }
}

/** getalertfirings (our extension): newest first, `ts` ≥ `since` (ms, default 0), at most `limit` (default 100, ≤ 1000), of one rule when `ruleId` is given. */
export class GetAlertFiringsDto {
  /** ms, inclusive; default 0 */
  @Optional()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  @MsNotSeconds()
  since?: number;

  /** default 100, at most 1000 */
  @Optional()
  @IsInt()
  @Min(1)
  @Max(MAX_FIRINGS_LIMIT)
  limit?: number;

  /** a rule's id (a deleted rule's firings are listed too); unknown ids give an empty list */
  @Optional()
  @IsString()
  @Length(1, 64)
  ruleId?: string;
}
