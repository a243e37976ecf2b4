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
  wrappedJsonUtf8,
} from '@app/core';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Job } from './entities/job.entity';
import { editEvents, JOB_EVENT_KEYS, JobAction, progressChanged } from './job-events';
import { DispatcherNotificationKind } from './job-notifications';
import { JobEdit, JobWrite } from './job-input';
import { workerJobEditDenial } from './job-policy';
import { JobRefs } from './job-refs.service';
import { JobRow, jobRowOf, JobView, toJobView } from './job-view';
import { applyJobWrite, changedProperties, newJobState } from './job-write';
import { JobsRepository } from './jobs.repository';
import { mergeTargets, uidSecondaryIndex } from './merge-plan';
import { inOrder, numberRoutes, RouteEntry, WorkerDay } from './route-numbers';

/** How a job reached us: `createdVia`. */
export type JobSurface = 'api' | 'connector';

/** The most jobs one createjobs call takes (CONTRACTS.md). */
export const MAX_JOBS_PER_CALL = 1000;

/** createjobs, with its jobs already validated (typed writes: {@link parseJobWrites}). */
export interface CreateJobsInput {
  jobs: JobWrite[];
  sendRouteChange?: boolean;
  isTemplate?: boolean;
  autoassign?: boolean;
  /**
   * Input indexes in the order route numbers are handed out (dispatch's route order); the inputs not
   * listed follow in input order. Default: input order.
   */
  numberOrder?: readonly number[];
}

/** editjobs, with its jobs already validated ({@link parseJobEdits}), in the order sent. */
export interface EditJobsInput {
  jobs: JobEdit[];
  /** default true: notify the dispatcher when progress changes */
  notify?: boolean;
  sendRouteChange?: boolean;
}

/**
 * A caller's open transaction for a job write (dispatch's worker runs: the jobs are written in the
 * run's own writing transaction). The write appends its events' ids to `published`; the caller wakes
 * their delivery after its commit ({@link OutboxService.wake}).
 */
export interface JobsTransaction {
  db: EntityManager;
  published: string[];
}

/** A job id as sent: `tpl-<id>` addresses a template. */
function parseWireId(wire: string): { id: string; template: boolean } {
  return wire.startsWith('tpl-') ? { id: wire.slice(4), template: true } : { id: wire, template: false };
}

/** A job's view with its JSON as UTF-8: `wrapped` is `[view]` (an event's payload), `inner` the view inside it (no copy). */
interface RenderedView {
  view: JobView;
  utf8: { wrapped: Buffer; inner: Buffer };
}

/** The row's view, serialised and encoded once. */
function renderView(row: JobRow): RenderedView {
  const view = toJobView(row);
  return { view, utf8: wrappedJsonUtf8(JSON.stringify(view)) };
}

/**
 * Settles after the pending microtasks, and so after a query issued just before has been written to
 * its connection (TypeORM and pg reach the socket through a few promise steps): work done after
 * `await onTheWire()` runs while PostgreSQL runs that query.
 */
