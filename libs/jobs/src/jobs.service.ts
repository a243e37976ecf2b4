import {
  AuthContext,
  dayInZone,
  DomainError,
  exists,
  invalid,
  isIdShaped,
  isUniqueViolation,
  newId,
  NotificationsService,
  notFound,
  OutboxEventInput,
  outboxEvent,
  OutboxService,
} from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Job } from './entities/job.entity';
import { editEvents, JOB_EVENT_KEYS, JobAction, progressChanged } from './job-events';
import { DispatcherNotificationKind } from './job-notifications';
import { parseJobWrite } from './job-input';
import { JobRefs, PathedWrite } from './job-refs';
import { workerJobEditDenial } from './job-policy';
import { JobSql } from './job-sql';
import { JOB_SELECT_SQL, JobRow, JobView, toJobView } from './job-view';
import { applyJobWrite, changedProperties, newJobState } from './job-write';

/** How a job reached us: `createdVia`. */
export type JobSurface = 'api' | 'connector';

/** The most jobs one createjobs call takes (CONTRACTS.md). */
export const MAX_JOBS_PER_CALL = 1000;

export interface CreateJobsInput {
  jobs: unknown[];
  sendRouteChange?: boolean;
  isTemplate?: boolean;
  autoassign?: boolean;
}

export interface EditJobsInput {
  /** job id (or `tpl-<id>`) → fields to change */
  jobs: Record<string, unknown>;
  /** default true: notify the dispatcher when progress changes */
  notify?: boolean;
  sendRouteChange?: boolean;
}

/** A job id as sent: `tpl-<id>` addresses a template. */
function parseWireId(wire: string): { id: string; template: boolean } {
  return wire.startsWith('tpl-') ? { id: wire.slice(4), template: true } : { id: wire, template: false };
}

/**
 * Job writes: createjobs (with uidSecondary upsert), editjobs, deletejobs, archivejobs,
 * restorejobs — each in one transaction that also appends its events to the outbox and writes its
 * notifications, so a change, its events and its notifications commit together or not at all.
 */
