import { MigrationInterface, QueryRunner } from 'typeorm';
import { HOOKS_RECORD } from './1796047300000-CreateWebhookSubscriptions';
import { BATCH_WITH_WORKER, HOOKS_CLAIM_WITH_WORKER } from './1796060042000-ClaimsNameTheirWorker';

/**
 * The webhook claims join per-company tables on `company_id` (CONTRACTS "Wave 3: scale"; issue #29,
 * item 2): `fieldwork_webhook_batch` joined the outbox by the event id alone and matched deliveries by
 * endpoint or delivery id alone; now every statement on `webhook_deliveries`, `webhook_endpoints` and
 * `outbox_events` names the company (the endpoint's, `ep.company_id`, or the record's `company`), so
 * on a distributed database each runs on the company's node. `fieldwork_webhook_hooks_claim` and
 * `fieldwork_webhook_hooks_record` also name `p_company` on every delivery statement. Signatures and
 * answers are unchanged, but for the batch claim's order, now stated (oldest due first, as claimed)
 * rather than left to the plan (the join on the new keys changed it). One exception left as it was: a removed endpoint's leftover deliveries are
 * abandoned by endpoint id alone (its company is gone with its row; rare, docs/scaling.md).
 * Online: `CREATE OR REPLACE` of three functions, in the migration's transaction.
 */
export class ClaimsJoinOnCompany1796070100000 implements MigrationInterface {
  name = 'ClaimsJoinOnCompany1796070100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(BATCH_ON_COMPANY);
    await q.query(HOOKS_CLAIM_ON_COMPANY);
    await q.query(HOOKS_RECORD_ON_COMPANY);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(HOOKS_RECORD.replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION'));
    await q.query(HOOKS_CLAIM_WITH_WORKER.replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION'));
    await q.query(BATCH_WITH_WORKER.replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION'));
  }
}

export const BATCH_ON_COMPANY = `CREATE OR REPLACE FUNCTION fieldwork_webhook_batch(p_endpoint varchar, p_now bigint, p_cap integer, p_locked_until bigint,
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
            FROM jsonb_to_recordset(p_record) AS r(id varchar, company varchar, state varchar, next bigint, failures integer,
                                                    status integer, error varchar, finished bigint)
           WHERE d.company_id = r.company AND d.id = r.id AND d.state = 'in_flight' AND d.locked_until = p_recorded_lock;
          INSERT INTO webhook_attempts (id, delivery_id, company_id, started_at, duration_ms, http_status, error, outcome)
          SELECT r.attempt, r.id, r.company, r.started, r.duration, r.status, r.error, r.outcome
            FROM jsonb_to_recordset(p_record) AS r(id varchar, company varchar, status integer, error varchar, attempt varchar,
                                                    started bigint, duration integer, outcome varchar);
          IF found_endpoint THEN
            IF p_any_ok THEN
              UPDATE webhook_endpoints e SET failing_since = NULL WHERE e.company_id = ep.company_id AND e.id = p_endpoint AND e.failing_since IS NOT NULL;
              ep.failing_since := NULL;
            ELSE
              UPDATE webhook_endpoints e SET failing_since = p_now WHERE e.company_id = ep.company_id AND e.id = p_endpoint AND e.failing_since IS NULL;
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
           WHERE d.company_id = ep.company_id AND d.endpoint_id = p_endpoint AND d.state = 'pending';
          RETURN;
        END IF;
        SELECT p_cap - count(*) INTO room FROM webhook_deliveries d
         WHERE d.company_id = ep.company_id AND d.endpoint_id = p_endpoint AND d.state = 'in_flight' AND d.locked_until > p_now;
        IF room <= 0 THEN
          RETURN;
        END IF;
        -- the company's secrets as committed now (a statement of its own, so a fresh snapshot): a
        -- rotation that has answered signs every delivery claimed after it
        SELECT s.secret, s.previous_secret, s.previous_expires_at INTO s_secret, s_previous, s_expires
          FROM webhook_secrets s WHERE s.company_id = ep.company_id;
        RETURN QUERY
          WITH picked AS (
            SELECT d.company_id, d.id FROM webhook_deliveries d
             WHERE d.company_id = ep.company_id AND d.endpoint_id = p_endpoint AND d.state = 'pending' AND d.next_attempt_at <= p_now
             ORDER BY d.next_attempt_at, d.id LIMIT room FOR UPDATE),
          claimed AS (
            UPDATE webhook_deliveries d SET state = 'in_flight', locked_until = p_locked_until, claimed_by = p_worker
              FROM picked WHERE d.company_id = picked.company_id AND d.id = picked.id
            RETURNING d.id, d.company_id, d.event_id, d.failures, d.next_attempt_at)
          SELECT c.id, c.company_id, c.event_id, c.failures, ep.url, ep.headers, ep.failing_since, o.action, o.form_id, o.payload,
                 s_secret, s_previous, s_expires
            FROM claimed c LEFT JOIN outbox_events o ON o.company_id = c.company_id AND o.id = c.event_id
           ORDER BY c.next_attempt_at, c.id;
      END $$`;

export const HOOKS_CLAIM_ON_COMPANY = `CREATE OR REPLACE FUNCTION fieldwork_webhook_hooks_claim(p_company varchar, p_now bigint, p_cap integer, p_locked_until bigint,
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
             WHERE d.company_id = p_company AND d.endpoint_id IN (SELECT subs.id FROM subs) AND d.state = 'in_flight' AND d.locked_until > p_now
             GROUP BY d.endpoint_id),
          picked AS (
            SELECT x.id FROM subs
              LEFT JOIN busy b ON b.target = subs.id
              CROSS JOIN LATERAL (
                SELECT d.id FROM webhook_deliveries d
                 WHERE d.company_id = p_company AND d.endpoint_id = subs.id AND d.state = 'pending' AND d.next_attempt_at <= p_now
                 ORDER BY d.next_attempt_at, d.id
                 LIMIT greatest(0, p_cap - coalesce(b.n, 0)) FOR UPDATE OF d) x),
          claimed AS (
            UPDATE webhook_deliveries d SET state = 'in_flight', locked_until = p_locked_until, claimed_by = p_worker
              FROM picked WHERE d.company_id = p_company AND d.id = picked.id
            RETURNING d.id, d.company_id, d.event_id, d.failures, d.endpoint_id)
          SELECT c.id, c.company_id, c.event_id, c.failures, subs.url, subs.headers, subs.failing_since, o.action, o.form_id,
                 CASE WHEN row_number() OVER (PARTITION BY c.event_id ORDER BY c.id) = 1 THEN o.payload END,
                 subs.secret, c.endpoint_id, o.created_at, o.stamped_at
            FROM claimed c
            JOIN subs ON subs.id = c.endpoint_id
            LEFT JOIN outbox_events o ON o.company_id = c.company_id AND o.id = c.event_id;
      END $$`;

const HOOKS_RECORD_ON_COMPANY = `CREATE OR REPLACE FUNCTION fieldwork_webhook_hooks_record(p_company varchar, p_now bigint, p_record jsonb, p_recorded_lock bigint)
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
         WHERE d.company_id = p_company AND d.id = r.id AND d.state = 'in_flight' AND d.locked_until = p_recorded_lock;
        INSERT INTO webhook_attempts (id, delivery_id, company_id, started_at, duration_ms, http_status, error, outcome)
        SELECT r.attempt, r.id, r.company, r.started, r.duration, r.status, r.error, r.outcome
          FROM jsonb_to_recordset(p_record) AS r(id varchar, company varchar, status integer, error varchar, attempt varchar,
                                                  started bigint, duration integer, outcome varchar);
      END $$`;
