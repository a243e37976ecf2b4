import { invalid, isIdShaped, Optional } from '@app/core';
import { IsIn, IsInt, IsObject } from 'class-validator';

/** The most jobs one distributejobs call takes, and the most regions (CONTRACTS.md "Dispatch"). */
export const MAX_DISTRIBUTE_JOBS = 5000;
export const MAX_REGIONS = 100;
export const DISTRIBUTE_METHODS = ['distance', 'size', 'zones'] as const;
export type DistributeMethod = (typeof DISTRIBUTE_METHODS)[number];

/**
 * distributejobs `{jobs, regions, method?}`: `jobs` keyed by job id with empty-object values (the
 * spec's shape), at most 5,000; `regions` 1..min(n, 100) clusters (ignored by `zones`, which makes one
 * cluster per zone, else team); `method` (our request key; the spec names it in the answer)
 * `distance` (default), `size` or `zones`. The pipe calls {@link completeValidation} once the rules pass.
 */
export class DistributeJobsDto {
  @IsObject()
  jobs: Record<string, unknown>;

  @Optional()
  @IsInt()
  regions?: number;

  @Optional()
  @IsIn(DISTRIBUTE_METHODS, { message: `must be one of ${DISTRIBUTE_METHODS.join(', ')}` })
  method?: DistributeMethod;

  /** The job ids, in the order sent (not a wire field: set by {@link completeValidation}). */
  declare ids: string[];

  completeValidation(prefix: string): void {
    const entries = Object.entries(this.jobs);
    if (!entries.length) throw invalid(`${prefix}.jobs`, 'must name at least one job');
    if (entries.length > MAX_DISTRIBUTE_JOBS) throw invalid(`${prefix}.jobs`, `at most ${MAX_DISTRIBUTE_JOBS} jobs per call`);
    for (const [id, value] of entries) {
      if (!isIdShaped(id)) throw invalid(`${prefix}.jobs`, 'job ids are non-empty strings of at most 64 characters');
      if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.keys(value).length)
        throw invalid(`${prefix}.jobs.${id}`, 'must be an empty object {}');
    }
    this.ids = entries.map(([id]) => id);
    if ((this.method ?? 'distance') === 'zones') return;
    const most = Math.min(this.ids.length, MAX_REGIONS);
    if (this.regions === undefined) throw invalid(`${prefix}.regions`, `is required (1 to ${most}) unless method is zones`);
    if (this.regions < 1 || this.regions > most)
      throw invalid(`${prefix}.regions`, `must be between 1 and min(number of jobs, ${MAX_REGIONS}) = ${most}`);
  }
}
