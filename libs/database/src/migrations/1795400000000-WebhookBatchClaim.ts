import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Batched webhook delivery: `fieldwork_claim_webhook_deliveries` claims, in one round trip, up to an
 * endpoint's free in-flight slots of its oldest due deliveries, with everything an attempt needs; the
 * due-deliveries index gains `next_attempt_at` so the claim reads them in order.
 */
export class WebhookBatchClaim1795400000000 implements MigrationInterface {
  name = 'WebhookBatchClaim1795400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."IDX_webhook_deliveries_endpoint_state"`);
    await q.query(
      `CREATE INDEX "IDX_webhook_deliveries_endpoint_state" ON "webhook_deliveries" ("endpoint_id", "state", "next_attempt_at") `,
    );
    // Each statement of a VOLATILE plpgsql function takes a new snapshot (READ COMMITTED), so the
    // in-flight count below sees every claim committed before this one got the endpoint's row lock:
    // the lock serialises claims per endpoint and the cap holds across workers.
    await q.query(`CREATE FUNCTION fieldwork_claim_webhook_deliveries(p_endpoint varchar, p_now bigint, p_cap integer, p_locked_until bigint)
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
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION fieldwork_claim_webhook_deliveries(varchar, bigint, integer, bigint)`);
    await q.query(`DROP INDEX "public"."IDX_webhook_deliveries_endpoint_state"`);
    await q.query(`CREATE INDEX "IDX_webhook_deliveries_endpoint_state" ON "webhook_deliveries" ("endpoint_id", "state") `);
  }
}
