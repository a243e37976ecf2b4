import { isRealDay, MsNotSeconds, Optional, Rule } from '@app/core';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsObject, IsString, Length, Max, Min, ValidateNested } from 'class-validator';

/** getjobs `sort` fields and the column each orders by (timestamps bound by from/until). */
export const SORT_FIELDS: Record<string, { column: string; timestamp: boolean }> = {
  tsCreated: { column: 'j.ts_created', timestamp: true },
  tsSaved: { column: 'j.ts_saved', timestamp: true },
  tsAssigned: { column: 'j.ts_assigned', timestamp: true },
  tsAccepted: { column: 'j.ts_accepted', timestamp: true },
  tsRejected: { column: 'j.ts_rejected', timestamp: true },
  tsDoneSuccess: { column: 'j.ts_done_success', timestamp: true },
  tsDoneFailed: { column: 'j.ts_done_failed', timestamp: true },
  tsCheckIn: { column: 'j.ts_check_in', timestamp: true },
  tsCheckOut: { column: 'j.ts_check_out', timestamp: true },
  priority: { column: 'j.priority', timestamp: false },
  number: { column: 'j.number', timestamp: false },
  day: { column: 'j.day', timestamp: false },
  orderId: { column: 'j.order_id', timestamp: false },
  windowStart: { column: 'j.window_start', timestamp: false },
  type: { column: 'j.type', timestamp: false },
  teamId: { column: 'j.team_id', timestamp: false },
  destinationName: { column: 'j.destination_name', timestamp: false },
};

const ZeroOne = () => IsIn([0, 1, true, false], { message: 'must be 0 or 1' });

export class GetJobsSortDto {
  @Optional()
  @IsIn(Object.keys(SORT_FIELDS), { message: `must be one of ${Object.keys(SORT_FIELDS).join(', ')}` })
  field?: string;

  @Optional()
  @IsBoolean()
  ascending?: boolean;

  /** default 100, at most 1000 */
  @Optional()
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;

  @Optional()
  @IsInt()
  @Min(0)
  @Max(10_000_000)
  skip?: number;

  /** ms, inclusive */
  @Optional()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  @MsNotSeconds()
  from?: number;

  /** ms, exclusive */
  @Optional()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  @MsNotSeconds()
  until?: number;

  /** progress index (scheduled 0, accepted 1, rejected 2, started 3, success 4, failed 5); -1 = all */
  @Optional()
  @IsInt()
  @Min(-1)
  @Max(5)
  status?: number;
}

/** getjobs (spec "Jobs", with CONTRACTS.md's defaults). */
export class GetJobsDto {
  @Optional()
  @IsString()
  @Length(1, 68)
  id?: string;

  @Optional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @Length(1, 68, { each: true })
  ids?: string[];

  /** YYYYMMDD; 0 = undated; -1 = any day. Default: today in the company's zone (all days with sort). */
  @Optional()
  @Rule((v) => v === 0 || v === -1 || isRealDay(v), 'must be a real date YYYYMMDD, 0 (no date) or -1 (any day)')
  day?: number;

  /** username; "" unassigned; "+" any assigned; "*" all */
  @Optional()
  @IsString()
  @Length(0, 254)
  worker?: string;

  @Optional()
  @IsInt()
  @Min(0)
  @Max(2147483647)
  team?: number;

  @Optional()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  orderId?: number;

  @Optional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsInt({ each: true })
  @Min(0, { each: true })
  @Max(Number.MAX_SAFE_INTEGER, { each: true })
  orderIds?: number[];

  @Optional()
  @ZeroOne()
  progressSuccess?: number | boolean;

  @Optional()
  @ZeroOne()
  progressActive?: number | boolean;

  @Optional()
  @ZeroOne()
  includeArchived?: number | boolean;

  @Optional()
  @IsBoolean()
  compact?: boolean;

  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => GetJobsSortDto)
  sort?: GetJobsSortDto;

  /** our extension: answer templates (ids `tpl-<id>`) instead of jobs */
  @Optional()
  @IsBoolean()
  templates?: boolean;
}
