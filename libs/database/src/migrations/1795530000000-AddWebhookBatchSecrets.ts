import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `fieldwork_webhook_batch` also answers the company's signing secrets (newest, previous, and when
 * the previous stops signing), read in the claim's round trip. Workers used to keep the secrets for
 * 2 s, so a delivery sent just after `rotatewebhooksecret` answered could carry the old signature
 * alone; now every delivery claimed after a rotation commits is signed with both, at no extra round
 * trip. The function's body is otherwise the one of `WebhookBatchClaim`.
 */
export class AddWebhookBatchSecrets1795530000000 implements MigrationInterface {
  name = 'AddWebhookBatchSecrets1795530000000';

  async up(q: QueryRunner): Promise<void> {
    // the answer's columns change: a new function, not CREATE OR REPLACE
    await q.query(`DROP FUNCTION fieldwork_webhook_batch(varchar, bigint, integer, bigint, jsonb, bigint, boolean)`);
    await q.query(NEW_FUNCTION);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION fieldwork_webhook_batch(varchar, bigint, integer, bigint, jsonb, bigint, boolean)`);
    await q.query(OLD_FUNCTION);
  }
}

const NEW_FUNCTION = `CREATE FUNCTION fieldwork_webhook_batch(p_endpoint varchar, p_now bigint, p_cap integer, p_locked_until bigint,
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

/** As `WebhookBatchClaim` made it. */
const OLD_FUNCTION = `CREATE FUNCTION fieldwork_webhook_batch(p_endpoint varchar, p_now bigint, p_cap integer, p_locked_until bigint,
                                                           p_record jsonb, p_recorded_lock bigint, p_any_ok boolean)
      RETURNS TABLE (id varchar, company_id varchar, event_id varchar, failures integer, url varchar, headers jsonb,
                     failing_since bigint, action varchar, form_id varchar, payload text)
      LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        ep record;
        found_endpoint boolean;
        room integer;
      BEGIN
        SELECT e.url, e.headers, e.disabled, e.failing_since INTO ep FROM webhook_endpoints e WHERE e.id = p_endpoint FOR UPDATE;
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
        RETURN QUERY
          WITH picked AS (
            SELECT d.id FROM webhook_deliveries d
             WHERE d.endpoint_id = p_endpoint AND d.state = 'pending' AND d.next_attempt_at <= p_now
             ORDER BY d.next_attempt_at, d.id LIMIT room FOR UPDATE),
          claimed AS (
            UPDATE webhook_deliveries d SET state = 'in_flight', locked_until = p_locked_until
              FROM picked WHERE d.id = picked.id
            RETURNING d.id, d.company_id, d.event_id, d.failures)
          SELECT c.id, c.company_id, c.event_id, c.failures, ep.url, ep.headers, ep.failing_since, o.action, o.form_id, o.payload
            FROM claimed c LEFT JOIN outbox_events o ON o.id = c.event_id;
      END $$`;
