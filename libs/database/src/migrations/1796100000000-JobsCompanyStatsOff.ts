import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The planner stops keeping statistics of `jobs.company_id` (`SET STATISTICS 0`, and the column's
 * existing row of `pg_statistic` removed where the migrating role may), so every company's jobs are
 * estimated alike (PostgreSQL's default equality selectivity) instead of by the most-common-values
 * list of the last ANALYZE.
 *
 * Why: with that list, a company outside it — a new one, or any company beside one that dominated
 * the table when it was analysed — is estimated at one row, whatever it holds. The planner then reads
 * "the company's one job" through the narrowest index on `company_id` and filters: the route numbers'
 * backward probe per worker-day (`JobsRepository.routeNumberTops`) walked all 66,000 jobs of the
 * bench's createjobs company (60–75 ms of a ~130-ms createjobs call, both in ours and in the raw `pg`
 * baseline) and the stamping's `id = ANY (…)` update walked them again (145–730 ms). Without the
 * column's statistics the same statements take 0.15 ms and 24 ms (auto_explain, 2026-11-28;
 * docs/scaling.md "Statistics"). On this machine's PostgreSQL (autovacuum off) every table is stale;
 * in production autovacuum's ANALYZE waits for 10 % of the table to change, so a new company grows
 * for a long time inside a stale list.
 *
 * Online: `ALTER COLUMN … SET STATISTICS` takes a SHARE UPDATE EXCLUSIVE lock (reads and writes go
 * on). Removing the old statistics row needs a superuser; otherwise a NOTICE says so and the row stays
 * until an operator removes it (docs/scaling.md) — the plans above stay as they were meanwhile.
 */
export class JobsCompanyStatsOff1796100000000 implements MigrationInterface {
  name = 'JobsCompanyStatsOff1796100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs ALTER COLUMN company_id SET STATISTICS 0`);
    await q.query(`
      DO $$
      BEGIN
        IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
          DELETE FROM pg_statistic
           WHERE starelid = 'jobs'::regclass
             AND staattnum = (SELECT attnum FROM pg_attribute WHERE attrelid = 'jobs'::regclass AND attname = 'company_id');
        ELSE
          RAISE NOTICE 'jobs.company_id: statistics kept until a superuser removes them (docs/scaling.md "Statistics")';
        END IF;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs ALTER COLUMN company_id SET STATISTICS -1`);
  }
}
