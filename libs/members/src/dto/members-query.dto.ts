import { Optional, QueryInt } from '@app/core';
import { IsInt, IsString, MaxLength, Min } from 'class-validator';

/** `GET /v1/members` query string (spec "Connector API"): an optional search text and `max`. */
export class MembersQuery {
  /** a member id, or a case-insensitive substring of the name, username or e-mail */
  @Optional()
  @IsString()
  @MaxLength(254)
  query?: string;

  /** default 50, larger values clamped to 50 */
  @Optional()
  @QueryInt()
  @IsInt({ message: 'must be an integer ≥ 0' })
  @Min(0, { message: 'must be an integer ≥ 0' })
  max?: number;
}
