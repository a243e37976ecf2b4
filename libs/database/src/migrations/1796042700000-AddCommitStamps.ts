import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Commit-ordered stamps for the connector's polling (docs/connector.md, "Polling triggers"):
 * - `outbox_events.stamped_at`: set by the stamping that gives an event its `seq`; the polling
 *   triggers (`/v1/checkins`, `/v1/clock-events`, `/v1/alert-firings`) read stamped events of their
 *   actions through `IDX_outbox_events_polled` (partial: only those actions, only once stamped).
 *   Events stamped before take their `created_at`.
 * - `jobs.created_stamp` / `saved_stamp`: null on insert; the `jobs_unstamp` trigger nulls
 *   `saved_stamp` on every update that does not set it itself (so every write path, raw SQL too,
 *   leaves the job to be stamped); the stamper sets them after commit. `/v1/jobs` `createdSince` /
 *   `updatedSince` use them instead of a horizon. Jobs there take `created_at` / `ts_saved`.
 * - each company's `outbox_sequences.stamped_at` starts at or above every stamp given here.
 * Back-fills are single statements: the outbox keeps 30 days (`WEBHOOK_RETENTION_DAYS`), and a jobs
 * table of a few million rows is rewritten once, in minutes.
 */
export class AddCommitStamps1796042700000 implements MigrationInterface {
  name = 'AddCommitStamps1796042700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "outbox_events" ADD "stamped_at" bigint`);
    await q.query(`UPDATE outbox_events SET stamped_at = created_at WHERE seq IS NOT NULL`);
    await q.query(
      `CREATE INDEX "IDX_outbox_events_polled" ON "outbox_events" ("company_id", "action", "stamped_at", "id") WHERE "stamped_at" IS NOT NULL AND "action" IN ('placecheckin', 'placecheckout', 'jobcheckin', 'jobcheckout', 'clockin', 'clockout', 'alerttriggered')`,
    );
    await q.query(`ALTER TABLE "jobs" ADD "created_stamp" bigint`);
    await q.query(`ALTER TABLE "jobs" ADD "saved_stamp" bigint`);
    await q.query(`UPDATE jobs SET created_stamp = created_at, saved_stamp = ts_saved`);
    await q.query(
      `UPDATE outbox_sequences s SET stamped_at = greatest(s.stamped_at, m.top)
         FROM (SELECT company_id, max(top) AS top FROM (
                 SELECT company_id, max(greatest(created_at, ts_saved)) AS top FROM jobs GROUP BY company_id
                 UNION ALL SELECT company_id, max(created_at) FROM outbox_events GROUP BY company_id) u
               GROUP BY company_id) m
        WHERE m.company_id = s.company_id`,
    );
    await q.query(`CREATE INDEX "IDX_jobs_company_created_stamp" ON "jobs" ("company_id", "created_stamp", "id") `);
    await q.query(`CREATE INDEX "IDX_jobs_company_saved_stamp" ON "jobs" ("company_id", "saved_stamp", "id") `);
    await q.query(`CREATE INDEX "IDX_jobs_unstamped" ON "jobs" ("company_id") WHERE "saved_stamp" IS NULL`);
    await q.query(
      `CREATE FUNCTION jobs_unstamp() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         NEW.saved_stamp := NULL;
         RETURN NEW;
       END $$`,
    );
    await q.query(
      `CREATE TRIGGER jobs_unstamp BEFORE UPDATE ON jobs FOR EACH ROW
         WHEN (OLD.saved_stamp IS NOT NULL AND NEW.saved_stamp IS NOT DISTINCT FROM OLD.saved_stamp)
         EXECUTE FUNCTION jobs_unstamp()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER jobs_unstamp ON jobs`);
    await q.query(`DROP FUNCTION jobs_unstamp()`);
    await q.query(`DROP INDEX "public"."IDX_jobs_unstamped"`);
    await q.query(`DROP INDEX "public"."IDX_jobs_company_saved_stamp"`);
    await q.query(`DROP INDEX "public"."IDX_jobs_company_created_stamp"`);
    await q.query(`ALTER TABLE "jobs" DROP COLUMN "saved_stamp"`);
    await q.query(`ALTER TABLE "jobs" DROP COLUMN "created_stamp"`);
    await q.query(`DROP INDEX "public"."IDX_outbox_events_polled"`);
    await q.query(`ALTER TABLE "outbox_events" DROP COLUMN "stamped_at"`);
  }
}
