import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Route numbers (issue #26): a job landing on a worker-day takes the highest `number` of that
 * worker-day + 1 (`JobsRepository.routeNumberTops`, `ORDER BY number DESC LIMIT 1` per worker-day).
 * Both indexes a worker-day lookup can take now end with `number` — `(company_id, worker_id, day,
 * number)` and `(company_id, day, worker_id, number)`, replacing `(company_id, worker_id, day)` and
 * `(company_id, day)` — so whichever the planner takes, the highest number is one backward probe.
 * Why both: without column statistics (a fresh or bulk-loaded table, before autovacuum analyses it)
 * the planner picks either index by size, and a lookup through one without `number` reads and sorts
 * every job of the day: on the createjobs bench's database (13,200 jobs per worker-day, no
 * statistics), 27–83 ms for 3 worker-days against 0.2 ms through these. Every lookup the old indexes
 * served still uses their leading columns; the jobs table keeps the same number of indexes.
 */
export class JobsDayIndexesEndWithNumber1795926000000 implements MigrationInterface {
  name = 'JobsDayIndexesEndWithNumber1795926000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX "IDX_jobs_company_worker_day_number" ON "jobs" ("company_id", "worker_id", "day", "number") `);
    await q.query(`CREATE INDEX "IDX_jobs_company_day_worker_number" ON "jobs" ("company_id", "day", "worker_id", "number") `);
    await q.query(`DROP INDEX "public"."IDX_jobs_company_worker_day"`);
    await q.query(`DROP INDEX "public"."IDX_jobs_company_day"`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX "IDX_jobs_company_day" ON "jobs" ("company_id", "day") `);
    await q.query(`CREATE INDEX "IDX_jobs_company_worker_day" ON "jobs" ("company_id", "worker_id", "day") `);
    await q.query(`DROP INDEX "public"."IDX_jobs_company_day_worker_number"`);
    await q.query(`DROP INDEX "public"."IDX_jobs_company_worker_day_number"`);
  }
}
