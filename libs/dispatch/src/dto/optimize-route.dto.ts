import { isRealDay, Optional, Rule } from '@app/core';
import { IsBoolean, IsString, Length } from 'class-validator';

/** optimizeroute's `data` (spec "optimizeroute"; CONTRACTS.md "Dispatch"). */
export class OptimizeRouteDto {
  /** YYYYMMDD: the route's day, in the company's time zone. */
  @Rule((v) => isRealDay(v), 'must be a real date YYYYMMDD')
  day: number;

  /** The member whose route it is: its username or uid. */
  @IsString()
  @Length(1, 254)
  account: string;

  /** Our name for the spec's unnamed option: start and end at the company's `location` (a closed tour). */
  @Optional()
  @IsBoolean()
  startEndAtCompany?: boolean;
}
