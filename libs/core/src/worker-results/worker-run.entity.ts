import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { MsColumn } from '../database/bigint-columns';
import { RunState, StoredRunError } from './run-rules';

/**
 * One call the api answers with the worker's work (CONTRACTS.md, "Worker results"): written by the
 * api in `queued`, moved to `running` by the worker that takes its task, and finished — `done`,
 * `failed` or `expired` — by the worker's writing transaction, by the api whose wait ended, or by the
 * worker's sweep. `company_id` leads the primary key ("Ready to outgrow one database").
 */
@Entity('worker_runs')
@Index('IDX_worker_runs_open', ['answerBy'], { where: `state IN ('queued', 'running')` })
export class WorkerRun {
  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 26 })
  companyId: string;

  @PrimaryColumn({ type: 'varchar', length: 26 })
  id: string;

  /** The member whose call made the run (null for runs without one). */
  @Column({ name: 'member_id', type: 'varchar', length: 26, nullable: true })
  memberId: string | null;

  /** A registered run kind, e.g. `distributejobs`, `report`, `test.echo`. */
  @Column({ type: 'varchar', length: 60 })
  kind: string;

  @Column({ type: 'jsonb' })
  params: unknown;

  @Column({ type: 'varchar', length: 10 })
  state: RunState;

  /** The kind's result once `done` (JSON; a report keeps its file in its own table). */
  @Column({ type: 'jsonb', nullable: true })
  result: unknown;

  /** Why it failed or expired: a clean message (never a stack), with the domain error kind/field when it had one. */
  @Column({ type: 'jsonb', nullable: true })
  error: StoredRunError | null;

  /** ms, database clock: until when the api waits for the answer. */
  @MsColumn({ name: 'answer_by' })
  answerBy: number;

  /**
   * ms, database clock: the worker writes nothing past it. = `answer_by` for runs that change jobs;
   * null while a start-relative run (a report) is queued, then start + `max_run_ms`.
   */
  @MsColumn({ name: 'write_by', nullable: true })
  writeBy: number | null;

  /** For start-relative runs: ms the run may take once started (`REPORT_MAX_RUN_MS`). */
  @Column({ name: 'max_run_ms', type: 'integer', nullable: true })
  maxRunMs: number | null;

  /**
   * The primary's WAL position when the run was created (`pg_current_wal_insert_lsn()`, pg_lsn text
   * `X/Y`), for runs whose reads may go to the replica (reports): it reads there once the replica
   * has replayed past it (docs/scaling.md, "Read replica"). Null for runs that read on the primary.
   */
  @Column({ name: 'read_lsn', type: 'varchar', length: 17, nullable: true })
  readLsn: string | null;

  @MsColumn({ name: 'created_at' })
  createdAt: number;

  @MsColumn({ name: 'started_at', nullable: true })
  startedAt: number | null;

  @MsColumn({ name: 'finished_at', nullable: true })
  finishedAt: number | null;
}
