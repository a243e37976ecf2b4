import { MsNotSeconds, Optional } from '../validation/validation';
import { IsInt, Max, Min } from 'class-validator';

/** The `since` / `limit` pair of our list actions (getnotifications, getwebhookdeliveries); extend it. */
export class SinceLimitDto {
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
  @Max(1000)
  limit?: number;
}
