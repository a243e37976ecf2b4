import { CompletesValidation, EntriesOf, invalid, Optional, Verbatim } from '@app/core';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsNumber,
  IsObject,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { MAX_FIXES_PER_CALL, MAX_METRES, MAX_SPEED, MIN_FIX_TS, tsWindowProblem } from '../ingest/fix-rules';

/**
 * One fix of `pushlocations` (the location record's units), for the OpenAPI document: the entries of
 * `locations` are checked one by one by `validateFix` (a bad one is skipped and reported, not the
 * call), with these rules plus the time window (after 2000-01-01, ≤ 5 min ahead, within the retention);
 * the bounds are fix-rules.ts' constants.
 */
export class FixDto {
  /** ms since the epoch */
  @IsInt()
  @Min(MIN_FIX_TS + 1)
  ts: number;

  @IsNumber()
  @Min(-90)
  @Max(90)
  lat: number;

  @IsNumber()
  @Min(-180)
  @Max(180)
  lng: number;

  /** m, rounded */
  @Optional()
  @IsNumber()
  @Min(0)
  @Max(MAX_METRES)
  acc?: number;

  /** degrees 0..360, rounded */
  @Optional()
  @IsNumber()
  @Min(0)
  @Max(360)
  dir?: number;

  /** m/s */
  @Optional()
  @IsNumber()
  @Min(0)
  @Max(MAX_SPEED)
  spd?: number;

  /** m, rounded */
  @Optional()
  @IsNumber()
  @Min(-MAX_METRES)
  @Max(MAX_METRES)
  elv?: number;

  /** percent 0..100, rounded */
  @Optional()
  @IsNumber()
  @Min(0)
  @Max(100)
  bat?: number;
}

/** `pushlocations`' `device`: the phone's details, answered by `locate` with `withDetails`. */
export class DeviceDto {
  @Optional()
  @IsInt()
  @Min(-1)
  @Max(1000)
  connection_type?: number;

  @Optional()
  @IsString()
  @MaxLength(64)
  android_id?: string;

  @Optional()
  @IsBoolean()
  loc_gps_on?: boolean;

  @Optional()
  @IsBoolean()
  loc_net_on?: boolean;
}

/**
 * `pushlocations` (our extension, DESIGN.md "Device ingestion"): the envelope's rules here (a wrong
 * envelope is -1 for the call); the fixes are checked one by one by the service's `validateFixes`,
 * a bad one skipped and reported.
 */
export class PushLocationsDto implements CompletesValidation {
  @EntriesOf(() => FixDto)
  @Verbatim()
  @IsArray()
  @ArrayMaxSize(MAX_FIXES_PER_CALL, { message: `at most ${MAX_FIXES_PER_CALL} fixes per call` })
  locations: unknown[];

  /** tracking switched on (true) or off (false) on the phone */
  @Optional()
  @IsBoolean()
  tracking?: boolean;

  /** ms the tracking state changed on the phone; default the receive time */
  @Optional()
  @IsInt({ message: 'must be an integer (ms since the epoch)' })
  tracking_ts?: number;

  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => DeviceDto)
  device?: DeviceDto;

  completeValidation(prefix: string): void {
    const ts = this.tracking_ts;
    if (ts === undefined) return;
    // the fixes' time rule (fix-rules.ts) without the retention bound; IsInt checked the integer
    const problem = tsWindowProblem(ts, { now: Date.now(), retentionMs: Infinity });
    if (problem) throw invalid(`${prefix}.tracking_ts`, problem);
  }
}
