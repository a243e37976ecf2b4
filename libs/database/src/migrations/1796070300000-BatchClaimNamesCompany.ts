import { MigrationInterface, QueryRunner } from 'typeorm';
import { BATCH_ON_COMPANY } from './1796070100000-ClaimsJoinOnCompany';

/**
 * `fieldwork_webhook_batch` takes the endpoint's company (`p_company`, last, default null): a drain
 * point now names it, so the claim's first statement, the endpoint's row lock, is `company_id = … AND
 * id = …` — on a distributed database, one node instead of every node on each round trip of every
 * drain (docs/scaling.md, "Distributed PostgreSQL"); a removed endpoint's leftover deliveries are
 * abandoned within the company too. Null (a drain task queued by the release before) finds the
 * endpoint by id alone, as before. The body is otherwise `ClaimsJoinOnCompany`'s.
 * Online: the signature changes, so DROP then CREATE, in the migration's transaction (a call made
 * meanwhile waits for the commit).
 */
export class BatchClaimNamesCompany1796070300000 implements MigrationInterface {
  name = 'BatchClaimNamesCompany1796070300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION fieldwork_webhook_batch(varchar, bigint, integer, bigint, jsonb, bigint, boolean, varchar)`);
    await q.query(BATCH_WITH_COMPANY);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION fieldwork_webhook_batch(varchar, bigint, integer, bigint, jsonb, bigint, boolean, varchar, varchar)`);
    await q.query(BATCH_ON_COMPANY.replace('CREATE OR REPLACE FUNCTION', 'CREATE FUNCTION'));
  }
}

export const BATCH_WITH_COMPANY = `CREATE FUNCTION fieldwork_webhook_batch(p_endpoint varchar, p_now bigint, p_cap integer, p_locked_until bigint,
                                                           p_record jsonb, p_recorded_lock bigint, p_any_ok boolean,
                                                           p_worker varchar, p_company varchar DEFAULT NULL)
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
        IF p_company IS NULL THEN
          -- a drain task queued before its point named the company
          SELECT e.company_id, e.url, e.headers, e.disabled, e.failing_since INTO ep FROM webhook_endpoints e WHERE e.id = p_endpoint FOR UPDATE;
        ELSE
          SELECT e.company_id, e.url, e.headers, e.disabled, e.failing_since INTO ep FROM webhook_endpoints e
           WHERE e.company_id = p_company AND e.id = p_endpoint FOR UPDATE;
        END IF;
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
        IF NOT found_endpoint AND p_company IS NULL THEN
          UPDATE webhook_deliveries d SET state = 'abandoned', locked_until = NULL, finished_at = p_now, last_error = 'endpoint removed'
           WHERE d.endpoint_id = p_endpoint AND d.state = 'pending';
          RETURN;
        ELSIF NOT found_endpoint THEN
          UPDATE webhook_deliveries d SET state = 'abandoned', locked_until = NULL, finished_at = p_now, last_error = 'endpoint removed'
           WHERE d.company_id = p_company AND d.endpoint_id = p_endpoint AND d.state = 'pending';
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
