import { groupBy, namedQuery, query, Queryable, shapeQuery, SQL_NOW_MS } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SORT_FIELDS } from './dto/get-jobs.dto';
import { Job } from './entities/job.entity';
import { JobRow, JobRowJoined, jobRowOf } from './job-view';
import { BATCH_JOB_REFS_SQL, BatchJobRefs, JOB_SELECT_SQL, memberIdByUsernameSql } from './places-job-view.read';
import { Progress, PROGRESS_SQL, progressIndex } from './progress';
import { WorkerDay, workerDayKey } from './route-numbers';

/**
 * Columns no write sets from a job's state: the database clock's (every write) and the commit stamps
 * (null on insert; the `jobs_unstamp` trigger nulls `saved_stamp` on every update; the stamper sets
 * them after commit — job-stamps.repository.ts).
 */
const CLOCK_COLUMNS = new Set(['ts_saved', 'created_at', 'created_stamp', 'saved_stamp']);

const SQL_TYPES: Record<string, string> = {
  varchar: 'text',
  text: 'text',
  integer: 'integer',
  smallint: 'smallint',
  bigint: 'bigint',
  'double precision': 'float8',
  boolean: 'boolean',
  jsonb: 'jsonb',
};

interface ColumnMap {
  property: keyof Job;
  column: string;
  type: string;
}

/** Whether every job holds the same value of `property` (json-equal for objects). */
function sameInAll(jobs: readonly Job[], property: keyof Job): boolean {
  const first = jobs[0][property];
  if (first === null || typeof first !== 'object') return jobs.every((j) => j[property] === first);
  const text = JSON.stringify(first);
  return jobs.every((j, i) => i === 0 || JSON.stringify(j[property]) === text);
}

/** The jobs by company, in first-seen order (one statement per company: createjobs' batches are one company's; tests mix them). */
const byCompanyOf = (jobs: readonly Job[]): Map<string, Job[]> => groupBy(jobs, (j) => j.companyId);

/** The job's `columns` properties as a record keyed by property name (undefined as null, as json_to_record reads a missing key). */
function pick(job: Job, columns: readonly ColumnMap[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of columns) out[c.property] = job[c.property] ?? null;
  return out;
}

/**
 * Each job's joined fields, from {@link BatchJobRefs} (one read for the batch) and the
 * transaction's clock `now` it holds (ms: `ts_saved` and `created_at` of every row), as {@link JOB_SELECT_SQL}'s
 * joins give them: null where the job names no member or place (or one not found), `linkedZones` ''
 * unless the refs list the job.
 */
function joinedOfBatch(refs: BatchJobRefs): (job: Job) => JobRowJoined {
  const now = refs.now;
  const members = new Map((refs.members ?? []).map((m) => [m[0], m]));
  const places = new Map((refs.places ?? []).map((p) => [p[0], p]));
  const zones = new Map(refs.zones ?? []);
  const [defaultRadius, timezone, extraLabels] = refs.company;
  return (job) => {
    const w = job.workerId === null ? undefined : members.get(job.workerId);
    const d = members.get(job.dispatcherUid);
    const p = places.get(job.placeUid);
    return {
      tsSaved: now,
      createdAt: now,
      workerUsername: w ? w[1] : null,
      workerName: w ? w[2] : null,
      workerEmail: w ? w[3] : null,
      workerPhone: w ? w[4] : null,
      dispatcherName: d ? d[2] : null,
      placeName: p ? p[1] : null,
      placeRadius: p ? p[2] : null,
      defaultRadius,
      timezone,
      linkedZones: zones.get(job.id) ?? '',
      extraLabels,
    };
  };
}

/** Builds `WHERE` clauses with numbered parameters (over {@link JOB_SELECT_SQL}'s aliases, `j` the job). */
class Where {
  readonly clauses: string[] = [];
  readonly params: unknown[] = [];
  add(sql: (p: (value: unknown) => string) => string): void {
    this.clauses.push(sql((value) => `$${this.params.push(value)}`));
  }
  get where(): string {
    return this.clauses.join(' AND ');
  }
}

