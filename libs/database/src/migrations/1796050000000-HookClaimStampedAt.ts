import { MigrationInterface, QueryRunner } from 'typeorm';
import { HOOKS_CLAIM } from './1796047300000-CreateWebhookSubscriptions';

/**
 * REST hooks' claim (`fieldwork_webhook_hooks_claim`) also answers each event's commit-ordered stamp
 * (`outbox_events.stamped_at`, ms; null before stamping): a hook body's item carries it as
 * `createdAt`, as the polling routes list the item (docs/connector.md, "REST hooks"). Its join to the
 * outbox now includes `company_id` (per-company tables are joined on it: CONTRACTS "Wave 3: scale").
 * Online: a function swap (the return type changes, so DROP then CREATE, in the migration's transaction).
 */
export class HookClaimStampedAt1796050000000 implements MigrationInterface {
  name = 'HookClaimStampedAt1796050000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION fieldwork_webhook_hooks_claim(varchar, bigint, integer, bigint)`);
    await q.query(HOOKS_CLAIM_STAMPED);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION fieldwork_webhook_hooks_claim(varchar, bigint, integer, bigint)`);
    await q.query(HOOKS_CLAIM);
  }
}

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
