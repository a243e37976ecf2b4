import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Claims name their worker (issue #29, item 4: a worker killed mid-delivery). `webhook_deliveries`
 * gains `claimed_by` (the claiming worker's heartbeat id, `worker_heartbeats.id`; null when not in
 * flight), written by both claims — `fieldwork_webhook_batch` (a key's endpoint) and
 * `fieldwork_webhook_hooks_claim` (a company's REST hooks) — from a new last argument `p_worker`.
 * The reconciler then releases the claims of a worker whose heartbeat stopped, without waiting for
 * their `locked_until` (docs/webhooks-internals.md, "A worker killed mid-delivery"). The bodies are
 * otherwise those of `AddWebhookBatchSecrets` and `HookClaimStampedAt`. Online: a nullable column
 * without a default (no rewrite) and two function swaps in the migration's transaction.
 */
export class ClaimsNameTheirWorker1796060042000 implements MigrationInterface {
  name = 'ClaimsNameTheirWorker1796060042000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhook_deliveries" ADD "claimed_by" character varying(200)`);
    await q.query(`DROP FUNCTION fieldwork_webhook_batch(varchar, bigint, integer, bigint, jsonb, bigint, boolean)`);
    await q.query(BATCH_WITH_WORKER);
    await q.query(`DROP FUNCTION fieldwork_webhook_hooks_claim(varchar, bigint, integer, bigint)`);
    await q.query(HOOKS_CLAIM_WITH_WORKER);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION fieldwork_webhook_hooks_claim(varchar, bigint, integer, bigint, varchar)`);
    await q.query(HOOKS_CLAIM_STAMPED);
    await q.query(`DROP FUNCTION fieldwork_webhook_batch(varchar, bigint, integer, bigint, jsonb, bigint, boolean, varchar)`);
    await q.query(BATCH_WITH_SECRETS);
    await q.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "claimed_by"`);
  }
}

export const BATCH_WITH_WORKER = `CREATE FUNCTION fieldwork_webhook_batch(p_endpoint varchar, p_now bigint, p_cap integer, p_locked_until bigint,
                                                           p_record jsonb, p_recorded_lock bigint, p_any_ok boolean,
                                                           p_worker varchar)
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
            UPDATE webhook_deliveries d SET state = 'in_flight', locked_until = p_locked_until, claimed_by = p_worker
              FROM picked WHERE d.id = picked.id
            RETURNING d.id, d.company_id, d.event_id, d.failures)
          SELECT c.id, c.company_id, c.event_id, c.failures, ep.url, ep.headers, ep.failing_since, o.action, o.form_id, o.payload,
                 s_secret, s_previous, s_expires
            FROM claimed c LEFT JOIN outbox_events o ON o.id = c.event_id;
      END $$`;

export const HOOKS_CLAIM_WITH_WORKER = `CREATE FUNCTION fieldwork_webhook_hooks_claim(p_company varchar, p_now bigint, p_cap integer, p_locked_until bigint,
                                                                p_worker varchar)
      RETURNS TABLE (id varchar, company_id varchar, event_id varchar, failures integer, url varchar, headers jsonb,
                     failing_since bigint, action varchar, form_id varchar, payload text, secret varchar,
                     target_id varchar, event_created_at bigint, event_stamped_at bigint)
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
            UPDATE webhook_deliveries d SET state = 'in_flight', locked_until = p_locked_until, claimed_by = p_worker
              FROM picked WHERE d.id = picked.id
            RETURNING d.id, d.company_id, d.event_id, d.failures, d.endpoint_id)
          SELECT c.id, c.company_id, c.event_id, c.failures, subs.url, subs.headers, subs.failing_since, o.action, o.form_id,
                 CASE WHEN row_number() OVER (PARTITION BY c.event_id ORDER BY c.id) = 1 THEN o.payload END,
                 subs.secret, c.endpoint_id, o.created_at, o.stamped_at
            FROM claimed c
            JOIN subs ON subs.id = c.endpoint_id
            LEFT JOIN outbox_events o ON o.company_id = c.company_id AND o.id = c.event_id;
      END $$`;

/** As \`AddWebhookBatchSecrets\` made it. */
const BATCH_WITH_SECRETS = `CREATE FUNCTION fieldwork_webhook_batch(p_endpoint varchar, p_now bigint, p_cap integer, p_locked_until bigint,
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

/** As \`HookClaimStampedAt\` made it. */
const HOOKS_CLAIM_STAMPED = `CREATE FUNCTION fieldwork_webhook_hooks_claim(p_company varchar, p_now bigint, p_cap integer, p_locked_until bigint)
      RETURNS TABLE (id varchar, company_id varchar, event_id varchar, failures integer, url varchar, headers jsonb,
                     failing_since bigint, action varchar, form_id varchar, payload text, secret varchar,
                     target_id varchar, event_created_at bigint, event_stamped_at bigint)
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
                 subs.secret, c.endpoint_id, o.created_at, o.stamped_at
            FROM claimed c
            JOIN subs ON subs.id = c.endpoint_id
            LEFT JOIN outbox_events o ON o.company_id = c.company_id AND o.id = c.event_id;
      END $$`;
