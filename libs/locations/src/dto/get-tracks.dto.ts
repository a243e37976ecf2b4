import { MsNotSeconds, Optional } from '@app/core';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsString, Length, Max, Min } from 'class-validator';

/** gettracks (spec "Tracks: POST /api/gettracks"). */
export class GetTracksDto {
  /** ms, inclusive */
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  @MsNotSeconds()
  from: number;

  /** ms, exclusive; from ≤ until ≤ from + 31 days */
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  @MsNotSeconds()
  until: number;

  /** member uids → the flat `tracks` answer */
  @Optional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  uids?: string[];

  /** deprecated: uids or usernames, used when `uids` is absent → `accounts: {<key>: [tracks]}` */
  @Optional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  accounts?: string[];

  /** adds `course_encoded` to each track */
  @Optional()
  @IsBoolean()
  withCourse?: boolean;
}