@Injectable()
export class JobsService {
  private readonly sql: JobSql;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly notifications: NotificationsService,
    private readonly refs: JobRefs,
  ) {
    this.sql = new JobSql(dataSource.getMetadata(Job));
  }

  /**
   * createjobs. A job whose `uidSecondary` matches a non-template job of the company updates it
   * (only the fields sent, like editjobs; also when archived, which it stays) — also when calls race.
   * @returns one job per input, in input order, and whether each was created (false = deduped).
   * @throws DomainError invalid naming `data.jobs[i].<field>`; for two inputs with one uidSecondary;
   *   for `autoassign` (not available yet).
   */
  async createJobs(ctx: AuthContext, input: CreateJobsInput, via: JobSurface): Promise<{ jobs: JobView[]; created: boolean[] }> {
    if (input.autoassign) throw invalid('data.autoassign', 'autoassign is not available yet');
    if (input.jobs.length > MAX_JOBS_PER_CALL) throw invalid('data.jobs', `at most ${MAX_JOBS_PER_CALL} jobs per call`);
    const isTemplate = input.isTemplate ?? false;
    const writes: PathedWrite[] = input.jobs.map((raw, i) => ({ write: parseJobWrite(raw, `data.jobs[${i}]`), path: `data.jobs[${i}]` }));
    const firstIndex = new Map<string, number>();
    writes.forEach(({ write }, i) => {
      const u = write.fields.uidSecondary;
      if (!u || isTemplate) return;
      const seen = firstIndex.get(u);
      if (seen !== undefined) throw invalid(`data.jobs[${i}].uidSecondary`, `same uidSecondary as data.jobs[${seen}]`);
      firstIndex.set(u, i);
    });
    const assignees = await this.refs.resolve(ctx, writes);

    return this.committed(async (manager, published) => {
      const now = Date.now();
      const ids: string[] = new Array(writes.length);
      const created: boolean[] = new Array(writes.length).fill(false);
      const merges = new Map<number, Job>();
      const withUid = isTemplate ? [] : writes.map((w, i) => [w.write.fields.uidSecondary, i] as const).filter(([u]) => !!u);
      if (withUid.length) {
        for (const job of await this.lockByUidSecondary(
          manager,
          ctx.companyId,
          withUid.map(([u]) => u!),
        )) {
          merges.set(firstIndex.get(job.uidSecondary!)!, job);
        }
      }
      const fresh: Job[] = [];
      const freshIndex: number[] = [];
      writes.forEach(({ write, path }, i) => {
        if (merges.has(i)) return;
        const state = newJobState({ id: newId(), companyId: ctx.companyId, isTemplate, createdBy: ctx.memberId, createdVia: via, now });
        fresh.push(applyJobWrite(state, write, assignees[i], now, path));
        freshIndex.push(i);
      });
      const inserted = await this.sql.insert(manager, fresh);
      const lost: Array<[string, number]> = [];
      fresh.forEach((job, k) => {
        if (inserted.has(job.id)) {
          ids[freshIndex[k]] = job.id;
          created[freshIndex[k]] = true;
        } else lost.push([job.uidSecondary!, freshIndex[k]]); // a racing call inserted this uidSecondary first
      });
      if (lost.length) {
        for (const job of await this.lockByUidSecondary(
          manager,
          ctx.companyId,
          lost.map(([u]) => u),
        ))
          merges.set(firstIndex.get(job.uidSecondary!)!, job);
      }

      const changes: Array<{ before: Job; after: Job }> = [];
      for (const [i, current] of merges) {
        ids[i] = current.id;
        const after = applyJobWrite(current, writes[i].write, assignees[i], now, writes[i].path);
        const changed = changedProperties(current, after);
        if (!changed.length) continue;
        await this.update(manager, after, changed, writes[i].path);
        changes.push({ before: current, after });
      }

      const views = await this.views(manager, ctx.companyId, ids);
      if (!isTemplate) {
        const events: OutboxEventInput[] = [];
        ids.forEach((id, i) => {
          if (created[i]) events.push(this.event(ctx, 'jobcreated', views.get(id)!));
        });
        for (const { before, after } of changes)
          for (const action of editEvents(before, after)) events.push(this.event(ctx, action, views.get(after.id)!));
        published.push(...(await this.outbox.appendMany(manager, events)));
      }
      if (input.sendRouteChange) {
        const today = dayInZone(now, ctx.timezone);
        const assigned = [...fresh.filter((j) => inserted.has(j.id)).map((j) => ({ before: null as Job | null, after: j })), ...changes];
        for (const { before, after } of assigned) await this.routeChanged(manager, ctx, before, after, today);
      }
      return { jobs: ids.map((id) => views.get(id)!), created };
    });
  }

  /**
   * editjobs: every job of the call or none (an unknown id answers not_found naming it, and nothing
   * is written). A no-op edit writes nothing and fires no event.
   * @returns the jobs after the edit, in the order sent.
   * @throws DomainError not_found, invalid (naming `data.jobs.<id>.<field>`), forbidden (worker rules).
   */
  async editJobs(ctx: AuthContext, input: EditJobsInput): Promise<JobView[]> {
    const entries = Object.entries(input.jobs);
    if (entries.length > MAX_JOBS_PER_CALL) throw invalid('data.jobs', `at most ${MAX_JOBS_PER_CALL} jobs per call`);
    const writes: PathedWrite[] = entries.map(([id, raw]) => ({ write: parseJobWrite(raw, `data.jobs.${id}`), path: `data.jobs.${id}` }));
    if (ctx.role === 'worker' && writes.some((w) => w.write.fields.worker !== undefined || w.write.fields.receiverUid !== undefined)) {
      throw new DomainError('forbidden', 'a worker may not assign jobs');
    }
    const assignees = await this.refs.resolve(ctx, writes);
    const notify = input.notify ?? true;

    return this.committed(async (manager, published) => {
      const now = Date.now();
      const today = dayInZone(now, ctx.timezone);
      const current = await this.lockJobs(
        manager,
        ctx,
        entries.map(([id]) => id),
      );
      const events: OutboxEventInput[] = [];
      const changes: Array<{ before: Job; after: Job }> = [];
      for (let i = 0; i < entries.length; i++) {
        const before = current[i];
        const { write, path } = writes[i];
        const denial = workerJobEditDenial({ id: ctx.memberId, role: ctx.role }, ctx.settings, before, write.keys, today);
        if (denial) throw new DomainError('forbidden', `${path}: ${denial}`);
        const after = applyJobWrite(before, write, assignees[i], now, path);
        const changed = changedProperties(before, after);
        if (!changed.length) continue;
        await this.update(manager, after, changed, path);
        changes.push({ before, after });
      }
      const views = await this.views(
        manager,
        ctx.companyId,
        current.map((j) => j.id),
      );
      for (const { before, after } of changes) {
        if (!after.isTemplate) for (const action of editEvents(before, after)) events.push(this.event(ctx, action, views.get(after.id)!));
        if (notify && progressChanged(before, after)) await this.notifyDispatcher(manager, ctx, after, 'job_progress');
        if (input.sendRouteChange) await this.routeChanged(manager, ctx, before, after, today);
      }
      published.push(...(await this.outbox.appendMany(manager, events)));
      return current.map((j) => views.get(j.id)!);
    });
  }

  /**
   * deletejobs / archivejobs / restorejobs (`data.jobs` keyed by id). Archiving an archived job or
   * restoring a live one succeeds with no event. Delete's event carries the snapshot before the
   * delete with `version` + 1.
   * @throws DomainError not_found naming the first unknown id; nothing is written then.
   */
  async changeLifecycle(ctx: AuthContext, op: 'delete' | 'archive' | 'restore', wireIds: string[], notify = false): Promise<JobView[]> {
    if (wireIds.length > MAX_JOBS_PER_CALL) throw invalid('data.jobs', `at most ${MAX_JOBS_PER_CALL} jobs per call`);
    return this.committed(async (manager, published) => {
      const jobs = await this.lockJobs(manager, ctx, wireIds);
      const ids = jobs.map((j) => j.id);
      const events: OutboxEventInput[] = [];
      let affected: Job[];
      if (op === 'delete') {
        const before = await this.views(manager, ctx.companyId, ids);
        await manager.query(`DELETE FROM jobs WHERE company_id = $1 AND id = ANY($2::text[])`, [ctx.companyId, ids]);
        for (const job of jobs) {
          if (job.isTemplate) continue;
          const view = before.get(job.id)!;
          events.push(this.event(ctx, 'jobdeleted', { ...view, version: (view.version as number) + 1 }));
        }
        affected = jobs;
      } else {
        const archive = op === 'archive';
        affected = jobs.filter((j) => j.archived !== archive);
        for (const job of affected) await this.sql.update(manager, { ...job, archived: archive }, ['archived']);
        const views = await this.views(
          manager,
          ctx.companyId,
          affected.map((j) => j.id),
        );
        for (const job of affected)
          if (!job.isTemplate) events.push(this.event(ctx, archive ? 'jobarchived' : 'jobupdated', views.get(job.id)!));
      }
      published.push(...(await this.outbox.appendMany(manager, events)));
      if (notify) for (const job of affected) await this.notifyDispatcher(manager, ctx, job, `job_${op}d`);
      return op === 'delete' ? [] : [...(await this.views(manager, ctx.companyId, ids)).values()];
    });
  }

  /**
   * Runs `fn` in a transaction; after it commits, wakes delivery of the events it appended
   * (`published`).
   */
  private async committed<T>(fn: (manager: EntityManager, published: string[]) => Promise<T>): Promise<T> {
    const published: string[] = [];
    const result = await this.dataSource.transaction((manager) => fn(manager, published));
    this.outbox.wake(published);
    return result;
  }

  /** Writes a job's changed fields; a uidSecondary another job holds answers -4 naming it. */
  private async update(manager: EntityManager, job: Job, changed: Array<keyof Job>, path: string): Promise<void> {
    try {
      await this.sql.update(manager, job, changed);
    } catch (err) {
      if (isUniqueViolation(err, 'UQ_jobs_company_uid_secondary')) {
        throw exists(`${path}.uidSecondary: another job of the company has uidSecondary ${job.uidSecondary}`, `${path}.uidSecondary`);
      }
      throw err;
    }
  }

  /** Locks the jobs of the company named by wire ids (`tpl-` for templates), in the order given. */
  private async lockJobs(manager: EntityManager, ctx: AuthContext, wireIds: string[]): Promise<Job[]> {
    const bad = wireIds.find((w) => !isIdShaped(parseWireId(w).id));
    if (bad !== undefined) throw invalid(`data.jobs.${bad}`, 'job ids are non-empty strings of at most 64 characters');
    const parsed = wireIds.map(parseWireId);
    const rows = await manager
      .getRepository(Job)
      .createQueryBuilder('j')
      .setLock('pessimistic_write')
      .where('j.company_id = :companyId AND j.id IN (:...ids)', { companyId: ctx.companyId, ids: parsed.map((p) => p.id).concat('') })
      .orderBy('j.id') // a fixed lock order: concurrent multi-job calls can't deadlock
      .getMany();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return parsed.map((p, i) => {
      const job = byId.get(p.id);
      if (!job || job.isTemplate !== p.template) throw notFound(`data.jobs.${wireIds[i]}: job ${wireIds[i]}`);
      return job;
    });
  }

  private async lockByUidSecondary(manager: EntityManager, companyId: string, uids: string[]): Promise<Job[]> {
    return manager
      .getRepository(Job)
      .createQueryBuilder('j')
      .setLock('pessimistic_write')
      .where('j.company_id = :companyId AND j.is_template = false AND j.uid_secondary IN (:...uids)', { companyId, uids })
      .orderBy('j.id')
      .getMany();
  }

  /** Full views of jobs by id, read inside the writing transaction (the events' payload). */
  async views(manager: EntityManager, companyId: string, ids: string[]): Promise<Map<string, JobView>> {
    if (!ids.length) return new Map();
    const rows: JobRow[] = await manager.query(`${JOB_SELECT_SQL} WHERE j.company_id = $1 AND j.id = ANY($2::text[])`, [companyId, ids]);
    return new Map(rows.map((r) => [r.id, toJobView(r)]));
  }

  private event(ctx: AuthContext, action: JobAction, view: JobView): OutboxEventInput<JobAction> {
    return outboxEvent(JOB_EVENT_KEYS, action, { companyId: ctx.companyId, formId: view.id, data: [view] });
  }

  /** sendRouteChange: the assignee of a job (newly) assigned for today is notified. */
  private async routeChanged(manager: EntityManager, ctx: AuthContext, before: Job | null, after: Job, today: number): Promise<void> {
    if (!after.workerId || after.day !== today) return;
    if (before && before.workerId === after.workerId && before.day === after.day) return;
    await this.notifications.add(manager, { companyId: ctx.companyId, memberId: after.workerId, kind: 'route_changed', jobId: after.id });
  }

  /** `notify`: the job's dispatcher, or the whole company when it has none. */
  private async notifyDispatcher(manager: EntityManager, ctx: AuthContext, job: Job, kind: DispatcherNotificationKind): Promise<void> {
    await this.notifications.add(manager, {
      companyId: ctx.companyId,
      memberId: job.dispatcherUid || null,
      kind,
      jobId: job.isTemplate ? `tpl-${job.id}` : job.id,
    });
  }
}