function onTheWire(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Job writes: createjobs (with uidSecondary upsert), editjobs, deletejobs, archivejobs,
 * restorejobs — each in one transaction that also appends its events to the outbox and writes its
 * notifications, so a change, its events and its notifications commit together or not at all.
 * Takes typed writes (validated once, at the edge); SQL is the repository's.
 */
@Injectable()
export class JobsService {
  constructor(
    private readonly repo: JobsRepository,
    private readonly outbox: OutboxService,
    private readonly notifications: NotificationsService,
    private readonly refs: JobRefs,
  ) {}

  /**
   * createjobs. A job whose `uidSecondary` matches a non-template job of the company updates it
   * (only the fields sent, like editjobs; also when archived, which it stays) — also when calls race.
   * @returns one job per input, in input order, with each one's JSON as UTF-8 bytes
   *   (`JSON.stringify(job)` byte for byte, inside the bytes its events carry as their payload
   *   `[job]`: one encoding serves both), and whether each was created (false = deduped).
   * @throws DomainError invalid naming `<write.path>.<field>` (a reference, a window, a
   *   uidSecondary held twice in the call, `autoassign`); exists for a uidSecondary another job
   *   took meanwhile.
   * @param tx the caller's transaction (dispatch's createjobs with autoassign); default: one of its own.
   *   `autoassign` itself is dispatch's (`@app/dispatch` assigns the writes, then calls this with its
   *   transaction): here it is refused.
   */
  async createJobs(
    ctx: AuthContext,
    input: CreateJobsInput,
    via: JobSurface,
    tx?: JobsTransaction,
  ): Promise<{ jobs: JobView[]; jobsUtf8: Buffer[]; created: boolean[] }> {
    if (input.autoassign) throw invalid('data.autoassign', 'autoassign is computed by dispatch (createjobs routes it there)');
    if (input.jobs.length > MAX_JOBS_PER_CALL) throw invalid('data.jobs', `at most ${MAX_JOBS_PER_CALL} jobs per call`);
    const isTemplate = input.isTemplate ?? false;
    const writes = input.jobs;
    const byUid = uidSecondaryIndex(writes, isTemplate);
    const assignees = await this.refs.resolve(ctx, writes);

    return this.committed(tx, async (db, published) => {
      const now = Date.now();
      const ids: string[] = new Array(writes.length);
      const created: boolean[] = new Array(writes.length).fill(false);
      const merges = byUid.size
        ? mergeTargets(byUid, await this.repo.lockByUidSecondary(db, ctx.companyId, [...byUid.keys()]))
        : new Map<number, Job>();
      const fresh: Job[] = [];
      const freshIndex: number[] = [];
      // every input in input order: a new job, or a merge into the job its uidSecondary names
      const entries: RouteEntry[] = writes.map((write, i) => {
        const numberSent = write.fields.number !== undefined;
        const current = merges.get(i);
        if (current) return { before: current, after: applyJobWrite(current, write, assignees[i], now, write.path), numberSent };
        const state = newJobState({ id: newId(), companyId: ctx.companyId, isTemplate, createdBy: ctx.memberId, createdVia: via, now });
        fresh.push(applyJobWrite(state, write, assignees[i], now, write.path));
        freshIndex.push(i);
        return { before: null, after: fresh[fresh.length - 1], numberSent };
      });
      await numberRoutes(this.repo, db, ctx.companyId, inOrder(entries, input.numberOrder));
      // the new jobs' views (what we write plus what the view joins, read first: no read after the
      // insert), each serialised and encoded once: `[view]` is its events' payload, `view` inside it
      // its part of the answer. Built while PostgreSQL runs the insert (docs/jobs-writes.md, "Views
      // built while the insert runs"); a job the insert skips (a racing call took its uidSecondary)
      // drops its view.
      const joined = await this.repo.viewJoins(db, fresh);
      const inserting = this.repo.insertJobs(db, fresh);
      inserting.catch(() => undefined); // awaited below: a failure must not count as unhandled meanwhile
      await onTheWire();
      const views = new Map<string, RenderedView>();
      for (const job of fresh) views.set(job.id, renderView(jobRowOf(job, joined(job))));
      const inserted = await inserting;
      const lost: string[] = [];
      fresh.forEach((job, k) => {
        if (inserted.has(job.id)) {
          ids[freshIndex[k]] = job.id;
          created[freshIndex[k]] = true;
        } else {
          views.delete(job.id);
          lost.push(job.uidSecondary!); // a racing call inserted this uidSecondary first
        }
      });

      const changes: Array<{ before: Job; after: Job }> = [];
      const merge = async (planned: Array<[number, RouteEntry]>) => {
        for (const [i, { before, after }] of planned) {
          ids[i] = before!.id;
          const changed = changedProperties(before!, after);
          if (!changed.length) continue;
          await this.update(db, after, changed, writes[i].path);
          changes.push({ before: before!, after });
        }
      };
      await merge([...merges.keys()].map((i) => [i, entries[i]]));
      if (lost.length) {
        // merged after the insert: numbered again, against the worker-days as this call left them
        const late: Array<[number, RouteEntry]> = [];
        for (const [i, job] of mergeTargets(byUid, await this.repo.lockByUidSecondary(db, ctx.companyId, lost))) {
          merges.set(i, job);
          late.push([
            i,
            { before: job, after: applyJobWrite(job, writes[i], assignees[i], now, writes[i].path), numberSent: entries[i].numberSent },
          ]);
        }
        await numberRoutes(
          this.repo,
          db,
          ctx.companyId,
          late.map(([, e]) => e),
        );
        await merge(late);
      }
      const merged = await this.repo.rowsByIds(
        db,
        ctx.companyId,
        [...merges.values()].map((j) => j.id),
      );
      for (const row of merged) views.set(row.id, renderView(row));
      if (!isTemplate) {
        const events: OutboxEventInput[] = [];
        ids.forEach((id, i) => {
          const { view, utf8 } = views.get(id)!;
          if (created[i]) events.push(jobEvent(ctx.companyId, 'jobcreated', view, undefined, utf8.wrapped));
        });
        for (const { before, after } of changes) {
          const { view, utf8 } = views.get(after.id)!;
          for (const action of editEvents(before, after)) events.push(jobEvent(ctx.companyId, action, view, before, utf8.wrapped));
        }
        published.push(...(await this.outbox.appendMany(db, events)));
      }
      if (input.sendRouteChange) {
        const today = dayInZone(now, ctx.timezone);
        const inserted = fresh.filter((j, k) => created[freshIndex[k]]);
        const assigned = [...inserted.map((j) => ({ before: null as Job | null, after: j })), ...changes];
        for (const { before, after } of assigned) await this.routeChanged(db, ctx, before, after, today);
      }
      const answered = ids.map((id) => views.get(id)!);
      return { jobs: answered.map((v) => v.view), jobsUtf8: answered.map((v) => v.utf8.inner), created };
    });
  }

  /**
   * editjobs: every job of the call or none (an unknown id answers not_found naming it, and nothing
   * is written). A no-op edit writes nothing and fires no event.
   * @returns the jobs after the edit, in the order sent.
   * @throws DomainError not_found, invalid (naming `<write.path>.<field>`), forbidden (worker
   *   rules), exists (a uidSecondary another job holds, naming `<write.path>.uidSecondary`).
   * @param tx the caller's transaction (dispatch's autoassign); default: one of its own.
   */
  async editJobs(ctx: AuthContext, input: EditJobsInput, tx?: JobsTransaction): Promise<JobView[]> {
    const edits = input.jobs;
    if (edits.length > MAX_JOBS_PER_CALL) throw invalid('data.jobs', `at most ${MAX_JOBS_PER_CALL} jobs per call`);
    if (ctx.role === 'worker' && edits.some(({ write }) => write.fields.worker !== undefined || write.fields.receiverUid !== undefined)) {
      throw new DomainError('forbidden', 'a worker may not assign jobs');
    }
    const assignees = await this.refs.resolve(
      ctx,
      edits.map((e) => e.write),
    );
    const notify = input.notify ?? true;

    return this.committed(tx, async (db, published) => {
      const now = Date.now();
      const today = dayInZone(now, ctx.timezone);
      const current = await this.lockJobs(
        db,
        ctx,
        edits.map((e) => e.id),
      );
      const events: OutboxEventInput[] = [];
      const changes: Array<{ before: Job; after: Job }> = [];
      const entries: RouteEntry[] = edits.map(({ write }, i) => {
        const before = current[i];
        const denial = workerJobEditDenial({ id: ctx.memberId, role: ctx.role }, ctx.settings, before, write.keys, today);
        if (denial) throw new DomainError('forbidden', `${write.path}: ${denial}`);
        return {
          before,
          after: applyJobWrite(before, write, assignees[i], now, write.path),
          numberSent: write.fields.number !== undefined,
        };
      });
      await numberRoutes(this.repo, db, ctx.companyId, entries);
      for (let i = 0; i < edits.length; i++) {
        const { before, after } = entries[i];
        const changed = changedProperties(before!, after);
        if (!changed.length) continue;
        await this.update(db, after, changed, edits[i].write.path);
        changes.push({ before: before!, after });
      }
      const views = await this.views(
        db,
        ctx.companyId,
        current.map((j) => j.id),
      );
      for (const { before, after } of changes) {
        if (!after.isTemplate)
          for (const action of editEvents(before, after)) events.push(this.event(ctx, action, views.get(after.id)!, before));
        if (notify && progressChanged(before, after)) await this.notifyDispatcher(db, ctx, after, 'job_progress');
        if (input.sendRouteChange) await this.routeChanged(db, ctx, before, after, today);
      }
      published.push(...(await this.outbox.appendMany(db, events)));
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
    return this.committed(undefined, async (db, published) => {
      const jobs = await this.lockJobs(db, ctx, wireIds);
      const ids = jobs.map((j) => j.id);
      const events: OutboxEventInput[] = [];
      let affected: Job[];
      if (op === 'delete') {
        const before = await this.views(db, ctx.companyId, ids);
        await this.repo.deleteByIds(db, ctx.companyId, ids);
        for (const job of jobs) {
          if (job.isTemplate) continue;
          const view = before.get(job.id)!;
          events.push(this.event(ctx, 'jobdeleted', { ...view, version: view.version + 1 }));
        }
        affected = jobs;
      } else {
        const archive = op === 'archive';
        affected = jobs.filter((j) => j.archived !== archive);
        for (const job of affected) await this.repo.updateChanged(db, { ...job, archived: archive }, ['archived']);
        const views = await this.views(
          db,
          ctx.companyId,
          affected.map((j) => j.id),
        );
        for (const job of affected)
          if (!job.isTemplate) events.push(this.event(ctx, archive ? 'jobarchived' : 'jobupdated', views.get(job.id)!));
      }
      published.push(...(await this.outbox.appendMany(db, events)));
      if (notify) for (const job of affected) await this.notifyDispatcher(db, ctx, job, `job_${op}d`);
      return op === 'delete' ? [] : [...(await this.views(db, ctx.companyId, ids)).values()];
    });
  }

  /**
   * An automatic check of a job by geofencing (CONTRACTS.md, "Job check-ins"), in the caller's
   * transaction `db`, as a system actor (no permission check), scoped to `companyId`: `tsCheckIn` =
   * `inTs` when it is 0; `tsCheckOut` = `outTs` when that is later than the stored one (the latest
   * exit). The events follow the edit rules (`jobcheckin`/`jobcheckout` when a value goes 0 → set,
   * else `jobupdated`); a check that changes nothing (or an unknown id, a template) writes nothing.
   * @param inTs ms, the entry time; @param outTs ms, the exit time
   * @returns the ids of the outbox events appended: the caller wakes delivery of them after its commit
   *   ({@link OutboxService.wake}).
   */
  async recordAutoCheck(db: EntityManager, companyId: string, jobId: string, check: { inTs?: number; outTs?: number }): Promise<string[]> {
    const [before] = await this.repo.lockByIds(db, companyId, [jobId]);
    if (!before || before.isTemplate) return [];
    const after: Job = { ...before };
    if (check.inTs !== undefined && check.inTs > 0 && before.tsCheckIn === 0) after.tsCheckIn = check.inTs;
    if (check.outTs !== undefined && check.outTs > before.tsCheckOut) after.tsCheckOut = check.outTs;
    const changed = changedProperties(before, after);
    if (!changed.length) return [];
    await this.repo.updateChanged(db, after, changed);
    const views = await this.views(db, companyId, [jobId]);
    const actions = editEvents(before, after);
    const ids = await this.outbox.appendMany(
      db,
      actions.map((action) => jobEvent(companyId, action, views.get(jobId)!, before)),
    );
    await this.notifications.add(db, { companyId, memberId: after.dispatcherUid || null, kind: 'job_progress', jobId });
    return ids;
  }

  /**
   * Sets the route order (`number`) of jobs of the company, in the caller's transaction `db`, as a
   * system actor (dispatch's optimizeroute, which checked permissions before): each job whose
   * `number` changes gets one `jobupdated` event; a job already at its number is not written and
   * fires nothing. Ids of other companies, unknown ids and templates are skipped. One UPDATE for all
   * (the caller holds the jobs' row locks, or the UPDATE takes them).
   * @param numbers job id → its new `number` (1..n)
   * @returns the views of the given jobs after the change (by id), the ids whose number changed, and
   *   the ids of the outbox events appended: the caller wakes delivery of them after its commit
   *   ({@link OutboxService.wake}).
   */
  async setRouteNumbers(
    db: EntityManager,
    companyId: string,
    numbers: ReadonlyMap<string, number>,
  ): Promise<{ views: Map<string, JobView>; changed: string[]; eventIds: string[] }> {
    const ids = [...numbers.keys()];
    const written = new Set(await this.repo.setNumbers(db, companyId, ids, [...numbers.values()]));
    const changed = ids.filter((id) => written.has(id));
    const views = await this.views(db, companyId, ids);
    const eventIds = await this.outbox.appendMany(
      db,
      changed.map((id) => jobEvent(companyId, 'jobupdated', views.get(id)!)),
    );
    return { views, changed, eventIds };
  }

  /**
   * Locks the company's worker-days (YYYYMMDD days) until the caller's transaction `db` ends, as a
   * system actor: route numbers handed out by job writes wait for it, so a caller that renumbers a
   * day (dispatch's optimizeroute) sees every job landed on it before, and none lands meanwhile.
   * Take the jobs' row locks first (as the job writes do), then this.
   */
  lockRouteDays(db: EntityManager, companyId: string, days: readonly WorkerDay[]): Promise<void> {
    return this.repo.lockRouteDays(db, companyId, days);
  }

  /**
   * Runs `fn` in a transaction; after it commits, wakes delivery of the events it appended
   * (`published`). Inside a caller's transaction `tx`, runs `fn` there and leaves the wake-up to the
   * caller (it knows when its transaction commits).
   */
  private async committed<T>(tx: JobsTransaction | undefined, fn: (db: EntityManager, published: string[]) => Promise<T>): Promise<T> {
    if (tx) return fn(tx.db, tx.published);
    const published: string[] = [];
    const result = await this.repo.transaction((db) => fn(db, published));
    this.outbox.wake(published);
    return result;
  }

  /** Writes a job's changed fields; a uidSecondary another job holds answers -4 naming it. */
  private async update(db: EntityManager, job: Job, changed: Array<keyof Job>, path: string): Promise<void> {
    try {
      await this.repo.updateChanged(db, job, changed);
    } catch (err) {
      if (isUniqueViolation(err, 'UQ_jobs_company_uid_secondary')) {
        const rule = `another job of the company has uidSecondary ${job.uidSecondary}`;
        throw exists(`${path}.uidSecondary: ${rule}`, `${path}.uidSecondary`, rule);
      }
      throw err;
    }
  }

  /** Locks the jobs of the company named by wire ids (`tpl-` for templates), in the order given. */
  private async lockJobs(db: EntityManager, ctx: AuthContext, wireIds: string[]): Promise<Job[]> {
    const bad = wireIds.find((w) => !isIdShaped(parseWireId(w).id));
    if (bad !== undefined) throw invalid(`data.jobs.${bad}`, 'job ids are non-empty strings of at most 64 characters');
    const parsed = wireIds.map(parseWireId);
    const rows = await this.repo.lockByIds(
      db,
      ctx.companyId,
      parsed.map((p) => p.id),
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    return parsed.map((p, i) => {
      const job = byId.get(p.id);
      if (!job || job.isTemplate !== p.template) throw notFound(`data.jobs.${wireIds[i]}: job ${wireIds[i]}`);
      return job;
    });
  }

  /** Full views of jobs by id, read inside the writing transaction (the events' payload). */
  private async views(db: EntityManager, companyId: string, ids: string[]): Promise<Map<string, JobView>> {
    const rows = await this.repo.rowsByIds(db, companyId, ids);
    return new Map(rows.map((r) => [r.id, toJobView(r)]));
  }

  private event(ctx: AuthContext, action: JobAction, view: JobView, before?: Job): OutboxEventInput<JobAction> {
    return jobEvent(ctx.companyId, action, view, before);
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

/**
 * A job event: the job's view as its payload, seen on the live stream by staff and by the job's
 * assignee before and after the change (a job reassigned away still reaches its old worker).
 * @param before the job before the change, when it changed
 * @param payloadUtf8 `JSON.stringify([view])` as UTF-8 bytes when the caller has them (the payload is then written from them)
 */
function jobEvent(companyId: string, action: JobAction, view: JobView, before?: Job, payloadUtf8?: Buffer): OutboxEventInput<JobAction> {
  return outboxEvent(JOB_EVENT_KEYS, action, {
    companyId,
    formId: view.id,
    data: [view],
    dataUtf8: payloadUtf8,
    audience: { members: [before?.workerId, view.receiverUid] },
  });
}
