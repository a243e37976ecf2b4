import { MigrationInterface, QueryRunner } from 'typeorm';
import { HOOKS_CLAIM_BY_KEY, replaced } from './1796090000000-ClaimsUpdateByKey';

const SLOTS_LEFT = 'LIMIT greatest(0, p_cap - coalesce(b.n, 0)) FOR UPDATE OF d) x)';
// `busy` has a row only for a subscription with a live claim: none there means nothing in flight
const ONLY_WHEN_FREE = 'LIMIT CASE WHEN b.n IS NULL THEN p_cap ELSE 0 END FOR UPDATE OF d) x)';

const RETURNED = 'RETURNING d.id, d.company_id, d.event_id, d.failures, d.endpoint_id)';
const RETURNED_DUE = 'RETURNING d.id, d.company_id, d.event_id, d.failures, d.endpoint_id, d.next_attempt_at)';

const UNORDERED = 'LEFT JOIN outbox_events o ON o.company_id = c.company_id AND o.id = c.event_id;';
const BY_SUBSCRIPTION = `LEFT JOIN outbox_events o ON o.company_id = c.company_id AND o.id = c.event_id
           ORDER BY c.endpoint_id, c.next_attempt_at, c.id;`;

/** `fieldwork_webhook_hooks_claim` claiming `p_cap` of a subscription's deliveries only when none of its is in flight, answered in order. */
export const HOOKS_CLAIM_ONLY_WHEN_FREE = (): string =>
  replaced(replaced(replaced(HOOKS_CLAIM_BY_KEY(), SLOTS_LEFT, ONLY_WHEN_FREE), RETURNED, RETURNED_DUE), UNORDERED, BY_SUBSCRIPTION);

/**
 * The REST hooks' claim (`fieldwork_webhook_hooks_claim`) gives a subscription deliveries only when
 * nothing of it is in flight (a live claim: `in_flight`, `locked_until` ahead), and then up to `p_cap`
 * of its oldest due ones — which the drain now sets to `WEBHOOK_CLAIM_ROUNDS ×
 * WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT` and sends `cap` at a time per subscription, as the endpoints'
 * drain does since `ClaimOnlyWhenFree` (docs/webhooks-internals.md, "REST hooks: a claim larger than
 * the cap"). Before, each claim took the slots left (`p_cap − in flight`), so a burst of 100 events to 5
 * subscriptions took 25 claims and 25 records of 20 deliveries. One holder per subscription keeps its
 * cap of concurrent requests whatever the claim's size. The answer is now ordered (subscription, then
 * due time, then id), so the drain sends each subscription's deliveries oldest first. Signature, locks
 * and the answer's columns are unchanged. Online: `CREATE OR REPLACE` of one function.
 */
export class HookClaimOnlyWhenFree1796130000000 implements MigrationInterface {
  name = 'HookClaimOnlyWhenFree1796130000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(HOOKS_CLAIM_ONLY_WHEN_FREE());
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(HOOKS_CLAIM_BY_KEY());
  }
}
