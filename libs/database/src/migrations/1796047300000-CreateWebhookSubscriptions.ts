import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * REST hooks (CONTRACTS.md "Wave 3: connector for automation platforms"; docs/connector.md "REST
 * hooks"): `webhook_subscriptions` (per company: `company_id` leads the primary key), deliveries
 * that name their target (`webhook_deliveries.target`: `endpoint` — the nine keys, as before — or
 * `subscription`), the outbox trigger's fan-out to both, and the two calls of a company's
 * subscriptions' drain: `fieldwork_webhook_hooks_claim` (due deliveries of every subscription of the
 * company, each up to its free in-flight slots, in one round trip) and `fieldwork_webhook_hooks_record`
 * (a group of attempts). The nine keys' `fieldwork_webhook_batch` is unchanged.
 * Online: the new column has a constant default (no table rewrite); the function swaps are instant.
 */
export class CreateWebhookSubscriptions1796047300000 implements MigrationInterface {
  name = 'CreateWebhookSubscriptions1796047300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "webhook_subscriptions" ("company_id" character varying(26) NOT NULL, "id" character varying(26) NOT NULL, "event" character varying(32) NOT NULL, "url" character varying(2048) NOT NULL, "headers" jsonb NOT NULL DEFAULT '{}', "secret" character varying(100) NOT NULL, "created_by" character varying(26) NOT NULL, "failing_since" bigint, "created_at" bigint NOT NULL, CONSTRAINT "PK_webhook_subscriptions" PRIMARY KEY ("company_id", "id"))`,
    );
    await q.query(`CREATE INDEX "IDX_webhook_subscriptions_id" ON "webhook_subscriptions" ("id") `);
    await q.query(`CREATE INDEX "IDX_webhook_subscriptions_company_event" ON "webhook_subscriptions" ("company_id", "event") `);
    await q.query(`ALTER TABLE "webhook_deliveries" ADD "target" character varying(12) NOT NULL DEFAULT 'endpoint'`);
    await q.query(FAN_OUT_BOTH);
    await q.query(HOOKS_CLAIM);
    await q.query(HOOKS_RECORD);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION fieldwork_webhook_hooks_record(varchar, bigint, jsonb, bigint)`);
    await q.query(`DROP FUNCTION fieldwork_webhook_hooks_claim(varchar, bigint, integer, bigint)`);
    await q.query(FAN_OUT_ENDPOINTS_ONLY);
    await q.query(`DELETE FROM webhook_deliveries WHERE target = 'subscription'`);
    await q.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "target"`);
    await q.query(`DROP INDEX "public"."IDX_webhook_subscriptions_company_event"`);
    await q.query(`DROP INDEX "public"."IDX_webhook_subscriptions_id"`);
    await q.query(`DROP TABLE "webhook_subscriptions"`);
  }
}

// fan-out in the writing transaction: every outbox event gets a delivery row per endpoint of its key
// configured (and enabled) at that moment, and per subscription to its action or its key — one
// statement per INSERT, whatever the batch size. Delivery ids: `dlv_<event ulid><target id>`.
const FAN_OUT_BOTH = `CREATE OR REPLACE FUNCTION fieldwork_fan_out_webhook_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO webhook_deliveries (id, company_id, event_id, endpoint_id, target, event_key, state, attempts, failures, next_attempt_at, created_at)
        SELECT 'dlv_' || substr(n.id, 5) || e.id, n.company_id, n.id, e.id, 'endpoint', n.event_key, 'pending', 0, 0, n.created_at, n.created_at
          FROM new_events n
          JOIN webhook_endpoints e ON e.company_id = n.company_id AND e.key = n.event_key AND e.disabled = false
        UNION ALL
        SELECT 'dlv_' || substr(n.id, 5) || s.id, n.company_id, n.id, s.id, 'subscription', n.event_key, 'pending', 0, 0, n.created_at, n.created_at
          FROM new_events n
          JOIN webhook_subscriptions s ON s.company_id = n.company_id AND s.event IN (n.action, n.event_key);
        RETURN NULL;
      END $$`;

/** As `CreateWebhooks` made it. */
const FAN_OUT_ENDPOINTS_ONLY = `CREATE OR REPLACE FUNCTION fieldwork_fan_out_webhook_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO webhook_deliveries (id, company_id, event_id, endpoint_id, event_key, state, attempts, failures, next_attempt_at, created_at)
        SELECT 'dlv_' || substr(n.id, 5) || e.id, n.company_id, n.id, e.id, n.event_key, 'pending', 0, 0, n.created_at, n.created_at
          FROM new_events n
          JOIN webhook_endpoints e ON e.company_id = n.company_id AND e.key = n.event_key AND e.disabled = false;
        RETURN NULL;
      END $$`;

