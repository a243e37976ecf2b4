import { MigrationInterface, QueryRunner } from 'typeorm';
import { HOOKS_CLAIM_ON_COMPANY } from './1796070100000-ClaimsJoinOnCompany';
import { BATCH_WITH_COMPANY } from './1796070300000-BatchClaimNamesCompany';

/** The claims' UPDATE as it was: the picked rows joined back. */
const HOOKS_JOINED = 'FROM picked WHERE d.company_id = p_company AND d.id = picked.id';
const BATCH_JOINED = 'FROM picked WHERE d.company_id = picked.company_id AND d.id = picked.id';

/** `fieldwork_webhook_batch` as this migration defines it (a later migration edits it further). */
export const BATCH_BY_KEY = (): string =>
  replaced(
    BATCH_WITH_COMPANY.replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION'),
    BATCH_JOINED,
    'WHERE d.company_id = ep.company_id AND d.id = ANY (ARRAY(SELECT picked.id FROM picked))',
  );

/** `fieldwork_webhook_hooks_claim` as this migration defines it (a later migration edits it further). */
export const HOOKS_CLAIM_BY_KEY = (): string =>
  replaced(HOOKS_CLAIM_ON_COMPANY, HOOKS_JOINED, 'WHERE d.company_id = p_company AND d.id = ANY (ARRAY(SELECT picked.id FROM picked))');

/**
 * The webhook claims update the rows they picked (and locked) through their keys — `company_id = …
 * AND id = ANY (ARRAY(SELECT id FROM picked))`, index probes on the primary key — instead of joining
 * `picked` back. With estimates of one row (a table grown since its last ANALYZE: a new deployment, or
 * this machine's PostgreSQL, which runs without autovacuum) the join walked every delivery of the
 * company and compared each with every picked row: 1,000 × 20 in the mixed load, 6–9 ms of a 18-ms
 * REST hooks claim (auto_explain, 2026-11-28). The answer, locks and order are unchanged.
 * Online: `CREATE OR REPLACE` of two functions, in the migration's transaction.
 */
export class ClaimsUpdateByKey1796090000000 implements MigrationInterface {
  name = 'ClaimsUpdateByKey1796090000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(HOOKS_CLAIM_BY_KEY());
    await q.query(BATCH_BY_KEY());
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(HOOKS_CLAIM_ON_COMPANY);
    await q.query(BATCH_WITH_COMPANY.replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION'));
  }
}

/** `sql` with its one occurrence of `from` replaced. @throws Error when `from` is not found exactly once */
export function replaced(sql: string, from: string, to: string): string {
  const parts = sql.split(from);
  if (parts.length !== 2) throw new Error(`expected one "${from}" in the function, found ${parts.length - 1}`);
  return parts.join(to);
}
