import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * REST hooks (CONTRACTS.md "Wave 3: connector for automation platforms"; docs/connector.md "REST
 * hooks"): `webhook_subscriptions` (per company: `company_id` leads the primary key), deliveries
 * that name their target (`webhook_deliveries.target`: `endpoint` — the nine keys, as before — or
 * `subscription`), the outbox trigger's fan-out to both, and `fieldwork_webhook_batch` claiming for
 * either (it answers the target, the event's creation time and, for a subscription, its own secret).
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
    await q.query(`DROP FUNCTION fieldwork_webhook_batch(varchar, bigint, integer, bigint, jsonb, bigint, boolean)`);
    await q.query(BATCH_BOTH);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION fieldwork_webhook_batch(varchar, bigint, integer, bigint, jsonb, bigint, boolean)`);
    await q.query(BATCH_ENDPOINTS_ONLY);
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

// `AddWebhookBatchSecrets`' function for either target: `p_endpoint` names a nine-key endpoint or a
// subscription (ULIDs: never both). The target's row lock comes first, as before; a subscription
// signs with its own secret (no rotation, so no previous one) and is never disabled (a 410 or five
// days of failure delete it: the drain does that). Answers also the target and the event's creation
// time (ms, the REST hook body's `ts`).
const BATCH_BOTH = `CREATE FUNCTION fieldwork_webhook_batch(p_endpoint varchar, p_now bigint, p_cap integer, p_locked_until bigint,
                                                           p_record jsonb, p_recorded_lock bigint, p_any_ok boolean)
      RETURNS TABLE (id varchar, company_id varchar, event_id varchar, failures integer, url varchar, headers jsonb,
                     failing_since bigint, action varchar, form_id varchar, payload text,
                     secret varchar, previous_secret varchar, previous_expires_at bigint,
                     target varchar, event_created_at bigint)
      LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        ep record;
        found_target boolean;
        is_subscription boolean := false;
        room integer;
        s_secret varchar;
        s_previous varchar;
        s_expires bigint;
      BEGIN
        SELECT e.company_id, e.url, e.headers, e.disabled, e.failing_since, NULL::varchar AS secret
          INTO ep FROM webhook_endpoints e WHERE e.id = p_endpoint FOR UPDATE;
        found_target := FOUND;
        IF NOT found_target THEN
          SELECT s.company_id, s.url, s.headers, false AS disabled, s.failing_since, s.secret
            INTO ep FROM webhook_subscriptions s WHERE s.id = p_endpoint FOR UPDATE;
          found_target := FOUND;
          is_subscription := FOUND;
        END IF;
        IF p_record IS NOT NULL THEN
          -- only claims still ours: not released by the reconciler, nor abandoned by a removal
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
          IF found_target AND is_subscription THEN
            IF p_any_ok THEN
              UPDATE webhook_subscriptions s SET failing_since = NULL WHERE s.id = p_endpoint AND s.failing_since IS NOT NULL;
              ep.failing_since := NULL;
            ELSE
              UPDATE webhook_subscriptions s SET failing_since = p_now WHERE s.id = p_endpoint AND s.failing_since IS NULL;
              ep.failing_since := coalesce(ep.failing_since, p_now);
            END IF;
          ELSIF found_target THEN
            IF p_any_ok THEN
              UPDATE webhook_endpoints e SET failing_since = NULL WHERE e.id = p_endpoint AND e.failing_since IS NOT NULL;
              ep.failing_since := NULL;
            ELSE
              UPDATE webhook_endpoints e SET failing_since = p_now WHERE e.id = p_endpoint AND e.failing_since IS NULL;
              ep.failing_since := coalesce(ep.failing_since, p_now);
            END IF;
          END IF;
        END IF;
        IF p_cap <= 0 THEN
          RETURN;
        END IF;
        -- normally done when the key or subscription was removed or the key disabled; this catches deliveries made meanwhile
        IF NOT found_target THEN
          UPDATE webhook_deliveries d SET state = 'abandoned', locked_until = NULL, finished_at = p_now,
                 last_error = CASE d.target WHEN 'subscription' THEN 'subscription removed' ELSE 'endpoint removed' END
           WHERE d.endpoint_id = p_endpoint AND d.state = 'pending';
          RETURN;
        END IF;
        IF ep.disabled THEN
          UPDATE webhook_deliveries d SET state = 'abandoned', locked_until = NULL, finished_at = p_now, last_error = 'endpoint disabled'
           WHERE d.endpoint_id = p_endpoint AND d.state = 'pending';
          RETURN;
        END IF;
        SELECT p_cap - count(*) INTO room FROM webhook_deliveries d
         WHERE d.endpoint_id = p_endpoint AND d.state = 'in_flight' AND d.locked_until > p_now;
        IF room <= 0 THEN
          RETURN;
        END IF;
        IF is_subscription THEN
          s_secret := ep.secret;
        ELSE
          -- the company's secrets as committed now (a statement of its own, so a fresh snapshot): a
          -- rotation that has answered signs every delivery claimed after it
          SELECT ws.secret, ws.previous_secret, ws.previous_expires_at INTO s_secret, s_previous, s_expires
            FROM webhook_secrets ws WHERE ws.company_id = ep.company_id;
        END IF;
        RETURN QUERY
          WITH picked AS (
            SELECT d.id FROM webhook_deliveries d
             WHERE d.endpoint_id = p_endpoint AND d.state = 'pending' AND d.next_attempt_at <= p_now
             ORDER BY d.next_attempt_at, d.id LIMIT room FOR UPDATE),
          claimed AS (
            UPDATE webhook_deliveries d SET state = 'in_flight', locked_until = p_locked_until
              FROM picked WHERE d.id = picked.id
            RETURNING d.id, d.company_id, d.event_id, d.failures)
          SELECT c.id, c.company_id, c.event_id, c.failures, ep.url, ep.headers, ep.failing_since, o.action, o.form_id, o.payload,
                 s_secret, s_previous, s_expires,
                 (CASE WHEN is_subscription THEN 'subscription' ELSE 'endpoint' END)::varchar, o.created_at
            FROM claimed c LEFT JOIN outbox_events o ON o.id = c.event_id;
      END $$`;

/** As `AddWebhookBatchSecrets` made it. */
const BATCH_ENDPOINTS_ONLY = `CREATE FUNCTION fieldwork_webhook_batch(p_endpoint varchar, p_now bigint, p_cap integer, p_locked_until bigint,
                                                           p_record jsonb, p_recorded_lock bigint, p_any_ok boolean)
      RETURNS TABLE (id varchar, company_id varchar, event_id varchar, failures integer, url varchar, headers jsonb,
                     failing_since bigint, action varchar, form_id varchar, payload text,
                     secret varchar, previous_secret varchar, previous_expires_at bigint)
      LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        ep record;
        found_endpoint boolean;
        room integer;
        s_secret varchar;
        s_previous varchar;
        s_expires bigint;
      BEGIN
        SELECT e.company_id, e.url, e.headers, e.disabled, e.failing_since INTO ep FROM webhook_endpoints e WHERE e.id = p_endpoint FOR UPDATE;
        found_endpoint := FOUND;
        IF p_record IS NOT NULL THEN
          -- only claims still ours: not released by the reconciler, nor abandoned by a key's removal
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
          IF found_endpoint THEN
            IF p_any_ok THEN
              UPDATE webhook_endpoints e SET failing_since = NULL WHERE e.id = p_endpoint AND e.failing_since IS NOT NULL;
              ep.failing_since := NULL;
            ELSE
              UPDATE webhook_endpoints e SET failing_since = p_now WHERE e.id = p_endpoint AND e.failing_since IS NULL;
              ep.failing_since := coalesce(ep.failing_since, p_now);
            END IF;
          END IF;
        END IF;
        IF p_cap <= 0 THEN
          RETURN;
        END IF;
        -- normally done when the key was removed or disabled; this catches deliveries made meanwhile
        IF NOT found_endpoint THEN
          UPDATE webhook_deliveries d SET state = 'abandoned', locked_until = NULL, finished_at = p_now, last_error = 'endpoint removed'
           WHERE d.endpoint_id = p_endpoint AND d.state = 'pending';
          RETURN;
        END IF;
        IF ep.disabled THEN
          UPDATE webhook_deliveries d SET state = 'abandoned', locked_until = NULL, finished_at = p_now, last_error = 'endpoint disabled'
           WHERE d.endpoint_id = p_endpoint AND d.state = 'pending';
          RETURN;
        END IF;
        SELECT p_cap - count(*) INTO room FROM webhook_deliveries d
         WHERE d.endpoint_id = p_endpoint AND d.state = 'in_flight' AND d.locked_until > p_now;
        IF room <= 0 THEN
          RETURN;
        END IF;
        -- the company's secrets as committed now (a statement of its own, so a fresh snapshot): a
        -- rotation that has answered signs every delivery claimed after it
        SELECT s.secret, s.previous_secret, s.previous_expires_at INTO s_secret, s_previous, s_expires
          FROM webhook_secrets s WHERE s.company_id = ep.company_id;
        RETURN QUERY
          WITH picked AS (
            SELECT d.id FROM webhook_deliveries d
             WHERE d.endpoint_id = p_endpoint AND d.state = 'pending' AND d.next_attempt_at <= p_now
             ORDER BY d.next_attempt_at, d.id LIMIT room FOR UPDATE),
          claimed AS (
            UPDATE webhook_deliveries d SET state = 'in_flight', locked_until = p_locked_until
              FROM picked WHERE d.id = picked.id
            RETURNING d.id, d.company_id, d.event_id, d.failures)
          SELECT c.id, c.company_id, c.event_id, c.failures, ep.url, ep.headers, ep.failing_since, o.action, o.form_id, o.payload,
                 s_secret, s_previous, s_expires
            FROM claimed c LEFT JOIN outbox_events o ON o.id = c.event_id;
      END $$`;
