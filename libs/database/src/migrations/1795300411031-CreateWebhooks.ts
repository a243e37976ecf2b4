import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateWebhooks1795300411031 implements MigrationInterface {
  name = 'CreateWebhooks1795300411031';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "webhook_endpoints" ("id" character varying(26) NOT NULL, "company_id" character varying(26) NOT NULL, "key" character varying(32) NOT NULL, "url" character varying(2048) NOT NULL, "headers" jsonb NOT NULL DEFAULT '{}', "disabled" boolean NOT NULL DEFAULT false, "disabled_reason" character varying(200), "disabled_at" bigint, "failing_since" bigint, "created_at" bigint NOT NULL, "updated_at" bigint NOT NULL, CONSTRAINT "PK_054c4cfb95223732f5939d2d546" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_webhook_endpoints_company_key" ON "webhook_endpoints" ("company_id", "key") `);
    await q.query(
      `CREATE TABLE "webhook_secrets" ("company_id" character varying(26) NOT NULL, "secret" character varying(100) NOT NULL, "previous_secret" character varying(100), "previous_expires_at" bigint, "created_at" bigint NOT NULL, CONSTRAINT "PK_66f44a4bd92cfef1fc450e6d001" PRIMARY KEY ("company_id"))`,
    );
    await q.query(
      `CREATE TABLE "webhook_deliveries" ("id" character varying(60) NOT NULL, "company_id" character varying(26) NOT NULL, "event_id" character varying(40) NOT NULL, "endpoint_id" character varying(26) NOT NULL, "event_key" character varying(32) NOT NULL, "state" character varying(16) NOT NULL DEFAULT 'pending', "attempts" integer NOT NULL DEFAULT '0', "failures" integer NOT NULL DEFAULT '0', "next_attempt_at" bigint NOT NULL, "locked_until" bigint, "last_status" integer, "last_error" character varying(500), "created_at" bigint NOT NULL, "finished_at" bigint, CONSTRAINT "PK_535dd409947fb6d8fc6dfc0112a" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_webhook_deliveries_endpoint_state" ON "webhook_deliveries" ("endpoint_id", "state") `);
    await q.query(`CREATE INDEX "IDX_webhook_deliveries_company_created" ON "webhook_deliveries" ("company_id", "created_at") `);
    await q.query(`CREATE INDEX "IDX_webhook_deliveries_event" ON "webhook_deliveries" ("event_id") `);
    await q.query(`CREATE INDEX "IDX_webhook_deliveries_due" ON "webhook_deliveries" ("state", "next_attempt_at") `);
    await q.query(
      `CREATE TABLE "webhook_attempts" ("id" character varying(26) NOT NULL, "delivery_id" character varying(60) NOT NULL, "company_id" character varying(26) NOT NULL, "started_at" bigint NOT NULL, "duration_ms" integer NOT NULL, "http_status" integer, "error" character varying(500), "outcome" character varying(16) NOT NULL, CONSTRAINT "PK_2de7e7887ad97de459adab62638" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_webhook_attempts_started" ON "webhook_attempts" ("started_at") `);
    await q.query(`CREATE INDEX "IDX_webhook_attempts_delivery" ON "webhook_attempts" ("delivery_id", "started_at") `);
    // fan-out in the writing transaction: every outbox event gets a delivery row per endpoint of its
    // key configured (and enabled) at that moment — one statement per INSERT, whatever the batch size
    await q.query(`CREATE FUNCTION fieldwork_fan_out_webhook_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO webhook_deliveries (id, company_id, event_id, endpoint_id, event_key, state, attempts, failures, next_attempt_at, created_at)
        SELECT 'dlv_' || substr(n.id, 5) || e.id, n.company_id, n.id, e.id, n.event_key, 'pending', 0, 0, n.created_at, n.created_at
          FROM new_events n
          JOIN webhook_endpoints e ON e.company_id = n.company_id AND e.key = n.event_key AND e.disabled = false;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER fieldwork_outbox_fan_out AFTER INSERT ON outbox_events
      REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION fieldwork_fan_out_webhook_deliveries()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER fieldwork_outbox_fan_out ON outbox_events`);
    await q.query(`DROP FUNCTION fieldwork_fan_out_webhook_deliveries()`);
    await q.query(`DROP INDEX "public"."IDX_webhook_attempts_delivery"`);
    await q.query(`DROP INDEX "public"."IDX_webhook_attempts_started"`);
    await q.query(`DROP TABLE "webhook_attempts"`);
    await q.query(`DROP INDEX "public"."IDX_webhook_deliveries_due"`);
    await q.query(`DROP INDEX "public"."IDX_webhook_deliveries_event"`);
    await q.query(`DROP INDEX "public"."IDX_webhook_deliveries_company_created"`);
    await q.query(`DROP INDEX "public"."IDX_webhook_deliveries_endpoint_state"`);
    await q.query(`DROP TABLE "webhook_deliveries"`);
    await q.query(`DROP TABLE "webhook_secrets"`);
    await q.query(`DROP INDEX "public"."UQ_webhook_endpoints_company_key"`);
    await q.query(`DROP TABLE "webhook_endpoints"`);
  }
}
