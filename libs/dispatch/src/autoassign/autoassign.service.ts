import { AuthContext, invalid, WorkerResultsService } from '@app/core';
import { JobWrite, MAX_JOBS_PER_CALL } from '@app/jobs';
import { Injectable } from '@nestjs/common';
import { CreateJobsAutoassignAnswer } from './autoassign-create.kind';
import { AutoassignAnswer } from './autoassign.kind';
import { AutoassignDto } from '../dto/autoassign.dto';

/** The api side of autoassign and of createjobs with `autoassign: true`: both computed by the worker. */
@Injectable()
export class AutoassignService {
  constructor(private readonly runs: WorkerResultsService) {}

  /**
   * autoassign (the `autoassign` run kind).
   * @throws DomainError invalid naming unknown job ids or workers; RunUnfinishedError (-99/503) past
   *   `DISPATCH_TIMEOUT_MS`, nothing changed.
   */
  autoassign(ctx: AuthContext, dto: AutoassignDto): Promise<AutoassignAnswer> {
    return this.runs.call(
      'autoassign',
      {
        auth: ctx,
        jobs: dto.jobs,
        workers: dto.workers,
        method: dto.method ?? 'distance',
        pickupCapacity: dto.pickupCapacity,
        dropoffCapacity: dto.dropoffCapacity,
        day: dto.day,
      },
      { companyId: ctx.companyId, memberId: ctx.memberId },
      { profile: 'dispatch' },
    );
  }

  /**
   * createjobs with `autoassign: true` (the `createjobs.autoassign` run kind): created and assigned in
   * one transaction in the worker; past `DISPATCH_TIMEOUT_MS` → -99/503 and nothing created.
   * @throws DomainError invalid for templates (`isTemplate` with `autoassign`), more than 1,000 jobs,
   *   and every rule createjobs checks (naming the job's field).
   */
  createJobs(
    ctx: AuthContext,
    input: { writes: JobWrite[]; sendRouteChange?: boolean; isTemplate?: boolean },
  ): Promise<CreateJobsAutoassignAnswer> {
    if (input.isTemplate) throw invalid('data.autoassign', 'templates are not assigned: send autoassign or isTemplate, not both');
    if (input.writes.length > MAX_JOBS_PER_CALL) throw invalid('data.jobs', `at most ${MAX_JOBS_PER_CALL} jobs per call`);
    return this.runs.call(
      'createjobs.autoassign',
      { auth: ctx, writes: input.writes, sendRouteChange: input.sendRouteChange },
      { companyId: ctx.companyId, memberId: ctx.memberId },
      { profile: 'dispatch' },
    );
  }
}
