import { MigrationInterface, QueryRunner } from 'typeorm';
import { BATCH_BY_KEY, replaced } from './1796090000000-ClaimsUpdateByKey';

const PICKED_AS_WAS = 'SELECT d.company_id, d.id FROM webhook_deliveries d';
const CLAIM_BY_KEY = 'WHERE d.company_id = ep.company_id AND d.id = ANY (ARRAY(SELECT picked.id FROM picked))';

/** `fieldwork_webhook_batch` with the claim's update addressing the picked rows by their `ctid`. */
export const BATCH_BY_ROW = (): string =>
  replaced(
    replaced(BATCH_BY_KEY(), PICKED_AS_WAS, 'SELECT d.company_id, d.id, d.ctid AS row_ctid FROM webhook_deliveries d'),
    CLAIM_BY_KEY,
    'FROM picked WHERE d.ctid = picked.row_ctid AND d.company_id = picked.company_id AND d.id = picked.id',
  );

/**
 * The endpoints' batch claim (`fieldwork_webhook_batch`) updates the rows it picked (and locked, `FOR
 * UPDATE` in the same statement) through their `ctid`: a TID scan per picked row, whatever the
 * estimates. By key (`company_id = … AND id = ANY (…)`, ClaimsUpdateByKey) the planner, estimating the
 * company at one row (a table grown since its last ANALYZE; this machine's PostgreSQL runs without
 * autovacuum), read all of the company's deliveries through `IDX_webhook_deliveries_company_created`
 * and filtered them: 868 rows for 4 in the webhooks bench, 0.84 / 0.51 ms a claim against 0.38 / 0.33
 * with the TID scan (EXPLAIN ANALYZE of the generic plan, alternating, 2026-11-28). A locked row cannot
 * be moved by another transaction before this statement's update; the key is still compared (and the
 * company named, CONTRACTS "joins carry the company"). Online: `CREATE OR REPLACE` of one function.
 */
export class BatchClaimByRow1796110000000 implements MigrationInterface {
  name = 'BatchClaimByRow1796110000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(BATCH_BY_ROW());
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(BATCH_BY_KEY());
  }
}
