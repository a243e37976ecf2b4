import { invalid, isRealDay, Optional, Rule } from '@app/core';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsString, Length, Max, Min } from 'class-validator';

/** The most jobs and workers one autoassign call takes (CONTRACTS.md "Dispatch"). */
export const MAX_AUTOASSIGN_JOBS = 2000;
export const MAX_AUTOASSIGN_WORKERS = 500;
export const AUTOASSIGN_METHODS = ['distance', 'size', 'zones'] as const;
export type AutoassignMethod = (typeof AUTOASSIGN_METHODS)[number];

/** The first entry of `list` sent twice, or undefined. */
function firstRepeat(list: readonly string[], key: (s: string) => string = (s) => s): string | undefined {
  const seen = new Set<string>();
  for (const item of list) {
    const k = key(item);
    if (seen.has(k)) return item;
    seen.add(k);
  }
  return undefined;
}

/**
 * autoassign `{jobs, workers, method?, pickupCapacity?, dropoffCapacity?, day?}`: job ids (≤ 2,000),
 * workers by username or uid (≤ 500), `method` `distance` (default), `size` or `zones`, capacities
 * per kind (items) overriding each worker's `vehicle_capacity`, `day` YYYYMMDD (default: each job's
 * own day, today for undated jobs). The pipe calls {@link completeValidation} once the rules pass.
 */
export class AutoassignDto {
  @IsArray()
  @ArrayMinSize(1, { message: 'must name at least one job' })
  @ArrayMaxSize(MAX_AUTOASSIGN_JOBS, { message: `at most ${MAX_AUTOASSIGN_JOBS} jobs per call` })
  @IsString({ each: true })
  @Length(1, 64, { each: true, message: 'job ids are non-empty strings of at most 64 characters' })
  jobs: string[];

  @IsArray()
  @ArrayMinSize(1, { message: 'must name at least one worker' })
  @ArrayMaxSize(MAX_AUTOASSIGN_WORKERS, { message: `at most ${MAX_AUTOASSIGN_WORKERS} workers per call` })
  @IsString({ each: true })
  @Length(1, 254, { each: true, message: 'workers are usernames or uids (non-empty, at most 254 characters)' })
  workers: string[];

  @Optional()
  @IsIn(AUTOASSIGN_METHODS, { message: `must be one of ${AUTOASSIGN_METHODS.join(', ')}` })
  method?: AutoassignMethod;

  /** items a worker may pick up in total on the day (its existing jobs included) */
  @Optional()
  @IsInt()
  @Min(0)
  @Max(1000000000)
  pickupCapacity?: number;

  /** items a worker may drop off in total on the day (its existing jobs included) */
  @Optional()
  @IsInt()
  @Min(0)
  @Max(1000000000)
  dropoffCapacity?: number;

  @Optional()
  @Rule((v) => isRealDay(v), 'must be a real date YYYYMMDD')
  day?: number;

  completeValidation(prefix: string): void {
    const job = firstRepeat(this.jobs);
    if (job !== undefined) throw invalid(`${prefix}.jobs`, `job ${job} is listed twice`);
    const worker = firstRepeat(this.workers, (w) => w.toLowerCase());
    if (worker !== undefined) throw invalid(`${prefix}.workers`, `worker ${worker} is listed twice`);
  }
}
