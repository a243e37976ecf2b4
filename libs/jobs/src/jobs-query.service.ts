import { AuthContext, dayInZone, OutboxStamping } from '@app/core';
import { Injectable } from '@nestjs/common';
import { GetJobsDto } from './dto/get-jobs.dto';
import { CompactJobView, JobView, toCompact, toJobView } from './job-view';
import { JobStampsRepository } from './job-stamps.repository';
import { JobsRepository } from './jobs.repository';
import { Progress } from './progress';

/** Without `sort`, getjobs answers at most this many jobs. */
export const GETJOBS_MAX = 1000;

/** Connector listing filters (`GET /v1/jobs`). */
export interface ConnectorJobsQuery {
  createdSince?: number;
  updatedSince?: number;
  progress?: Progress[];
  includeArchived?: boolean;
  limit: number;
  skip: number;
  externalId?: string;
  assigneeUsername?: string;
}

/**
 * Job reads: getjobs with every filter of the spec and CONTRACTS.md's defaults, and the
 * connector's list and polling (which never misses a change committed late).
 */
@Injectable()
export class JobsQueryService {
  constructor(
    private readonly repo: JobsRepository,
    private readonly stamps: JobStampsRepository,
    private readonly stamping: OutboxStamping,
  ) {}

  /**
   * getjobs. Workers see only their own jobs (filters narrowed silently; `worker: "*"` = own).
   * Lookups by `id`/`ids` answer archived jobs too; templates only with `templates: true`.
   * Full views unless `compact` is true.
   */
  getJobs(ctx: AuthContext, q: GetJobsDto & { compact?: false }): Promise<JobView[]>;
  getJobs(ctx: AuthContext, q: GetJobsDto): Promise<JobView[] | CompactJobView[]>;
  async getJobs(ctx: AuthContext, q: GetJobsDto): Promise<JobView[] | CompactJobView[]> {
    const ids = [...(q.id !== undefined ? [q.id] : []), ...(q.ids ?? [])];
    const byId = q.id !== undefined || q.ids !== undefined;
    const orders = [...(q.orderId !== undefined ? [q.orderId] : []), ...(q.orderIds ?? [])];
    const byOrder = q.orderId !== undefined || q.orderIds !== undefined;
    const lookup = byId || byOrder;
    const day = q.day ?? (lookup || q.sort || q.templates ? -1 : dayInZone(Date.now(), ctx.timezone));
    const sort = q.sort;
    const rows = await this.repo.search({
      companyId: ctx.companyId,
      templates: q.templates === true,
      ids: byId ? ids.map((id) => (q.templates ? id.replace(/^tpl-/, '') : id)) : undefined,
      orderIds: byOrder ? orders : undefined,
      day: day !== -1 && !q.templates ? day : undefined,
      ownWorkerId: ctx.role === 'worker' ? ctx.memberId : undefined,
      worker: q.worker ?? '*',
      team: q.team,
      doneSuccess: q.progressSuccess === 1 || q.progressSuccess === true,
      active: q.progressActive === 1 || q.progressActive === true,
      // a lookup by id or ids answers archived jobs too (docs/decisions.md)
      includeArchived: q.includeArchived === 1 || q.includeArchived === true || byId,
      sort: sort && {
        field: sort.field ?? 'tsCreated',
        ascending: sort.ascending !== false,
        from: sort.from,
        until: sort.until,
        status: sort.status !== undefined && sort.status !== -1 ? sort.status : undefined,
      },
      limit: sort ? (sort.limit ?? 100) : GETJOBS_MAX,
      skip: sort ? (sort.skip ?? 0) : 0,
    });
    const views = rows.map(toJobView);
    return q.compact ? views.map(toCompact) : views;
  }

  /**
   * `GET /v1/jobs`: newest first by the polled field (ties by id); `*Since` inclusive, on the jobs'
   * commit stamps (see {@link JobsRepository.listForConnector}), so a poll never misses a change and
   * is never held back by another transaction. A `*Since` poll that finds jobs of the company
   * committed but not yet stamped stamps them first, so it sees every write committed before it.
   * Workers see only their own jobs.
   */
  async listForConnector(ctx: AuthContext, q: ConnectorJobsQuery): Promise<JobView[]> {
    const search = {
      companyId: ctx.companyId,
      ownWorkerId: ctx.role === 'worker' ? ctx.memberId : undefined,
      includeArchived: q.includeArchived === true,
      externalId: q.externalId,
      assigneeUsername: q.assigneeUsername,
      progress: q.progress,
      createdSince: q.createdSince,
      updatedSince: q.updatedSince,
      limit: q.limit,
      skip: q.skip,
    };
    const polling = q.createdSince !== undefined || q.updatedSince !== undefined;
    if (polling && (await this.stamps.hasUnstamped(ctx.companyId))) await this.stamping.kick(ctx.companyId);
    return (await this.repo.listForConnector(search)).map(toJobView);
  }
}
