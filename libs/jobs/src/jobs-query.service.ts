import { AuthContext, dayInZone } from '@app/core';
import { Injectable } from '@nestjs/common';
import { GetJobsDto, SORT_FIELDS } from './dto/get-jobs.dto';
import { CompactJobView, JobView, toCompact, toJobView } from './job-view';
import { JobFilter, JobsRepository } from './jobs.repository';
import { Progress, PROGRESS_SQL, progressIndex } from './progress';

/** Without `sort`, getjobs answers at most this many jobs. */
export const GETJOBS_MAX = 1000;

/** Builds `WHERE` clauses with numbered parameters. */
class Where {
  readonly clauses: string[] = [];
  readonly params: unknown[] = [];
  add(sql: (p: (value: unknown) => string) => string): void {
    this.clauses.push(sql((value) => `$${this.params.push(value)}`));
  }
  get filter(): JobFilter {
    return { where: this.clauses.join(' AND '), params: this.params };
  }
}

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
  constructor(private readonly repo: JobsRepository) {}

  /**
   * getjobs. Workers see only their own jobs (filters narrowed silently; `worker: "*"` = own).
   * Lookups by `id`/`ids` answer archived jobs too; templates only with `templates: true`.
   * Full views unless `compact` is true.
   */
  getJobs(ctx: AuthContext, q: GetJobsDto & { compact?: false }): Promise<JobView[]>;
  getJobs(ctx: AuthContext, q: GetJobsDto): Promise<JobView[] | CompactJobView[]>;
  async getJobs(ctx: AuthContext, q: GetJobsDto): Promise<JobView[] | CompactJobView[]> {
    const w = new Where();
    w.add((p) => `j.company_id = ${p(ctx.companyId)}`);
    w.add((p) => `j.is_template = ${p(q.templates === true)}`);
    const ids = [...(q.id !== undefined ? [q.id] : []), ...(q.ids ?? [])];
    if (q.id !== undefined || q.ids !== undefined) {
      const raw = ids.map((id) => (q.templates ? id.replace(/^tpl-/, '') : id));
      w.add((p) => `j.id = ANY(${p(raw)}::text[])`);
    }
    const orders = [...(q.orderId !== undefined ? [q.orderId] : []), ...(q.orderIds ?? [])];
    if (q.orderId !== undefined || q.orderIds !== undefined) w.add((p) => `j.order_id = ANY(${p(orders)}::bigint[])`);

    const lookup = q.id !== undefined || q.ids !== undefined || q.orderId !== undefined || q.orderIds !== undefined;
    const day = q.day ?? (lookup || q.sort || q.templates ? -1 : dayInZone(Date.now(), ctx.timezone));
    if (day !== -1 && !q.templates) w.add((p) => `j.day = ${p(day)}`);

    if (ctx.role === 'worker') w.add((p) => `j.worker_id = ${p(ctx.memberId)}`);
    const worker = q.worker ?? '*';
    if (worker === '') w.add(() => `j.worker_id IS NULL`);
    else if (worker === '+') w.add(() => `j.worker_id IS NOT NULL`);
    // the company as a parameter, not the outer row: the subquery runs once and IDX_jobs_company_worker_day applies
    else if (worker !== '*')
      w.add(
        (p) =>
          `j.worker_id = (SELECT id FROM members m WHERE m.company_id = ${p(ctx.companyId)} AND lower(m.username) = lower(${p(worker)}))`,
      );

    if (q.team !== undefined) w.add((p) => `j.team_id = ${p(q.team)}`);
    if (q.progressSuccess === 1 || q.progressSuccess === true) w.add(() => `j.ts_done_success > 0`);
    if (q.progressActive === 1 || q.progressActive === true) w.add(() => `j.ts_done_success = 0 AND j.ts_done_failed = 0`);
    const includeArchived = q.includeArchived === 1 || q.includeArchived === true;
    if (!includeArchived && q.id === undefined && q.ids === undefined) w.add(() => `j.archived = false`);

    let order = `j.number, j.ts_created, j.id`;
    let limit = GETJOBS_MAX;
    let skip = 0;
    if (q.sort) {
      const field = SORT_FIELDS[q.sort.field ?? 'tsCreated'];
      const dir = q.sort.ascending === false ? 'DESC' : 'ASC';
      order = `${field.column} ${dir}, j.id ${dir}`;
      limit = q.sort.limit ?? 100;
      skip = q.sort.skip ?? 0;
      const bounded = field.timestamp ? field.column : 'j.ts_created';
      if (q.sort.from !== undefined) w.add((p) => `${bounded} >= ${p(q.sort!.from)}`);
      if (q.sort.until !== undefined) w.add((p) => `${bounded} < ${p(q.sort!.until)}`);
      if (q.sort.status !== undefined && q.sort.status !== -1) w.add((p) => `${PROGRESS_SQL} = ${p(q.sort!.status)}`);
    }
    const rows = await this.repo.find(w.filter, order, limit, skip);
    const views = rows.map(toJobView);
    return q.compact ? views.map(toCompact) : views;
  }

  /**
   * `GET /v1/jobs`: newest first by the polled field (createdAt with createdSince, updatedAt with
   * updatedSince, else createdAt; ties by id); `*Since` inclusive. A `*Since` query answers only rows
   * whose polled field is below min(now, the start of the oldest transaction still open), so a
   * change committed late (stamped with its transaction's start) is never skipped by a poller.
   */
  async listForConnector(ctx: AuthContext, q: ConnectorJobsQuery): Promise<JobView[]> {
    const w = new Where();
    w.add((p) => `j.company_id = ${p(ctx.companyId)}`);
    w.add(() => `j.is_template = false`);
    if (ctx.role === 'worker') w.add((p) => `j.worker_id = ${p(ctx.memberId)}`);
    if (!q.includeArchived) w.add(() => `j.archived = false`);
    if (q.externalId !== undefined) w.add((p) => `j.uid_secondary = ${p(q.externalId)}`);
    if (q.assigneeUsername !== undefined) {
      w.add(
        (p) =>
          `j.worker_id = (SELECT id FROM members m WHERE m.company_id = ${p(ctx.companyId)} AND lower(m.username) = lower(${p(q.assigneeUsername)}))`,
      );
    }
    if (q.progress?.length) w.add((p) => `${PROGRESS_SQL} = ANY(${p(q.progress!.map(progressIndex))}::int[])`);
    const polled = q.updatedSince !== undefined ? 'j.ts_saved' : 'j.created_at';
    if (q.createdSince !== undefined) w.add((p) => `j.created_at >= ${p(q.createdSince)}`);
    if (q.updatedSince !== undefined) w.add((p) => `j.ts_saved >= ${p(q.updatedSince)}`);
    if (q.createdSince !== undefined || q.updatedSince !== undefined) {
      const horizon = await this.repo.pollingHorizon();
      w.add((p) => `${polled} < ${p(horizon)}`);
    }
    const rows = await this.repo.find(w.filter, `${polled} DESC, j.id DESC`, q.limit, q.skip);
    return rows.map(toJobView);
  }
}
