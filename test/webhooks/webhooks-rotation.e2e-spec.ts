import { action, createCompany, TestApi } from '../support/api';
import { verifySignature, WebhookReceiver } from '../support/webhook-receiver';
import { useWorkerStack } from '../support/worker-stack';

/**
 * Secret rotation seen by a worker that has just signed for the company (issue #9, defect): from
 * the moment `rotatewebhooksecret` answers, every delivery carries both signatures — the new
 * secret's and the previous one's — however recently the worker signed with the old secret alone.
 * The BUILT worker runs as a child process (scripts/test.sh builds).
 */
const PREFIX = `fieldwork-whrot-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;
process.env.WEBHOOK_ALLOW_PRIVATE = 'true';

describe('webhook secret rotation', () => {
  const stack = useWorkerStack(PREFIX, { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RECONCILE_MS: '500', QUEUE_LOCK_MS: '5000' });
  let api: TestApi;
  let receiver: WebhookReceiver;
  beforeAll(() => ({ api, receiver } = stack));

  it('a delivery made right after rotatewebhooksecret answers carries the new and the previous signature', async () => {
    const c = await createCompany(api);
    const p = `/${c.companyUid}/rotate-warm`;
    expect((await action<any>(api, 'setwebhooks', { job_created: { url: `${receiver.url}${p}` } }, { key: c.key })).body.status).toBe(0);
    let secret = (await action<any>(api, 'getwebhooks', {}, { key: c.key })).body.secret as string;
    // the worker signs for the company once, with the only secret there is
    await action(api, 'createjobs', { jobs: [{ destinationName: 'Before' }] }, { key: c.key });
    const [first] = await receiver.waitFor(p, 1);
    expect(String(first.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifySignature(secret, first)).toBe(true);
    // then two rotations in a row, each followed at once by a delivery
    for (let round = 1; round <= 2; round += 1) {
      const rotated = await action<any>(api, 'rotatewebhooksecret', {}, { key: c.key });
      expect(rotated.body.status).toBe(0);
      await action(api, 'createjobs', { jobs: [{ destinationName: `After rotation ${round}` }] }, { key: c.key });
      const got = (await receiver.waitFor(p, 1 + round))[round];
      expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(verifySignature(rotated.body.secret, got)).toBe(true);
      expect(verifySignature(secret, got)).toBe(true);
      secret = rotated.body.secret;
    }
  });
});