/**
 * getjobs' search, as the query service resolved the request (defaults and the caller's role
 * applied): each field set narrows the jobs (`AND`).
 */
export interface JobSearch {
  companyId: string;
  /** templates only (true) or no templates (false) */
  templates: boolean;
  /** the jobs with these ids (raw ids: `tpl-` stripped) */
  ids?: string[];
  /** the jobs of these order ids */
  orderIds?: number[];
  /** YYYYMMDD (0: undated jobs) */
  day?: number;
  /** a worker's own jobs only (a worker caller) */
  ownWorkerId?: string;
  /** `''` unassigned, `'+'` any assigned, `'*'` all, else the assignee's username (case-insensitive) */
  worker: string;
  team?: number;
  /** only jobs done with success (`tsDoneSuccess > 0`) */
  doneSuccess?: boolean;
  /** only jobs neither done with success nor failed */
  active?: boolean;
  /** archived jobs too (else hidden) */
  includeArchived: boolean;
  /** `sort`: field (a {@link SORT_FIELDS} key), direction, its bounds [from, until) and a progress index */
  sort?: { field: string; ascending: boolean; from?: number; until?: number; status?: number };
  limit: number;
  skip: number;
}

/** The connector's listing (`GET /v1/jobs`), as the query service resolved it. */
export interface ConnectorJobSearch {
  companyId: string;
  /** a worker's own jobs only (a worker caller) */
  ownWorkerId?: string;
  includeArchived: boolean;
  /** `uidSecondary` */
  externalId?: string;
  /** the assignee's username (case-insensitive) */
  assigneeUsername?: string;
  progress?: Progress[];
  /** ms, inclusive, on the commit stamps `created_stamp` / `saved_stamp` */
  createdSince?: number;
  updatedSince?: number;
  limit: number;
  skip: number;
}

/**
 * Every SQL statement on the `jobs` table, one method per purpose, over the caller's transaction
 * (`db`, an EntityManager) or the pool. Statements are built from the entity's metadata: an insert is
 * one statement over `json_to_recordset` and `json_to_record` (three bind parameters whatever the batch
 * size, so PostgreSQL's 65,535-parameter limit never applies);
 * `created_at` and `ts_saved` come from the database clock. Reads answer {@link JobRow}s (the job
 * view's read model, joining assignee, dispatcher, place and company) or {@link Job} states.
 */
