import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateJobs1795299635861 implements MigrationInterface {
  name = 'CreateJobs1795299635861';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "jobs" ("id" character varying(26) NOT NULL, "company_id" character varying(26) NOT NULL, "is_template" boolean NOT NULL DEFAULT false, "archived" boolean NOT NULL DEFAULT false, "type" smallint NOT NULL DEFAULT '0', "team_id" integer NOT NULL DEFAULT '0', "destination_name" character varying(500) NOT NULL DEFAULT '', "destination_lat" double precision, "destination_lng" double precision, "destination_text" text NOT NULL DEFAULT '', "destination_url" text NOT NULL DEFAULT '', "text_dispatcher" text NOT NULL DEFAULT '', "text_receiver" text NOT NULL DEFAULT '', "contact_name" character varying(200) NOT NULL DEFAULT '', "contact_phone" character varying(40) NOT NULL DEFAULT '', "contact_email" character varying(254) NOT NULL DEFAULT '', "day" integer NOT NULL DEFAULT '0', "priority" smallint NOT NULL DEFAULT '0', "number" integer NOT NULL DEFAULT '0', "on_site_seconds" integer NOT NULL DEFAULT '0', "window_start" smallint NOT NULL DEFAULT '0', "window_end" smallint NOT NULL DEFAULT '0', "order_id" bigint NOT NULL DEFAULT '0', "dispatcher_uid" character varying(64) NOT NULL DEFAULT '', "place_uid" character varying(64) NOT NULL DEFAULT '', "worker_id" character varying(26), "items_to_dropoff" integer NOT NULL DEFAULT '0', "items_to_pickup" integer NOT NULL DEFAULT '0', "uid_secondary" character varying(200), "custom_fields" jsonb NOT NULL DEFAULT '[]', "extra" jsonb NOT NULL DEFAULT '{}', "ts_created" bigint NOT NULL DEFAULT '0', "ts_assigned" bigint NOT NULL DEFAULT '0', "ts_accepted" bigint NOT NULL DEFAULT '0', "ts_rejected" bigint NOT NULL DEFAULT '0', "ts_done_success" bigint NOT NULL DEFAULT '0', "ts_done_failed" bigint NOT NULL DEFAULT '0', "ts_check_in" bigint NOT NULL DEFAULT '0', "ts_check_out" bigint NOT NULL DEFAULT '0', "ts_check_nfc1" bigint NOT NULL DEFAULT '0', "ts_check_nfc2" bigint NOT NULL DEFAULT '0', "ts_saved" bigint NOT NULL, "created_at" bigint NOT NULL, "version" integer NOT NULL DEFAULT '1', "created_by" character varying(26) NOT NULL DEFAULT '', "created_via" character varying(16) NOT NULL DEFAULT 'api', CONSTRAINT "PK_cf0a6c42b72fcc7f7c237def345" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_jobs_company_order" ON "jobs" ("company_id", "order_id") `);
    // uidSecondary is unique per company among non-template jobs (the connector's externalId dedupe key)
    await q.query(
      `CREATE UNIQUE INDEX "UQ_jobs_company_uid_secondary" ON "jobs" ("company_id", "uid_secondary") WHERE "is_template" = false AND "uid_secondary" IS NOT NULL`,
    );
    await q.query(`CREATE INDEX "IDX_jobs_company_saved" ON "jobs" ("company_id", "ts_saved", "id") `);
    await q.query(`CREATE INDEX "IDX_jobs_company_created" ON "jobs" ("company_id", "created_at", "id") `);
    await q.query(`CREATE INDEX "IDX_jobs_company_worker_day" ON "jobs" ("company_id", "worker_id", "day") `);
    await q.query(`CREATE INDEX "IDX_jobs_company_day" ON "jobs" ("company_id", "day") `);
    await q.query(
      `CREATE TABLE "places" ("id" character varying(26) NOT NULL, "company_id" character varying(26) NOT NULL, "name" character varying(200) NOT NULL, "lat" double precision, "lng" double precision, "radius" integer NOT NULL DEFAULT '0', "address" character varying(500) NOT NULL DEFAULT '', "city" character varying(100) NOT NULL DEFAULT '', "state" character varying(100) NOT NULL DEFAULT '', "postalcode" character varying(20) NOT NULL DEFAULT '', "country_code" character varying(2) NOT NULL DEFAULT '', "created_at" bigint NOT NULL, CONSTRAINT "PK_1afab86e226b4c3bc9a74465c12" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_places_company" ON "places" ("company_id") `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."UQ_jobs_company_uid_secondary"`);
    await q.query(`DROP INDEX "public"."IDX_places_company"`);
    await q.query(`DROP TABLE "places"`);
    await q.query(`DROP INDEX "public"."IDX_jobs_company_day"`);
    await q.query(`DROP INDEX "public"."IDX_jobs_company_worker_day"`);
    await q.query(`DROP INDEX "public"."IDX_jobs_company_created"`);
    await q.query(`DROP INDEX "public"."IDX_jobs_company_saved"`);
    await q.query(`DROP INDEX "public"."IDX_jobs_company_order"`);
    await q.query(`DROP TABLE "jobs"`);
  }
}
