import { invalid, Optional } from '@app/core';
import { DeviceDto, FixDto, MAX_FIXES_PER_CALL, tsWindowProblem } from '@app/locations';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsObject, ValidateNested } from 'class-validator';
import { EntriesOf } from '../docs/entries-of';
import { CompletesValidation, Verbatim } from '../envelope/validation.pipe';

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
