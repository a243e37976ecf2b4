import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateFoundation1795298701562 implements MigrationInterface {
  name = 'CreateFoundation1795298701562';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "outbox_events" ("id" character varying(40) NOT NULL, "company_id" character varying(26) NOT NULL, "event_key" character varying(32) NOT NULL, "action" character varying(32) NOT NULL, "form_id" character varying(200) NOT NULL, "payload" text NOT NULL, "created_at" bigint NOT NULL, CONSTRAINT "PK_6689a16c00d09b8089f6237f1d2" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_outbox_events_company_created" ON "outbox_events" ("company_id", "created_at") `);
    await q.query(
      `CREATE TABLE "notifications" ("id" character varying(26) NOT NULL, "company_id" character varying(26) NOT NULL, "member_id" character varying(26), "kind" character varying(40) NOT NULL, "job_id" character varying(64), "ts" bigint NOT NULL, CONSTRAINT "PK_6a72c3c0f683f6462415e653c3a" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_notifications_company_ts" ON "notifications" ("company_id", "ts") `);
    await q.query(
      `CREATE TABLE "worker_heartbeats" ("id" character varying(200) NOT NULL, "started_at" bigint NOT NULL, "beat_at" bigint NOT NULL, "stopped_at" bigint, CONSTRAINT "PK_b78cac2cb4a34485da0553fd5c9" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE TABLE "companies" ("id" character varying(26) NOT NULL, "name" character varying(200) NOT NULL, "email" character varying(254) NOT NULL DEFAULT '', "phone" character varying(40) NOT NULL DEFAULT '', "address" character varying(500) NOT NULL DEFAULT '', "timezone" character varying(64) NOT NULL DEFAULT 'UTC', "default_radius" integer NOT NULL DEFAULT '100', "working_hours" jsonb, "workers_edit_job" boolean NOT NULL DEFAULT false, "workers_create_places" boolean NOT NULL DEFAULT false, "workers_view_places" boolean NOT NULL DEFAULT true, "teams_config" jsonb NOT NULL DEFAULT '[]'::jsonb, "owner_member_id" character varying(26), "created_at" bigint NOT NULL, "updated_at" bigint NOT NULL, CONSTRAINT "PK_d4bc3e82a314fa9e29f652c2c22" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE TABLE "members" ("id" character varying(26) NOT NULL, "company_id" character varying(26) NOT NULL, "username" character varying(254) NOT NULL, "name" character varying(200) NOT NULL, "phone" character varying(40) NOT NULL DEFAULT '', "email" character varying(254) NOT NULL DEFAULT '', "role" character varying(16) NOT NULL DEFAULT 'worker', "teams" jsonb NOT NULL DEFAULT '[]'::jsonb, "status_label" character varying(200) NOT NULL DEFAULT '', "color" character varying(7) NOT NULL DEFAULT '', "active_status" character varying(16) NOT NULL DEFAULT 'active', "vehicle_capacity" integer, "travel_mode" character varying(16) NOT NULL DEFAULT 'car', "working_hours" jsonb, "working_hours_overrides" jsonb NOT NULL DEFAULT '{}'::jsonb, "ignore_working_hours_until_ts" bigint NOT NULL DEFAULT '0', "route_start_lat" double precision, "route_start_lng" double precision, "route_end_lat" double precision, "route_end_lng" double precision, "route_start_time" integer, "unit_distance" character varying(2) NOT NULL DEFAULT 'SI', "unit_time" character varying(2) NOT NULL DEFAULT '24', "unit_date" character varying(40) NOT NULL DEFAULT 'YYYY-MM-DD', "timezone" character varying(64) NOT NULL DEFAULT '', "language" character varying(16) NOT NULL DEFAULT 'en', "skills" jsonb NOT NULL DEFAULT '[]'::jsonb, "expertise" character varying(100) NOT NULL DEFAULT '', "radius" integer NOT NULL DEFAULT '0', "address" character varying(500) NOT NULL DEFAULT '', "postalcode" character varying(20) NOT NULL DEFAULT '', "city" character varying(100) NOT NULL DEFAULT '', "state" character varying(100) NOT NULL DEFAULT '', "country" character varying(100) NOT NULL DEFAULT '', "country_code" character varying(2) NOT NULL DEFAULT '', "device_id" character varying(64), "password_hash" character varying(200), "invitation_token_hash" character varying(64), "invitation_expires_at" bigint, "location_lat" double precision, "location_lng" double precision, "location_ts" bigint, "location_accuracy" integer, "tracking_status" boolean NOT NULL DEFAULT false, "created_at" bigint NOT NULL, "updated_at" bigint NOT NULL, "deactivated_at" bigint, CONSTRAINT "PK_28b53062261b996d9c99fa12404" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_members_company" ON "members" ("company_id") `);
    // usernames and device ids are unique across the platform, case-insensitively (not expressible as entity metadata)
    await q.query(`CREATE UNIQUE INDEX "UQ_members_username_lower" ON "members" (lower("username"))`);
    await q.query(`CREATE UNIQUE INDEX "UQ_members_device_id_lower" ON "members" (lower("device_id")) WHERE "device_id" IS NOT NULL`);
    await q.query(
      `CREATE TABLE "api_keys" ("id" character varying(26) NOT NULL, "prefix" character varying(12) NOT NULL, "key_hash" character varying(64) NOT NULL, "company_id" character varying(26) NOT NULL, "member_id" character varying(26) NOT NULL, "label" character varying(100) NOT NULL DEFAULT '', "created_at" bigint NOT NULL, "revoked_at" bigint, CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_api_keys_prefix" ON "api_keys" ("prefix") `);
    await q.query(`CREATE INDEX "IDX_api_keys_member" ON "api_keys" ("member_id") `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."IDX_api_keys_member"`);
    await q.query(`DROP INDEX "public"."UQ_api_keys_prefix"`);
    await q.query(`DROP TABLE "api_keys"`);
    await q.query(`DROP INDEX "public"."UQ_members_device_id_lower"`);
    await q.query(`DROP INDEX "public"."UQ_members_username_lower"`);
    await q.query(`DROP INDEX "public"."IDX_members_company"`);
    await q.query(`DROP TABLE "members"`);
    await q.query(`DROP TABLE "companies"`);
    await q.query(`DROP TABLE "worker_heartbeats"`);
    await q.query(`DROP INDEX "public"."IDX_notifications_company_ts"`);
    await q.query(`DROP TABLE "notifications"`);
    await q.query(`DROP INDEX "public"."IDX_outbox_events_company_created"`);
    await q.query(`DROP TABLE "outbox_events"`);
  }
}