@Injectable()
export class JobsRepository {
  private readonly columns: ColumnMap[];
  private readonly byProperty: Map<keyof Job, ColumnMap>;
  /** The job's own columns as the entity's properties (bigint as numbers). */
  private readonly stateColumns: string;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    const metadata = dataSource.getMetadata(Job);
    const all = metadata.columns.map((c) => ({
      property: c.propertyName as keyof Job,
      column: c.databaseName,
      type: SQL_TYPES[String(c.type)] ?? 'text',
    }));
    this.columns = all.filter((c) => !CLOCK_COLUMNS.has(c.column));
    this.byProperty = new Map(this.columns.map((c) => [c.property, c]));
    this.stateColumns = all.map((c) => `j.${c.column}${c.type === 'bigint' ? '::float8' : ''} AS "${String(c.property)}"`).join(', ');
  }

  /** Runs `fn` in one transaction (committed when it resolves, rolled back when it throws). */
  transaction<T>(fn: (db: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(fn);
  }

  /**
   * Inserts the jobs and answers their view rows: {@link viewJoins}, then {@link insertJobs} (two
   * statements, one after the other, in `db`'s transaction or, outside one, in a transaction of their
   * own). createjobs runs the two itself, building its views while the insert runs.
   * @returns the rows inserted, as the view's read model (built from the jobs and what the view joins
   *   for them, not read again), by id; a job skipped by `ON CONFLICT` is not there.
   */
  async insertMany(db: Queryable, jobs: Job[]): Promise<Map<string, JobRow>> {
    const run = async (tx: Queryable) => {
      const joined = await this.viewJoins(tx, jobs);
      const inserted = await this.insertJobs(tx, jobs);
      return new Map(jobs.filter((j) => inserted.has(j.id)).map((j) => [j.id, jobRowOf(j, joined(j))]));
    };
    // one transaction, so that both statements see one clock (`now()`)
    const open = (db as Partial<EntityManager>).queryRunner?.isTransactionActive === true;
    return open ? run(db) : this.dataSource.transaction(run);
  }

  /**
   * What the views of `jobs`, about to be inserted in this transaction, read from other tables (their
   * assignee, dispatcher, place, linked zones and company: {@link BATCH_JOB_REFS_SQL}, over the jobs as
   * sent, one statement per company) and their `ts_saved` / `created_at`: the transaction's clock,
   * which is the insert's too (`now()` holds for the whole transaction).
   * @returns for a job of `jobs`, its joined fields exactly as {@link JOB_SELECT_SQL} would read them
   *   after the insert (given nothing it names changes meanwhile).
   */
  async viewJoins(db: Queryable, jobs: readonly Job[]): Promise<(job: Job) => JobRowJoined> {
    const byCompany = new Map<string, (job: Job) => JobRowJoined>();
    for (const [companyId, batch] of byCompanyOf(jobs)) {
      const members = new Set<string>();
      const places = new Set<string>();
      for (const j of batch) {
        if (j.workerId) members.add(j.workerId);
        if (j.dispatcherUid) members.add(j.dispatcherUid);
        if (j.placeUid) places.add(j.placeUid);
      }
      const points = JSON.stringify(batch.map((j) => [j.id, j.placeUid, j.destinationLat, j.destinationLng]));
      // one text: a named statement, planned once per connection rather than on every call
      const [refs] = await namedQuery<BatchJobRefs>(db, 'fieldwork_jobs_batch_refs', BATCH_JOB_REFS_SQL, [
        companyId,
        [...members],
        [...places],
        points,
      ]);
      byCompany.set(companyId, joinedOfBatch(refs));
    }
    return (job) => byCompany.get(job.companyId)!(job);
  }

  /**
   * Inserts the jobs (one statement per company); a non-template job whose uidSecondary another job
   * holds already is skipped (`ON CONFLICT … DO NOTHING`: a racing call won).
   *
   * The batch travels as two json parameters: `$1` holds, per job, only the properties whose value
   * differs between the jobs (id, destination, contact, …; `json_to_recordset`), `$2` once the
   * properties every job of the batch shares (company, creator, zeros, …; `json_to_record`). A
   * createjobs of 1,000 sends about half the text, and PostgreSQL parses about half the json
   * (bench/RESULTS.md "createjobs", 2026-11-28 afternoon: the statement 111 → 89 ms).
   * `created_at` and `ts_saved` are the transaction's clock.
   * @returns the ids inserted.
   */
  async insertJobs(db: Queryable, jobs: readonly Job[]): Promise<Set<string>> {
    const inserted = new Set<string>();
    for (const batch of byCompanyOf(jobs).values()) {
      const perRow: ColumnMap[] = [];
      const shared: ColumnMap[] = [];
      for (const c of this.columns) (c.property !== 'id' && sameInAll(batch, c.property) ? shared : perRow).push(c);
      const [row] = await query<{ ids: string[] | null }>(db, this.insertSql(perRow, shared), [
        JSON.stringify(batch.map((j) => pick(j, perRow))),
        JSON.stringify(pick(batch[0], shared)),
      ]);
      for (const id of row.ids ?? []) inserted.add(id);
    }
    return inserted;
  }

  /**
   * The insert of {@link insertJobs}: `perRow` columns from `$1` (records keyed by property name),
   * `shared` from `$2` (one record), `created_at` and `ts_saved` from the database clock (`now()`, the
   * transaction's); it answers one row, the ids inserted.
   */
  private insertSql(perRow: ColumnMap[], shared: ColumnMap[]): string {
    const sharedSet = new Set(shared);
    const defs = (cs: ColumnMap[]) => cs.map((c) => `"${String(c.property)}" ${c.type}`).join(', ');
    return `WITH inserted AS (
      INSERT INTO jobs (${this.columns.map((c) => c.column).join(', ')}, ts_saved, created_at)
      SELECT ${this.columns.map((c) => `${sharedSet.has(c) ? 'k' : 'x'}."${String(c.property)}"`).join(', ')}, ${SQL_NOW_MS}, ${SQL_NOW_MS}
        FROM json_to_recordset($1::json) AS x(${defs(perRow)})${shared.length ? ` CROSS JOIN json_to_record($2::json) AS k(${defs(shared)})` : ''}
      ON CONFLICT (company_id, uid_secondary) WHERE is_template = false AND uid_secondary IS NOT NULL DO NOTHING
      RETURNING id)
    SELECT json_agg(id) AS ids FROM inserted`;
  }

  /** Writes the `changed` properties of one job, stamping ts_saved and bumping version. */
  async updateChanged(db: Queryable, job: Job, changed: Array<keyof Job>): Promise<void> {
    const sets: string[] = [];
    const params: unknown[] = [job.id, job.companyId];
    for (const property of changed) {
      const c = this.byProperty.get(property);
      if (!c || c.property === 'version') continue;
      const value = job[property];
      params.push(c.type === 'jsonb' ? JSON.stringify(value) : value);
      sets.push(`${c.column} = $${params.length}${c.type === 'jsonb' ? '::jsonb' : ''}`);
    }
    await query(
      db,
      `UPDATE jobs SET ${sets.join(', ')}${sets.length ? ', ' : ''}ts_saved = ${SQL_NOW_MS}, version = version + 1 WHERE id = $1 AND company_id = $2`,
      params,
    );
  }

  /**
   * Sets `number` of the company's non-template jobs in ONE statement (dispatch's route order),
   * stamping ts_saved and bumping version only where the number changes.
   * @returns the ids whose number changed.
   */
  async setNumbers(db: Queryable, companyId: string, ids: string[], numbers: number[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await query<{ id: string }>(
      db,
      `UPDATE jobs j SET number = x.number, ts_saved = ${SQL_NOW_MS}, version = j.version + 1
         FROM unnest($2::text[], $3::int[]) AS x(id, number)
        WHERE j.company_id = $1 AND j.id = x.id AND j.is_template = false AND j.number <> x.number
        RETURNING j.id`,
      [companyId, ids, numbers],
    );
    return rows.map((r) => r.id);
  }

  /**
   * Locks the company's worker-days (`pg_advisory_xact_lock`, held until the transaction ends) so
   * that route numbers taken under it ({@link routeNumberTops}) are never handed out twice: one
   * 64-bit key per company, worker and day (a hash; a collision only makes two worker-days wait for
   * each other), taken in key order so concurrent calls cannot deadlock on them. Callers take their
   * job row locks first. `db` must be a transaction.
   */
  async lockRouteDays(db: Queryable, companyId: string, days: readonly WorkerDay[]): Promise<void> {
    if (!days.length) return;
    await query(
      db,
      `SELECT pg_advisory_xact_lock(s.k) FROM (
         SELECT DISTINCT hashtextextended('jobs.route:' || $1 || ':' || x.worker_id || ':' || x.day, 0) AS k
           FROM unnest($2::text[], $3::int[]) AS x(worker_id, day) ORDER BY 1) s`,
      [companyId, days.map((d) => d.workerId), days.map((d) => d.day)],
    );
  }

  /**
   * The highest `number` among the company's live jobs (not templates, not archived) on each of
   * these worker-days, leaving out the jobs `exclude` (the ones being written). One backward probe per
   * worker-day (both day indexes end with `number`), not a read of all its jobs.
   * @returns {@link workerDayKey} → that number; a worker-day without such a job is missing.
   */
  async routeNumberTops(
    db: Queryable,
    companyId: string,
    days: readonly WorkerDay[],
    exclude: readonly string[],
  ): Promise<Map<string, number>> {
    if (!days.length) return new Map();
    const rows = await query<{ workerId: string; day: number; top: number }>(
      db,
      `SELECT x.worker_id AS "workerId", x.day, t.top
         FROM unnest($2::text[], $3::int[]) AS x(worker_id, day)
        CROSS JOIN LATERAL (
              SELECT j.number AS top FROM jobs j
               WHERE j.company_id = $1 AND j.worker_id = x.worker_id AND j.day = x.day
                 AND j.is_template = false AND j.archived = false AND NOT (j.id = ANY($4::text[]))
               ORDER BY j.number DESC LIMIT 1) t`,
      [companyId, days.map((d) => d.workerId), days.map((d) => d.day), [...exclude]],
    );
    return new Map(rows.map((r) => [workerDayKey(r.workerId, r.day), r.top]));
  }

  /** Locks the company's jobs with these ids (templates too), in id order so concurrent calls cannot deadlock. */
  lockByIds(db: Queryable, companyId: string, ids: string[]): Promise<Job[]> {
    return query<Job>(
      db,
      `SELECT ${this.stateColumns} FROM jobs j WHERE j.company_id = $1 AND j.id = ANY($2::text[]) ORDER BY j.id FOR UPDATE`,
      [companyId, ids],
    );
  }

  /** Locks the company's non-template jobs holding these uidSecondary values, in id order. */
  lockByUidSecondary(db: Queryable, companyId: string, uids: string[]): Promise<Job[]> {
    return query<Job>(
      db,
      `SELECT ${this.stateColumns} FROM jobs j
        WHERE j.company_id = $1 AND j.is_template = false AND j.uid_secondary = ANY($2::text[]) ORDER BY j.id FOR UPDATE`,
      [companyId, uids],
    );
  }

  /** Deletes the company's jobs with these ids. */
  async deleteByIds(db: Queryable, companyId: string, ids: string[]): Promise<void> {
    await query(db, `DELETE FROM jobs WHERE company_id = $1 AND id = ANY($2::text[])`, [companyId, ids]);
  }

  /** The view rows of the company's jobs with these ids (any order). */
  rowsByIds(db: Queryable, companyId: string, ids: string[]): Promise<JobRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return query<JobRow>(db, `${JOB_SELECT_SQL} WHERE j.company_id = $1 AND j.id = ANY($2::text[])`, [companyId, ids]);
  }

  /**
   * getjobs' jobs (outside any transaction) as view rows: without `sort` by number, then tsCreated,
   * then id; with `sort` by its field (ties by id, the same direction), `from`/`until` bounding that
   * field when it is a timestamp, else tsCreated. `limit` rows from `skip`.
   */
  search(s: JobSearch): Promise<JobRow[]> {
    const w = new Where();
    w.add((p) => `j.company_id = ${p(s.companyId)}`);
    w.add((p) => `j.is_template = ${p(s.templates)}`);
    if (s.ids !== undefined) w.add((p) => `j.id = ANY(${p(s.ids)}::text[])`);
    if (s.orderIds !== undefined) w.add((p) => `j.order_id = ANY(${p(s.orderIds)}::bigint[])`);
    if (s.day !== undefined) w.add((p) => `j.day = ${p(s.day)}`);
    if (s.ownWorkerId !== undefined) w.add((p) => `j.worker_id = ${p(s.ownWorkerId)}`);
    if (s.worker === '') w.add(() => `j.worker_id IS NULL`);
    else if (s.worker === '+') w.add(() => `j.worker_id IS NOT NULL`);
    else if (s.worker !== '*') w.add((p) => `j.worker_id = ${memberIdByUsernameSql(p(s.companyId), p(s.worker))}`);
    if (s.team !== undefined) w.add((p) => `j.team_id = ${p(s.team)}`);
    if (s.doneSuccess) w.add(() => `j.ts_done_success > 0`);
    if (s.active) w.add(() => `j.ts_done_success = 0 AND j.ts_done_failed = 0`);
    if (!s.includeArchived) w.add(() => `j.archived = false`);
    let order = `j.number, j.ts_created, j.id`;
    const sort = s.sort;
    if (sort) {
      const field = SORT_FIELDS[sort.field];
      const dir = sort.ascending ? 'ASC' : 'DESC';
      order = `${field.column} ${dir}, j.id ${dir}`;
      const bounded = field.timestamp ? field.column : 'j.ts_created';
      if (sort.from !== undefined) w.add((p) => `${bounded} >= ${p(sort.from)}`);
      if (sort.until !== undefined) w.add((p) => `${bounded} < ${p(sort.until)}`);
      if (sort.status !== undefined) w.add((p) => `${PROGRESS_SQL} = ${p(sort.status)}`);
    }
    return this.find(w, order, s.limit, s.skip);
  }

  /**
   * The connector's jobs (`GET /v1/jobs`, templates never) as view rows, newest first by the polled
   * field (ties by id): with `updatedSince` the commit stamp of the last write (`saved_stamp`), with
   * `createdSince` that of the insert (`created_stamp`), else the insert time (`created_at`). `*Since`
   * are inclusive and match stamped rows only (docs/connector.md, "Polling triggers": stamps follow
   * commit order, so a poller never misses a row and nothing holds it back).
   */
  listForConnector(s: ConnectorJobSearch): Promise<JobRow[]> {
    const w = new Where();
    w.add((p) => `j.company_id = ${p(s.companyId)}`);
    w.add(() => `j.is_template = false`);
    if (s.ownWorkerId !== undefined) w.add((p) => `j.worker_id = ${p(s.ownWorkerId)}`);
    if (!s.includeArchived) w.add(() => `j.archived = false`);
    if (s.externalId !== undefined) w.add((p) => `j.uid_secondary = ${p(s.externalId)}`);
    if (s.assigneeUsername !== undefined) w.add((p) => `j.worker_id = ${memberIdByUsernameSql(p(s.companyId), p(s.assigneeUsername))}`);
    if (s.progress?.length) w.add((p) => `${PROGRESS_SQL} = ANY(${p(s.progress!.map(progressIndex))}::int[])`);
    if (s.createdSince !== undefined) w.add((p) => `j.created_stamp >= ${p(s.createdSince)}`);
    if (s.updatedSince !== undefined) w.add((p) => `j.saved_stamp >= ${p(s.updatedSince)}`);
    const polled = s.updatedSince !== undefined ? 'j.saved_stamp' : s.createdSince !== undefined ? 'j.created_stamp' : 'j.created_at';
    return this.find(w, `${polled} DESC, j.id DESC`, s.limit, s.skip);
  }

  /**
   * The view rows matching `w`, outside any transaction (on the data source's `pg` pool).
   * @param order an `ORDER BY` list over `j` (built from a fixed list, never from input)
   */
  private find(w: Where, order: string, limit: number, offset: number): Promise<JobRow[]> {
    // getjobs' hot path: on the pool itself, not through TypeORM's query runner; one named statement
    // per combination of filters (the page as parameters, so pages share it)
    return shapeQuery<JobRow>(
      this.dataSource,
      `${JOB_SELECT_SQL} WHERE ${w.where} ORDER BY ${order} LIMIT $${w.params.length + 1} OFFSET $${w.params.length + 2}`,
      [...w.params, Math.trunc(limit), Math.trunc(offset)],
    );
  }

  /** Which of `teamIds` a job of the company that is not archived carries as `teamId` (any order, no repeats). */
  async teamsInUse(db: Queryable, companyId: string, teamIds: readonly number[]): Promise<number[]> {
    const rows = await query<{ team: number }>(
      db,
      `SELECT DISTINCT team_id AS team FROM jobs WHERE company_id = $1 AND archived = false AND team_id = ANY($2::int[])`,
      [companyId, [...teamIds]],
    );
    return rows.map((r) => r.team);
  }
}
