import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Locations (CONTRACTS.md "Locations, devices, tracks", "Places, check-ins, clock"):
 * - `location_fixes`, the fix history, natively partitioned by `ts` (ms) into calendar months (UTC),
 *   with `location_fixes_ensure_partition(ts)` creating a month's partition on demand; the months
 *   around now are created here, later ones by the worker's `partitions` task. Not a TypeORM entity
 *   (its schema diff does not model partitioning), so the drift check leaves it alone.
 * - `member_locations`, the latest location per member: the `location_*` and `tracking_status`
 *   columns of `members` move there with their data.
 * - `tracks` (+ the platform-wide `track_shares` token lookup), `checkins`, `clock_events`,
 *   `geofence_states`.
 */
export class CreateLocations1795600000000 implements MigrationInterface {
  name = 'CreateLocations1795600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "member_locations" ("company_id" character varying(26) NOT NULL, "member_id" character varying(26) NOT NULL, "ts" bigint, "lat" double precision, "lng" double precision, "acc" integer, "dir" integer, "spd" double precision, "elv" integer, "bat" integer, "source" character varying(8), "received_at" bigint, "anchor_ts" bigint, "anchor_lat" double precision, "anchor_lng" double precision, "tracking_status" boolean NOT NULL DEFAULT false, "tracking_ts" bigint NOT NULL DEFAULT '0', "connection_type" integer, "android_id" character varying(64), "loc_gps_on" boolean, "loc_net_on" boolean, "ping_requested_at" bigint, "signal_ts" bigint NOT NULL DEFAULT '0', "updated_at" bigint NOT NULL, CONSTRAINT "PK_5f3e8336c39bbc477b898c94af5" PRIMARY KEY ("company_id", "member_id"))`,
    );
    await q.query(
      `CREATE TABLE "tracks" ("company_id" character varying(26) NOT NULL, "id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "member_id" character varying(26) NOT NULL, "start_ts" bigint NOT NULL, "end_ts" bigint NOT NULL, "start_lat" double precision NOT NULL, "start_lng" double precision NOT NULL, "end_lat" double precision NOT NULL, "end_lng" double precision NOT NULL, "distance" double precision NOT NULL, "waypoint_count" integer NOT NULL, "speed_avg" double precision NOT NULL, "speed_max" double precision NOT NULL, "altitude_min" integer, "altitude_max" integer, "altitude_gain" integer, "altitude_loss" integer, "short_encoded" text NOT NULL, "course_encoded" text NOT NULL, "lat_min" double precision NOT NULL, "lat_max" double precision NOT NULL, "lng_min" double precision NOT NULL, "lng_max" double precision NOT NULL, "path" geography(LineString,4326), "open" boolean NOT NULL DEFAULT false, "share_token" character varying(32) NOT NULL, "updated_at" bigint NOT NULL, CONSTRAINT "PK_ebd7c49e6bf95c379deaf320e65" PRIMARY KEY ("company_id", "id"))`,
    );
    await q.query(`CREATE INDEX "IDX_tracks_path" ON "tracks" USING GiST ("path") `);
    await q.query(`CREATE INDEX "IDX_tracks_member_end" ON "tracks" ("company_id", "member_id", "end_ts") `);
    await q.query(`CREATE INDEX "IDX_tracks_member_start" ON "tracks" ("company_id", "member_id", "start_ts") `);
    await q.query(
      `CREATE TABLE "track_shares" ("token" character varying(32) NOT NULL, "company_id" character varying(26) NOT NULL, "track_id" bigint NOT NULL, CONSTRAINT "PK_dd06ce09974a1e1103d4b7cc2e7" PRIMARY KEY ("token"))`,
    );
    await q.query(
      `CREATE TABLE "checkins" ("company_id" character varying(26) NOT NULL, "id" character varying(26) NOT NULL, "member_id" character varying(26) NOT NULL, "place_id" character varying(26), "job_id" character varying(26), "in_ts" bigint NOT NULL, "out_ts" bigint, "duration" bigint, CONSTRAINT "PK_f8d0405d7243aabe180c74897b5" PRIMARY KEY ("company_id", "id"))`,
    );
    await q.query(`CREATE INDEX "IDX_checkins_job" ON "checkins" ("company_id", "job_id") `);
    await q.query(`CREATE INDEX "IDX_checkins_place_in" ON "checkins" ("company_id", "place_id", "in_ts") `);
    await q.query(`CREATE INDEX "IDX_checkins_member_in" ON "checkins" ("company_id", "member_id", "in_ts") `);
    await q.query(
      `CREATE TABLE "clock_events" ("company_id" character varying(26) NOT NULL, "member_id" character varying(26) NOT NULL, "ts" bigint NOT NULL, "tracking" boolean NOT NULL, "lat" double precision, "lng" double precision, "received_at" bigint NOT NULL, CONSTRAINT "PK_789bb0dd1bc39273022c40d624d" PRIMARY KEY ("company_id", "member_id", "ts"))`,
    );
    await q.query(
      `CREATE TABLE "geofence_states" ("company_id" character varying(26) NOT NULL, "member_id" character varying(26) NOT NULL, "evaluated_ts" bigint NOT NULL DEFAULT '0', "state" jsonb NOT NULL DEFAULT '{}', "updated_at" bigint NOT NULL, CONSTRAINT "PK_cbc0bbc9af23ae83927d36edca9" PRIMARY KEY ("company_id", "member_id"))`,
    );
    await q.query(
      `CREATE TABLE "location_fixes" ("company_id" character varying(26) NOT NULL, "member_id" character varying(26) NOT NULL, "ts" bigint NOT NULL, "lat" double precision NOT NULL, "lng" double precision NOT NULL, "acc" integer, "dir" integer, "spd" double precision, "elv" integer, "bat" integer, "received_at" bigint NOT NULL, CONSTRAINT "PK_location_fixes" PRIMARY KEY ("company_id", "member_id", "ts")) PARTITION BY RANGE ("ts")`,
    );
    // one partition per calendar month (UTC): [first ms of the month, first ms of the next)
    await q.query(`CREATE FUNCTION location_fixes_ensure_partition(at_ms bigint) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  month_start timestamptz := date_trunc('month', to_timestamp(at_ms / 1000.0) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  name text := 'location_fixes_p' || to_char(month_start AT TIME ZONE 'UTC', 'YYYYMM');
BEGIN
  IF to_regclass(name) IS NULL THEN
    BEGIN
      EXECUTE format('CREATE TABLE %I PARTITION OF location_fixes FOR VALUES FROM (%s) TO (%s)', name,
        (extract(epoch from month_start) * 1000)::bigint,
        (extract(epoch from month_start + interval '1 month') * 1000)::bigint);
    EXCEPTION WHEN duplicate_table THEN
      NULL; -- created meanwhile by another session
    END;
  END IF;
  RETURN name;
END $$`);
    for (let month = -1; month <= 2; month++) {
      await q.query(
        `SELECT location_fixes_ensure_partition((extract(epoch from (date_trunc('month', now() AT TIME ZONE 'UTC') + $1 * interval '1 month') AT TIME ZONE 'UTC') * 1000)::bigint)`,
        [month],
      );
    }
    // the latest known location and tracking state move off members, with their data
    await q.query(`INSERT INTO "member_locations" ("company_id", "member_id", "ts", "lat", "lng", "acc", "tracking_status", "updated_at")
      SELECT "company_id", "id", "location_ts", "location_lat", "location_lng", "location_accuracy", "tracking_status", "updated_at" FROM "members"
      WHERE ("location_lat" IS NOT NULL AND "location_lng" IS NOT NULL AND "location_ts" IS NOT NULL) OR "tracking_status"`);
    await q.query(
      `UPDATE "member_locations" SET "ts" = NULL, "lat" = NULL, "lng" = NULL WHERE "ts" IS NULL OR "lat" IS NULL OR "lng" IS NULL`,
    );
    await q.query(`ALTER TABLE "members" DROP COLUMN "location_lat"`);
    await q.query(`ALTER TABLE "members" DROP COLUMN "location_lng"`);
    await q.query(`ALTER TABLE "members" DROP COLUMN "location_ts"`);
    await q.query(`ALTER TABLE "members" DROP COLUMN "location_accuracy"`);
    await q.query(`ALTER TABLE "members" DROP COLUMN "tracking_status"`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "members" ADD "tracking_status" boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE "members" ADD "location_accuracy" integer`);
    await q.query(`ALTER TABLE "members" ADD "location_ts" bigint`);
    await q.query(`ALTER TABLE "members" ADD "location_lng" double precision`);
    await q.query(`ALTER TABLE "members" ADD "location_lat" double precision`);
    await q.query(`UPDATE "members" m SET "location_lat" = l."lat", "location_lng" = l."lng", "location_ts" = l."ts", "location_accuracy" = l."acc", "tracking_status" = l."tracking_status"
      FROM "member_locations" l WHERE l."company_id" = m."company_id" AND l."member_id" = m."id"`);
    await q.query(`DROP TABLE "location_fixes"`);
    await q.query(`DROP FUNCTION location_fixes_ensure_partition(bigint)`);
    await q.query(`DROP TABLE "geofence_states"`);
    await q.query(`DROP TABLE "clock_events"`);
    await q.query(`DROP INDEX "public"."IDX_checkins_member_in"`);
    await q.query(`DROP INDEX "public"."IDX_checkins_place_in"`);
    await q.query(`DROP INDEX "public"."IDX_checkins_job"`);
    await q.query(`DROP TABLE "checkins"`);
    await q.query(`DROP TABLE "track_shares"`);
    await q.query(`DROP INDEX "public"."IDX_tracks_member_start"`);
    await q.query(`DROP INDEX "public"."IDX_tracks_member_end"`);
    await q.query(`DROP INDEX "public"."IDX_tracks_path"`);
    await q.query(`DROP TABLE "tracks"`);
    await q.query(`DROP TABLE "member_locations"`);
  }
}
