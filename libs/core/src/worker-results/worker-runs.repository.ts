import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { query, queryOne, Queryable } from '../database/query';
import { SQL_NOW_MS } from '../time';
import { RUN_CHANNEL } from './run-listener.service';
import { RunState, StoredRunError } from './run-rules';

/** The database clock under the lock: `clock_timestamp()`, not the transaction's start. */
const SQL_CLOCK_MS = `(floor(extract(epoch from clock_timestamp()) * 1000))::bigint`;

/** A run as the api reads it back. */
export interface RunView {
  id: string;
  kind: string;
  memberId: string | null;
  state: RunState;
  result: unknown;
  error: StoredRunError | null;
  /** ms, database clock */
  createdAt: number;
  finishedAt: number | null;
}

/** A run a worker took (`queued` → `running`). */
export interface TakenRun {
  kind: string;
  params: unknown;
  memberId: string | null;
  /** ms, database clock */
  writeBy: number;
  /** the primary's WAL position at the run's creation (pg_lsn text), or null: see `WorkerRun.readLsn` */
  readLsn: string | null;
}

/** A run's row as its writing transaction locked it, with the database clock (ms) at the lock. */
export interface LockedRun {
  state: RunState;
  writeBy: number | null;
  now: number;
}

/**
 * Every SQL statement on `worker_runs` (CONTRACTS.md, "Worker results"): the api's insert, wait and
 * expiry, the worker's take, lock, finish and sweep. Every statement but the platform-wide sweep is
 * scoped by `company_id`; times are ms, database clock (`SQL_NOW_MS`; `clock_timestamp()` under the
 * row lock).
 */
