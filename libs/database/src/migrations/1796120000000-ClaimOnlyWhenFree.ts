import { MigrationInterface, QueryRunner } from 'typeorm';
import { replaced } from './1796090000000-ClaimsUpdateByKey';
import { BATCH_BY_ROW } from './1796110000000-BatchClaimByRow';

const ROOM_LEFT = `SELECT p_cap - count(*) INTO room FROM webhook_deliveries d
         WHERE d.company_id = ep.company_id AND d.endpoint_id = p_endpoint AND d.state = 'in_flight' AND d.locked_until > p_now;
        IF room <= 0 THEN
          RETURN;
        END IF;`;

const ONLY_WHEN_FREE = `-- one holder per endpoint: a claim only while nothing of the endpoint is in flight, so the
        -- holder's cap of concurrent requests is the endpoint's, whatever the claim's size (p_cap)
        IF EXISTS (SELECT 1 FROM webhook_deliveries d
                    WHERE d.company_id = ep.company_id AND d.endpoint_id = p_endpoint AND d.state = 'in_flight'
                      AND d.locked_until > p_now) THEN
          RETURN;
        END IF;
        room := p_cap;`;

/** `fieldwork_webhook_batch` claiming `p_cap` deliveries only when none of the endpoint's is in flight. */
export const BATCH_ONLY_WHEN_FREE = (): string => replaced(BATCH_BY_ROW(), ROOM_LEFT, ONLY_WHEN_FREE);

/**
 * The endpoints' batch claim (`fieldwork_webhook_batch`) claims only when nothing of the endpoint is in
 * flight (a live claim: `in_flight`, `locked_until` ahead), and then up to `p_cap` — which the drain now
 * sets to `WEBHOOK_CLAIM_ROUNDS × WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT` and sends `cap` at a time
 * (docs/webhooks-internals.md, "A claim larger than the cap"). Before, it claimed the slots left
 * (`p_cap − in flight`), so two workers could share an endpoint's cap; with claims larger than the cap
 * that would let two holders each send `cap` at once. The drain records its previous claim in the same
 * call before it claims again, so its own claims never hold it back. Signature, answer and locks are
 * unchanged. Online: `CREATE OR REPLACE` of one function.
 */
export class ClaimOnlyWhenFree1796120000000 implements MigrationInterface {
  name = 'ClaimOnlyWhenFree1796120000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(BATCH_ONLY_WHEN_FREE());
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(BATCH_BY_ROW());
  }
}
