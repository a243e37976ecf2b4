import { CompletesValidation, invalid, MsNotSeconds, Optional, QueryInt } from '@app/core';
import { IsDefined, IsInt, IsString, Length, Max, Min } from 'class-validator';

/**
 * `GET /v1/locations` query (docs/connector.md "Positions"): every filter narrows — `memberId` or
 * `username` (one member; not both), `team` (members of that team). None: every member the caller
 * may see. Unknown members or teams select nothing (an empty list, not a 404).
 */
export class ConnectorLocationsQueryDto implements CompletesValidation {
  /** a member uid */
  @Optional()
  @IsString()
  @Length(1, 64)
  memberId?: string;

  /** a username (compared case-insensitively) */
  @Optional()
  @IsString()
  @Length(1, 254)
  username?: string;

  /** a team id of the company's `teams_config` */
  @Optional()
  @QueryInt()
  @IsInt({ message: 'must be a team id (an integer ≥ 1)' })
  @Min(1, { message: 'must be a team id (an integer ≥ 1)' })
  team?: number;

  completeValidation(prefix: string): void {
    if (this.memberId !== undefined && this.username !== undefined)
      throw invalid(`${prefix}.username`, 'send memberId or username, not both');
  }
}

const MS_RULE = 'is required: ms since the epoch';

/**
 * `GET /v1/tracks` query (docs/connector.md "Tracks"): one member's tracks overlapping [from, until),
 * as gettracks (`until` ≥ `from`, at most 31 days apart).
 */
export class ConnectorTracksQueryDto {
  /** the member's uid */
  @IsDefined({ message: 'is required: a member uid' })
  @IsString()
  @Length(1, 64)
  memberId: string;

  /** ms, inclusive */
  @IsDefined({ message: MS_RULE })
  @QueryInt()
  @IsInt({ message: 'must be an integer ≥ 0 (ms)' })
  @Min(0, { message: 'must be an integer ≥ 0 (ms)' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'must be an integer ≥ 0 (ms)' })
  @MsNotSeconds()
  from: number;

  /** ms, exclusive; from ≤ until ≤ from + 31 days */
  @IsDefined({ message: MS_RULE })
  @QueryInt()
  @IsInt({ message: 'must be an integer ≥ 0 (ms)' })
  @Min(0, { message: 'must be an integer ≥ 0 (ms)' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'must be an integer ≥ 0 (ms)' })
  @MsNotSeconds()
  until: number;
}
