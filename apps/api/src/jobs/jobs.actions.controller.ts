import { AuthContext, invalid, jsonListUtf8 } from '@app/core';
import { AutoassignService } from '@app/dispatch';
import { CompactJobView, CreateJobsDto, EditJobsDto, GetJobsDto, JobIdsDto, JobsQueryService, JobsService, JobView } from '@app/jobs';
import { Controller } from '@nestjs/common';
import { Action, Caller, Data, Ver } from '../envelope/decorators';
import { JsonAnswer } from '../envelope/json-answer';

/** `data.jobs` of delete/archive/restore: ids with empty-object values. */
function jobIds(jobs: Record<string, unknown>): string[] {
  for (const [id, value] of Object.entries(jobs)) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.keys(value).length) {
      throw invalid(`data.jobs.${id}`, 'must be an empty object {}');
    }
  }
  return Object.keys(jobs);
}

/**
 * createjobs' answer: `jobs` one per input, in input order; with `autoassign: true` also the jobs no
 * worker could take, and why (our extension).
 */
export interface CreateJobsAnswer {
  status: 0;
  jobs: JobView[];
  /** only with `autoassign: true`: ids of the jobs created unassigned, input order */
  unassignedJobs?: string[];
  /** only with `autoassign: true`: job id → why no worker could take it */
  reasons?: Record<string, string>;
}

/** `answer` as a {@link JsonAnswer} of its JSON text. */
const answerJson = <T>(answer: T): JsonAnswer<T> => new JsonAnswer<T>(JSON.stringify(answer));

/** Job actions (spec "Jobs"). */
@Controller('api')
export class JobsActionsController {
  constructor(
    private readonly jobs: JobsService,
    private readonly query: JobsQueryService,
    private readonly autoassign: AutoassignService,
  ) {}

  /** Answered as JSON text (JsonAnswer): no Express `res.json`, no ETag hash of the answer on every call. */
  @Action('getjobs')
  async getjobs(
    @Caller() ctx: AuthContext,
    @Data() dto: GetJobsDto,
  ): Promise<JsonAnswer<{ status: 0; jobs: JobView[] | CompactJobView[] }>> {
    return answerJson({ status: 0 as const, jobs: await this.query.getJobs(ctx, dto) });
  }

  /** Answered as JSON text (JsonAnswer): a 1,000-job answer is ~2 MB, which Express would hash (sha1) for an ETag. */
  @Action('createjobs')
  async createjobs(@Caller() ctx: AuthContext, @Data() dto: CreateJobsDto): Promise<JsonAnswer<CreateJobsAnswer>> {
    // autoassign: created and assigned in one transaction by the worker (dispatch), with the jobs no one could take
    if (dto.autoassign) {
      const answer = await this.autoassign.createJobs(ctx, {
        writes: dto.writes,
        sendRouteChange: dto.sendRouteChange,
        isTemplate: dto.isTemplate,
      });
      return answerJson({ status: 0, jobs: answer.jobs, unassignedJobs: answer.unassignedJobs, reasons: answer.reasons });
    }
    const { jobsUtf8 } = await this.jobs.createJobs(
      ctx,
      { jobs: dto.writes, sendRouteChange: dto.sendRouteChange, isTemplate: dto.isTemplate },
      'api',
    );
    // JSON.stringify({ status: 0, jobs }) as UTF-8, byte for byte, from the bytes the jobs' events carry
    return new JsonAnswer<CreateJobsAnswer>(jsonListUtf8('{"status":0,"jobs":[', jobsUtf8, ']}'));
  }

  @Action('editjobs')
  async editjobs(@Caller() ctx: AuthContext, @Data() dto: EditJobsDto, @Ver() ver: 1 | 2) {
    const jobs = await this.jobs.editJobs(ctx, { jobs: dto.edits, notify: dto.notify, sendRouteChange: dto.sendRouteChange });
    return ver === 1 ? { status: 0 } : { status: 0, jobs };
  }

  @Action('deletejobs')
  async deletejobs(@Caller() ctx: AuthContext, @Data() dto: JobIdsDto) {
    await this.jobs.changeLifecycle(ctx, 'delete', jobIds(dto.jobs), dto.notify);
    return { status: 0 };
  }

  @Action('archivejobs')
  async archivejobs(@Caller() ctx: AuthContext, @Data() dto: JobIdsDto) {
    await this.jobs.changeLifecycle(ctx, 'archive', jobIds(dto.jobs), dto.notify);
    return { status: 0 };
  }

  @Action('restorejobs')
  async restorejobs(@Caller() ctx: AuthContext, @Data() dto: JobIdsDto) {
    await this.jobs.changeLifecycle(ctx, 'restore', jobIds(dto.jobs), dto.notify);
    return { status: 0 };
  }
}