@Injectable()
export class WorkerRunsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `fn` in one transaction. */
  transaction<T>(fn: (db: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(fn);
  }

  /**
   * Inserts a `queued` run: `answer_by` = now + `timeoutMs`; `write_by` = `answer_by` when
   * `writeByAnswer` (dispatch), else null until a worker takes it (start + `max_run_ms`); `read_lsn` =
   * the primary's `pg_current_wal_insert_lsn()` when `readPosition` — read in the insert itself, so at
   * or past the commit of everything committed before the run was asked for.
   */
  async insertQueued(run: {
    companyId: string;
    id: string;
    memberId: string | null;
    kind: string;
    params: unknown;
    timeoutMs: number;
    writeByAnswer: boolean;
    maxRunMs: number | null;
    readPosition?: boolean;
  }): Promise<void> {
    await query(
      this.dataSource,
      `INSERT INTO worker_runs (company_id, id, member_id, kind, params, state, answer_by, write_by, max_run_ms, created_at, read_lsn)
       VALUES ($1, $2, $3, $4, $5, 'queued', ${SQL_NOW_MS} + $6::bigint, CASE WHEN $7 THEN ${SQL_NOW_MS} + $6::bigint END, $8, ${SQL_NOW_MS},
               CASE WHEN $9 THEN pg_current_wal_insert_lsn()::text END)`,
      [
        run.companyId,
        run.id,
        run.memberId,
        run.kind,
        JSON.stringify(run.params),
        run.timeoutMs,
        run.writeByAnswer,
        run.maxRunMs,
        run.readPosition === true,
      ],
    );
  }

  /** Fails a run that is still `queued` (nobody took it) with `error`. @returns whether it did. */
  async failQueued(companyId: string, runId: string, error: StoredRunError): Promise<boolean> {
    const rows = await query(
      this.dataSource,
      `UPDATE worker_runs SET state = 'failed', error = $3, finished_at = ${SQL_NOW_MS}
        WHERE company_id = $1 AND id = $2 AND state = 'queued' RETURNING id`,
      [companyId, runId, JSON.stringify(error)],
    );
    return rows.length > 0;
  }

  /**
   * Expires a run still `queued` or `running` with `error` (the api stopped waiting); waits for the
   * worker's row lock when its writing transaction holds it.
   */
  async expireOpen(companyId: string, runId: string, error: StoredRunError): Promise<void> {
    await query(
      this.dataSource,
      `UPDATE worker_runs SET state = 'expired', error = $3, finished_at = ${SQL_NOW_MS}
        WHERE company_id = $1 AND id = $2 AND state IN ('queued', 'running')`,
      [companyId, runId, JSON.stringify(error)],
    );
  }

  /** A run of the company, or undefined (another company's runs are unknown ids). */
  find(companyId: string, runId: string): Promise<RunView | undefined> {
    return queryOne<RunView>(
      this.dataSource,
      `SELECT id, kind, member_id AS "memberId", state, result, error, created_at::float8 AS "createdAt", finished_at::float8 AS "finishedAt"
         FROM worker_runs WHERE company_id = $1 AND id = $2`,
      [companyId, runId],
    );
  }

  /**
   * Takes a `queued` run: `running`, `started_at` now, `write_by` set to now + `max_run_ms` unless
   * it had one. @returns the run, or undefined when it is not queued (finished, expired, taken).
   */
  take(companyId: string, runId: string): Promise<TakenRun | undefined> {
    return queryOne<TakenRun>(
      this.dataSource,
      `UPDATE worker_runs SET state = 'running', started_at = ${SQL_NOW_MS},
              write_by = coalesce(write_by, ${SQL_NOW_MS} + max_run_ms)
        WHERE company_id = $1 AND id = $2 AND state = 'queued'
        RETURNING kind, params, member_id AS "memberId", write_by::float8 AS "writeBy", read_lsn AS "readLsn"`,
      [companyId, runId],
    );
  }

  /** Locks the run's row (`FOR UPDATE`) in transaction `manager`, with the database clock then; undefined when gone. */
  lock(manager: EntityManager, companyId: string, runId: string): Promise<LockedRun | undefined> {
    return queryOne<LockedRun>(
      manager,
      `SELECT state, write_by::float8 AS "writeBy", ${SQL_CLOCK_MS}::float8 AS now
         FROM worker_runs WHERE company_id = $1 AND id = $2 FOR UPDATE`,
      [companyId, runId],
    );
  }

  /** ms: the database clock now (`clock_timestamp()`, not the transaction's start). */
  async clockNow(db: Queryable): Promise<number> {
    const row = await queryOne<{ now: number }>(db, `SELECT ${SQL_CLOCK_MS}::float8 AS now`);
    return row!.now;
  }

  /**
   * Finishes a `running` run (`state`, `result`, `error`, `finished_at`) and notifies the api on
   * `RUN_CHANNEL` (delivered at commit), in `db` (the writing transaction or the pool).
   * @returns whether the run was running (and so is finished now)
   */
  async finish(
    db: Queryable,
    companyId: string,
    runId: string,
    state: 'done' | 'failed' | 'expired',
    result: unknown,
    error: StoredRunError | null,
  ): Promise<boolean> {
    const rows = await query(
      db,
      `WITH f AS (
         UPDATE worker_runs SET state = $3, result = $4, error = $5, finished_at = ${SQL_NOW_MS}
          WHERE company_id = $1 AND id = $2 AND state = 'running' RETURNING id)
       SELECT pg_notify('${RUN_CHANNEL}', id) FROM f`,
      [companyId, runId, state, result === null ? null : JSON.stringify(result), error ? JSON.stringify(error) : null],
    );
    return rows.length > 0;
  }

  /** {@link finish} outside any transaction. */
  finishOutside(companyId: string, runId: string, state: 'failed' | 'expired', error: StoredRunError): Promise<boolean> {
    return this.finish(this.dataSource, companyId, runId, state, null, error);
  }

  /**
   * Expires runs nobody will finish: still queued or running past their write deadline (platform-wide).
   * @returns how many runs it expired.
   */
  async sweep(error: StoredRunError): Promise<number> {
    const rows = await query(
      this.dataSource,
      `UPDATE worker_runs SET state = 'expired', finished_at = ${SQL_NOW_MS}, error = $1
        WHERE state IN ('queued', 'running') AND answer_by < ${SQL_NOW_MS}
          AND coalesce(write_by, answer_by + coalesce(max_run_ms, 0)) < ${SQL_NOW_MS}
        RETURNING id`,
      [JSON.stringify(error)],
    );
    return rows.length;
  }

  /**
   * Deletes the runs of `kind` that finished (`done`, `failed`, `expired`) before `before` (ms): the
   * retention of a domain that keeps its own files beside its runs (reports prune both on one
   * schedule). Platform-wide: every company's runs at once.
   * @returns runs deleted
   */
  async deleteFinished(kind: string, before: number): Promise<number> {
    const rows = await query<{ n: string }>(
      this.dataSource,
      `WITH d AS (DELETE FROM worker_runs WHERE kind = $2 AND state IN ('done', 'failed', 'expired')
                    AND finished_at < $1 RETURNING 1) SELECT count(*) AS n FROM d`,
      [before, kind],
    );
    return Number(rows[0].n);
  }
}
