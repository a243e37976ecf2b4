import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `fieldwork_webhook_hooks_step`: a REST hooks drain's record-and-claim in one round trip (issue #29
 * item 5; docs/webhooks-internals.md, "Keeping the slots busy") — records the answers given
 * (`fieldwork_webhook_hooks_record`), then claims into the slots they freed
 * (`fieldwork_webhook_hooks_claim`, its own statement, so a fresh snapshot that sees the records), as
 * `fieldwork_webhook_batch` does for an endpoint. Both are called by name, unchanged: a later
 * migration that drops either (a signature change) must re-create this one too. Online: a new
 * function, nothing else touched.
 */
export class HookRecordAndClaim1796080500000 implements MigrationInterface {
  name = 'HookRecordAndClaim1796080500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(HOOKS_STEP);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION fieldwork_webhook_hooks_step(varchar, bigint, jsonb, bigint, integer, bigint, varchar)`);
  }
}

const HOOKS_STEP = `CREATE FUNCTION fieldwork_webhook_hooks_step(p_company varchar, p_now bigint, p_record jsonb, p_recorded_lock bigint,
                                                       p_cap integer, p_locked_until bigint, p_worker varchar)
      RETURNS TABLE (id varchar, company_id varchar, event_id varchar, failures integer, url varchar, headers jsonb,
                     failing_since bigint, action varchar, form_id varchar, payload text, secret varchar,
                     target_id varchar, event_created_at bigint, event_stamped_at bigint)
      LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        PERFORM fieldwork_webhook_hooks_record(p_company, p_now, p_record, p_recorded_lock);
        RETURN QUERY SELECT * FROM fieldwork_webhook_hooks_claim(p_company, p_now, p_cap, p_locked_until, p_worker);
      END $$`;