// One claim for every subscription of a company (what one drain of the company's subscriptions
// delivers, so an event with 50 subscriptions costs one claim, not 50). Claims of one company are
// serialised by a transaction-scoped advisory lock on the company (not the subscriptions' row locks:
// 50 row locks a claim were most of its cost); then, in a statement of its own (a fresh snapshot, so
// claims committed meanwhile are counted), each subscription gets up to its free in-flight slots
// (`p_cap`, across workers) of its oldest due deliveries, answered with what the attempt needs: the
// subscription's URL, headers and own secret, the event's creation time (null once the event was
// pruned) and its payload — on one row per event only (the first by delivery id; 50 subscriptions of
// an event would carry the same text 50 times).
export const HOOKS_CLAIM = `CREATE FUNCTION fieldwork_webhook_hooks_claim(p_company varchar, p_now bigint, p_cap integer, p_locked_until bigint)
      RETURNS TABLE (id varchar, company_id varchar, event_id varchar, failures integer, url varchar, headers jsonb,
                     failing_since bigint, action varchar, form_id varchar, payload text, secret varchar,
                     target_id varchar, event_created_at bigint)
      LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        IF p_cap <= 0 THEN
          RETURN;
        END IF;
        PERFORM pg_advisory_xact_lock(hashtextextended('fieldwork_webhook_hooks_claim:' || p_company, 0));
        RETURN QUERY
          WITH subs AS (
            SELECT s.id, s.url, s.headers, s.failing_since, s.secret FROM webhook_subscriptions s WHERE s.company_id = p_company),
          busy AS (
            SELECT d.endpoint_id AS target, count(*)::int AS n FROM webhook_deliveries d
             WHERE d.endpoint_id IN (SELECT subs.id FROM subs) AND d.state = 'in_flight' AND d.locked_until > p_now
             GROUP BY d.endpoint_id),
          picked AS (
            SELECT x.id FROM subs
              LEFT JOIN busy b ON b.target = subs.id
              CROSS JOIN LATERAL (
                SELECT d.id FROM webhook_deliveries d
                 WHERE d.endpoint_id = subs.id AND d.state = 'pending' AND d.next_attempt_at <= p_now
                 ORDER BY d.next_attempt_at, d.id
                 LIMIT greatest(0, p_cap - coalesce(b.n, 0)) FOR UPDATE OF d) x),
          claimed AS (
            UPDATE webhook_deliveries d SET state = 'in_flight', locked_until = p_locked_until
              FROM picked WHERE d.id = picked.id
            RETURNING d.id, d.company_id, d.event_id, d.failures, d.endpoint_id)
          SELECT c.id, c.company_id, c.event_id, c.failures, subs.url, subs.headers, subs.failing_since, o.action, o.form_id,
                 CASE WHEN row_number() OVER (PARTITION BY c.event_id ORDER BY c.id) = 1 THEN o.payload END,
                 subs.secret, c.endpoint_id, o.created_at
            FROM claimed c
            JOIN subs ON subs.id = c.endpoint_id
            LEFT JOIN outbox_events o ON o.id = c.event_id;
      END $$`;

// Records a group of attempts of a company's subscriptions (as their answers come in: a slow
// subscriber is recorded later, in a group of its own). The subscriptions whose failure streak
// changes (cleared when one of their attempts here was delivered, else started) are row-locked
// first, in id order, and updated — before any delivery row, the order a removal takes (its
// subscription, then its deliveries); a healthy round locks none. Then, only for claims still ours
// (not released by the reconciler, nor abandoned by a removal), each delivery's new state; and
// every attempt row.
export const HOOKS_RECORD = `CREATE FUNCTION fieldwork_webhook_hooks_record(p_company varchar, p_now bigint, p_record jsonb, p_recorded_lock bigint)
      RETURNS void LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        WITH t AS (
          SELECT r.target, bool_or(r.outcome = 'delivered') AS ok
            FROM jsonb_to_recordset(p_record) AS r(target varchar, outcome varchar) GROUP BY r.target),
        changing AS (
          SELECT s.id, t.ok FROM webhook_subscriptions s JOIN t ON t.target = s.id
           WHERE s.company_id = p_company AND (s.failing_since IS NOT NULL) = t.ok
           ORDER BY s.id FOR UPDATE OF s)
        UPDATE webhook_subscriptions s SET failing_since = CASE WHEN changing.ok THEN NULL ELSE p_now END
          FROM changing WHERE s.company_id = p_company AND s.id = changing.id;
        UPDATE webhook_deliveries d SET state = r.state, locked_until = NULL, next_attempt_at = coalesce(r.next, d.next_attempt_at),
               failures = r.failures, last_status = coalesce(r.status, d.last_status), last_error = r.error, finished_at = r.finished,
               attempts = d.attempts + 1
          FROM jsonb_to_recordset(p_record) AS r(id varchar, state varchar, next bigint, failures integer, status integer,
                                                  error varchar, finished bigint)
         WHERE d.id = r.id AND d.state = 'in_flight' AND d.locked_until = p_recorded_lock;
        INSERT INTO webhook_attempts (id, delivery_id, company_id, started_at, duration_ms, http_status, error, outcome)
        SELECT r.attempt, r.id, r.company, r.started, r.duration, r.status, r.error, r.outcome
          FROM jsonb_to_recordset(p_record) AS r(id varchar, company varchar, status integer, error varchar, attempt varchar,
                                                  started bigint, duration integer, outcome varchar);
      END $$`;
