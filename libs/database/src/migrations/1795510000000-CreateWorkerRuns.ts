import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Worker results: one row per call the api answers with the worker's work (state, result or error,
 * answer and write deadlines). `company_id` leads the primary key; the partial index serves the sweep
 * of runs still open past their deadline.
 */
export class CreateWorkerRuns1795510000000 implements MigrationInterface {
  name = 'CreateWorkerRuns1795510000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "worker_runs" ("company_id" character varying(26) NOT NULL, "id" character varying(26) NOT NULL, "member_id" character varying(26), "kind" character varying(60) NOT NULL, "params" jsonb NOT NULL, "state" character varying(10) NOT NULL, "result" jsonb, "error" jsonb, "answer_by" bigint NOT NULL, "write_by" bigint, "max_run_ms" integer, "created_at" bigint NOT NULL, "started_at" bigint, "finished_at" bigint, CONSTRAINT "PK_521723ba2ec12382624646548a5" PRIMARY KEY ("company_id", "id"))`,
    );
    await q.query(`CREATE INDEX "IDX_worker_runs_open" ON "worker_runs" ("answer_by") WHERE state IN ('queued', 'running')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."IDX_worker_runs_open"`);
    await q.query(`DROP TABLE "worker_runs"`);
  }
}
