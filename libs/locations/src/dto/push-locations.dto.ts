import { Optional } from '@app/core';
import { IsBoolean, IsInt, IsNumber, IsString, Max, MaxLength, Min } from 'class-validator';
import { MAX_METRES, MAX_SPEED, MIN_FIX_TS } from '../ingest/fix-rules';

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
