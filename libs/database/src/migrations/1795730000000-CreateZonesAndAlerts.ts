import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Zones, alert rules and alert firings (CONTRACTS.md "Alerts and zones"): tables of `@app/zones` and
 * `@app/alerts`. A firing is unique per (company, rule, member, occurrence), so two workers never store
 * (or announce) one occurrence twice.
 */
export class CreateZonesAndAlerts1795730000000 implements MigrationInterface {
  name = 'CreateZonesAndAlerts1795730000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "alert_rules" ("id" character varying(26) NOT NULL, "company_id" character varying(26) NOT NULL, "title" character varying(200) NOT NULL DEFAULT '', "description" character varying(2000) NOT NULL DEFAULT '', "action" character varying(32) NOT NULL, "members" jsonb NOT NULL DEFAULT '[]', "teams" jsonb NOT NULL DEFAULT '[]', "place_id" character varying(26), "zone_id" character varying(26), "interval" bigint, "threshold" integer, "window" jsonb, "active" boolean NOT NULL DEFAULT true, "created_at" bigint NOT NULL, "updated_at" bigint, "deleted_at" bigint, CONSTRAINT "PK_ae580564f087ffab9d229225aec" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_alert_rules_company" ON "alert_rules" ("company_id") `);
    await q.query(
      `CREATE TABLE "alert_firings" ("company_id" character varying(26) NOT NULL, "id" character varying(26) NOT NULL, "rule_id" character varying(26) NOT NULL, "member_id" character varying(26) NOT NULL, "action" character varying(32) NOT NULL, "occurrence" character varying(100) NOT NULL, "place_id" character varying(26), "zone_id" character varying(26), "check_type" character varying(3), "message" text NOT NULL, "ts" bigint NOT NULL, "created_at" bigint NOT NULL, CONSTRAINT "PK_2716d66713007c9fea40993d639" PRIMARY KEY ("company_id", "id"))`,
    );
    await q.query(`CREATE INDEX "IDX_alert_firings_rule_ts" ON "alert_firings" ("company_id", "rule_id", "ts") `);
    await q.query(`CREATE INDEX "IDX_alert_firings_company_ts" ON "alert_firings" ("company_id", "ts") `);
    await q.query(
      `CREATE UNIQUE INDEX "UQ_alert_firings_occurrence" ON "alert_firings" ("company_id", "rule_id", "member_id", "occurrence") `,
    );
    await q.query(
      `CREATE TABLE "zones" ("id" character varying(26) NOT NULL, "company_id" character varying(26) NOT NULL, "name" character varying(200) NOT NULL, "polygon" geography(Polygon,4326) NOT NULL, "danger" boolean NOT NULL DEFAULT false, "teams" jsonb NOT NULL DEFAULT '[]', "color" character varying(7) NOT NULL DEFAULT '', "created_at" bigint NOT NULL, "updated_at" bigint, "deleted_at" bigint, CONSTRAINT "PK_880484a43ca311707b05895bd4a" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_zones_company_polygon" ON "zones" USING GiST ("company_id", "polygon") WHERE "deleted_at" IS NULL`);
    await q.query(`CREATE INDEX "IDX_zones_company" ON "zones" ("company_id") `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."IDX_zones_company"`);
    await q.query(`DROP INDEX "public"."IDX_zones_company_polygon"`);
    await q.query(`DROP TABLE "zones"`);
    await q.query(`DROP INDEX "public"."UQ_alert_firings_occurrence"`);
    await q.query(`DROP INDEX "public"."IDX_alert_firings_company_ts"`);
    await q.query(`DROP INDEX "public"."IDX_alert_firings_rule_ts"`);
    await q.query(`DROP TABLE "alert_firings"`);
    await q.query(`DROP INDEX "public"."IDX_alert_rules_company"`);
    await q.query(`DROP TABLE "alert_rules"`);
  }
}
