import { CompletesValidation, EntriesOf, invalid, MsNotSeconds, Optional, QueryBool, QueryInt, Verbatim } from '@app/core';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsObject, IsString, Matches, MaxLength, Min } from 'class-validator';
import { JobEdit, JobWrite, JobWriteDto, parseJobEdits, parseJobWrites } from '../job-input';
import { MAX_JOBS_PER_CALL } from '../jobs.service';
import { PROGRESS_VALUES } from '../progress';

/** Keys of a job write matched by pattern rather than by JobWriteDto (parseJobWrite). */
const JOB_PATTERN_KEYS =
  '`custom_<name>` (a string of ≤ 2000 characters, "" removes it; name 1–40 of A-Z a-z 0-9 _) and `extra_number_[1-4]_val` (a number) / `extra_text_[1-4]_val` (a string ≤ 2000)';

/**
 * createjobs. Once its rules pass, the pipe turns `jobs` into {@link writes} (each entry validated
 * by `parseJobWrite`): the one validation of a job write.
 */
export class CreateJobsDto implements CompletesValidation {
  @EntriesOf(() => JobWriteDto, JOB_PATTERN_KEYS)
  @Verbatim()
  @IsArray()
  @ArrayMaxSize(1000, { message: 'at most 1000 jobs per call' })
  jobs: unknown[];

  @Optional()
  @IsBoolean()
  sendRouteChange?: boolean;

  @Optional()
  @IsBoolean()
  autoassign?: boolean;

  @Optional()
  @IsBoolean()
  isTemplate?: boolean;

  /** `jobs`, validated into typed writes (not a wire field: set by {@link completeValidation}). */
  declare writes: JobWrite[];

  completeValidation(prefix: string): void {
    this.writes = parseJobWrites(this.jobs, `${prefix}.jobs`);
  }
}

/**
 * editjobs: `jobs` keyed by job id (or `tpl-<id>`), each value the fields to change. Once its rules
 * pass, the pipe turns `jobs` into {@link edits}.
 */
export class EditJobsDto implements CompletesValidation {
  @EntriesOf(() => JobWriteDto, JOB_PATTERN_KEYS)
  @Verbatim()
  @IsObject()
  jobs: Record<string, unknown>;

  @Optional()
  @IsBoolean()
  notify?: boolean;

  @Optional()
  @IsBoolean()
  sendRouteChange?: boolean;

  /** `jobs`, validated into typed writes in the order sent (not a wire field: set by {@link completeValidation}). */
  declare edits: JobEdit[];

  completeValidation(prefix: string): void {
    // the count first: 1,001 valid edits are refused for their number, not parsed
    if (Object.keys(this.jobs).length > MAX_JOBS_PER_CALL) throw invalid(`${prefix}.jobs`, `at most ${MAX_JOBS_PER_CALL} jobs per call`);
    this.edits = parseJobEdits(this.jobs, `${prefix}.jobs`);
  }
}

/** deletejobs, archivejobs, restorejobs: `jobs` keyed by job id with empty-object values. */
export class JobIdsDto {
  @IsObject()
  jobs: Record<string, unknown>;

  @Optional()
  @IsBoolean()
  notify?: boolean;
}

const PROGRESS_LIST = new RegExp(`^(${PROGRESS_VALUES.join('|')})(,(${PROGRESS_VALUES.join('|')}))*$`);

/** `GET /v1/jobs` query string, strictly typed. */
export class ConnectorJobsQueryDto {
  /** ms, inclusive */
  @Optional()
  @QueryInt()
  @IsInt({ message: 'must be an integer ≥ 0 (ms)' })
  @Min(0, { message: 'must be an integer ≥ 0 (ms)' })
  @MsNotSeconds()
  createdSince?: number;

  /** ms, inclusive */
  @Optional()
  @QueryInt()
  @IsInt({ message: 'must be an integer ≥ 0 (ms)' })
  @Min(0, { message: 'must be an integer ≥ 0 (ms)' })
  @MsNotSeconds()
  updatedSince?: number;

  /** one or more of scheduled, accepted, rejected, started, success, failed (comma-separated) */
  @Optional()
  @IsString()
  @Matches(PROGRESS_LIST, { message: `must be one or more of ${PROGRESS_VALUES.join(', ')}, comma-separated` })
  progress?: string;

  @Optional()
  @QueryBool()
  @IsBoolean({ message: 'must be true, false, 1 or 0' })
  includeArchived?: boolean;

  /** default 100; larger values are clamped to 100 */
  @Optional()
  @QueryInt()
  @IsInt({ message: 'must be an integer ≥ 0' })
  @Min(0, { message: 'must be an integer ≥ 0' })
  limit?: number;

  @Optional()
  @QueryInt()
  @IsInt({ message: 'must be an integer ≥ 0' })
  @Min(0, { message: 'must be an integer ≥ 0' })
  skip?: number;

  @Optional()
  @IsString()
  @MaxLength(200)
  externalId?: string;

  @Optional()
  @IsString()
  @MaxLength(254)
  assigneeUsername?: string;
}
