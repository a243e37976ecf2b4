import { AppConfig } from '@app/core';
import { DataSource } from 'typeorm';
import { action, connector, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';
import { dropQueueKeys } from '../support/durability-redis';
import { stopAllChildren, waitFor } from '../support/proc-child';
import { Received, verifySignature, WebhookReceiver } from '../support/webhook-receiver';
import { startWorker } from '../support/worker';

/**
 * Webhook configuration on both surfaces, and delivery by the BUILT worker (a child process) to a
 * real receiver on loopback: form fields, custom headers, Standard Webhooks signatures, retries,
 * 410, 3xx, timeouts, 429, the delivery log and replay. Needs `npm run build` (scripts/test.sh).
 */
const PREFIX = `fieldwork-wh-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;
process.env.WEBHOOK_ALLOW_PRIVATE = 'true';

const FORM_FIELDS = ['account', 'action', 'data', 'id', 'reason'];

describe('webhooks', () => {
  let api: TestApi;
  let db: DataSource;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    receiver = await new WebhookReceiver().start();
    const env = {
      QUEUE_PREFIX: PREFIX,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_SCHEDULE: '1,1,1',
      WEBHOOK_TIMEOUT_MS: '1500',
      WEBHOOK_RECONCILE_MS: '500',
      QUEUE_LOCK_MS: '5000',
    };
    await startWorker('worker', env, (sql, params) => db.query(sql, params));
  }, 60_000);

  afterAll(async () => {
    await stopAllChildren();
    await receiver.close();
    await api.close();
    await dropQueueKeys(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', PREFIX);
  });

  const configure = async (key: string, hooks: Record<string, unknown>) => action<any>(api, 'setwebhooks', hooks, { key });
  const secretOf = async (key: string) => (await action<any>(api, 'getwebhooks', {}, { key })).body.secret as string;
  const deliveries = async (key: string, q: Record<string, unknown> = {}) =>
    (await action<any>(api, 'getwebhookdeliveries', q, { key })).body.deliveries as any[];

  describe('configuration', () => {
    let c: TestCompany;
    beforeAll(async () => {
      c = await createCompany(api);
    });

    it('updates only the keys sent, each replaced whole; null, "" and {url: null} remove a key', async () => {
      let res = await configure(c.key, {
        job_created: { url: `${receiver.url}/a`, header: { 'X-Token': 'secret-token-1234', 'X-Other': 'o' } },
      });
      expect(res.body.status).toBe(0);
      expect(Object.keys(res.body.webhooks).sort()).toEqual(
        [
          'alert_triggered',
          'clock_in_out',
          'job_archived',
          'job_checked',
          'job_completed',
          'job_created',
          'job_deleted',
          'job_updated',
          'place_checked',
        ].sort(),
      );
      expect(res.body.webhooks.job_created).toEqual({
        url: `${receiver.url}/a`,
        header: { 'X-Token': '****1234', 'X-Other': '****' },
        disabled: false,
        disabledReason: null,
        disabledAt: null,
      });
      expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
      res = await configure(c.key, { job_updated: { url: `${receiver.url}/b` } });
      expect(res.body.webhooks.job_created.url).toBe(`${receiver.url}/a`);
      expect(res.body.webhooks.job_updated.header).toEqual({});
      // replaced whole: the old headers go
      res = await configure(c.key, { job_created: { url: `${receiver.url}/a2`, header: { 'X-New': 'value-5678' } } });
      expect(res.body.webhooks.job_created.header).toEqual({ 'X-New': '****5678' });
      for (const removal of [null, '', { url: null }]) {
        await configure(c.key, { job_archived: { url: `${receiver.url}/x` } });
        res = await configure(c.key, { job_archived: removal });
        expect(res.body.webhooks.job_archived).toBeNull();
        expect(res.body.webhooks.job_created).not.toBeNull();
      }
      // a masked value sent back keeps the stored one
      await configure(c.key, { job_created: res.body.webhooks.job_created });
      const [row] = await db.query(`SELECT headers FROM webhook_endpoints WHERE company_id = $1 AND key = 'job_created'`, [c.companyUid]);
      expect(row.headers).toEqual({ 'X-New': 'value-5678' });
    });

    it.each([
      [{ job_created: { url: 'not a url' } }, 'data.job_created.url'],
      [{ job_created: { url: 'ftp://example.com/x' } }, 'data.job_created.url'],
      [{ job_created: { url: 'https://user:pw@example.com/x' } }, 'data.job_created.url'],
      [{ job_created: { url: 'https://example.com/', header: { 'Bad Name': 'x' } } }, 'data.job_created.header'],
      [{ job_created: { url: 'https://example.com/', header: { 'X-A': 'line\r\nInjected: 1' } } }, 'data.job_created.header'],
      [{ job_created: { url: 'https://example.com/', header: { 'webhook-id': 'x' } } }, 'data.job_created.header'],
      [{ job_created: { url: 'https://example.com/', header: { 'Content-Type': 'x' } } }, 'data.job_created.header'],
      [{ job_created: { url: 'https://example.com/', header: { Host: 'x' } } }, 'data.job_created.header'],
      [{ job_created: { url: 'https://example.com/', header: { Connection: 'close' } } }, 'data.job_created.header'],
      [{ job_created: { url: 'https://example.com/', header: { 'X-A': 'x'.repeat(1100) } } }, 'data.job_created.header'],
      [
        {
          job_created: { url: 'https://example.com/', header: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v'])) },
        },
        'data.job_created.header',
      ],
      [{ job_created: { url: 'https://example.com/', header: { 'X-A': 5 } } }, 'data.job_created.header'],
      [{ job_created: { url: 'https://example.com/', headers: {} } }, 'data.job_created.headers'],
      [{ job_created: 'https://example.com/' }, 'data.job_created'],
      [{ job_exploded: { url: 'https://example.com/' } }, 'data.job_exploded'],
    ])('setwebhooks refuses %j naming %s, and nothing changes', async (hooks, field) => {
      const before = await db.query(`SELECT key, url, headers FROM webhook_endpoints WHERE company_id = $1 ORDER BY key`, [c.companyUid]);
      const res = await configure(c.key, { ...hooks, job_deleted: { url: 'https://example.com/would-be-added' } });
      expect(res.http).toBe(400);
      expect(res.body.status).toBe(-1);
      expect(res.body.error.startsWith(`${field}`)).toBe(true);
      expect(await db.query(`SELECT key, url, headers FROM webhook_endpoints WHERE company_id = $1 ORDER BY key`, [c.companyUid])).toEqual(
        before,
      );
    });

    it('without WEBHOOK_ALLOW_PRIVATE only https URLs are accepted', async () => {
      const config = api.app.get(AppConfig);
      config.WEBHOOK_ALLOW_PRIVATE = false;
      try {
        expect((await configure(c.key, { job_completed: { url: `${receiver.url}/c` } })).body.error).toBe(
          'data.job_completed.url: must be an https URL',
        );
        expect((await configure(c.key, { job_completed: { url: 'https://hooks.example.com/c' } })).body.status).toBe(0);
      } finally {
        config.WEBHOOK_ALLOW_PRIVATE = true;
      }
    });

    it('the connector reads and sets with `headers`, without the secret', async () => {
      const put = await connector(api, 'PUT', '/v1/webhooks', c.key, {
        webhooks: { job_checked: { url: `${receiver.url}/chk`, headers: { Authorization: 'Bearer abcdefgh' } }, job_archived: null },
      });
      expect(put.http).toBe(200);
      expect(put.body.data.webhooks.job_checked).toEqual({
        url: `${receiver.url}/chk`,
        headers: { Authorization: '****efgh' },
        disabled: false,
        disabledReason: null,
        disabledAt: null,
      });
      expect(put.body.data.webhooks.job_created).not.toBeNull();
      expect(put.body.data.secret).toBeUndefined();
      const got = await connector(api, 'GET', '/v1/webhooks', c.key);
      expect(got.body).toEqual(put.body);
      for (const [body, field] of [
        [{ webhooks: { job_checked: { url: 'x', header: {} } } }, 'body.webhooks.job_checked'],
        [{ webhooks: { nope: null } }, 'body.webhooks.nope'],
        [{ hooks: {} }, 'body'],
      ] as const) {
        const res = await connector(api, 'PUT', '/v1/webhooks', c.key, body);
        expect(res.http).toBe(400);
        expect(res.body.error.message.startsWith(field)).toBe(true);
      }
    });

    it('roles: administrators set and see the secret; dispatchers read without it; workers neither', async () => {
      const op = await createMember(api, c, { role: 'operator' });
      const w = await createMember(api, c, { role: 'worker' });
      const opGet = await action<any>(api, 'getwebhooks', {}, { key: op.key });
      expect(opGet.body.status).toBe(0);
      expect(opGet.body.secret).toBeUndefined();
      expect((await configure(op.key, { job_created: null })).http).toBe(403);
      expect((await action(api, 'rotatewebhooksecret', {}, { key: op.key })).http).toBe(403);
      expect((await action(api, 'getwebhookdeliveries', {}, { key: op.key })).http).toBe(403);
      expect((await action(api, 'getwebhooks', {}, { key: w.key })).http).toBe(403);
      expect((await connector(api, 'GET', '/v1/webhooks', w.key)).http).toBe(403);
      expect((await connector(api, 'GET', '/v1/webhooks', op.key)).http).toBe(200);
      expect((await connector(api, 'PUT', '/v1/webhooks', op.key, { webhooks: {} })).http).toBe(403);
    });
  });

  describe('delivery', () => {
    let c: TestCompany;
    let secret: string;
    const path = (key: string) => `/${c.companyUid}/${key}`;

    beforeAll(async () => {
      c = await createCompany(api);
      const hooks: Record<string, unknown> = {};
      for (const key of ['job_created', 'job_updated', 'job_completed', 'job_archived', 'job_deleted', 'job_checked']) {
        hooks[key] = { url: `${receiver.url}${path(key)}`, header: { 'X-Customer-Token': `tok-${key}` } };
      }
      expect((await configure(c.key, hooks)).body.status).toBe(0);
      secret = await secretOf(c.key);
    });

    const expectDelivery = (r: Received, action: string, jobId: string) => {
      expect(Object.keys(r.form).sort()).toEqual(FORM_FIELDS);
      expect(r.form).toMatchObject({ account: c.username, id: jobId, action, reason: action });
      expect(r.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(String(r.headers['webhook-id'])).toMatch(/^msg_[0-9A-Z]{26}$/);
      expect(verifySignature(secret, r)).toBe(true);
      const data = JSON.parse(r.form.data);
      expect(Array.isArray(data)).toBe(true);
      expect(data).toHaveLength(1);
      expect(data[0].id).toBe(jobId);
      return data[0];
    };

    it('every job event kind arrives with exactly the form fields, custom headers, [job] data and a verifiable signature', async () => {
      const created = (await action<any>(api, 'createjobs', { jobs: [{ destinationName: 'Hooked job' }] }, { key: c.key })).body.jobs[0];
      const [r1] = await receiver.waitFor(path('job_created'), 1);
      expect(expectDelivery(r1, 'jobcreated', created.id)).toEqual(created);
      expect(r1.headers['x-customer-token']).toBe('tok-job_created');
      const outbox = await db.query(`SELECT id FROM outbox_events WHERE form_id = $1 AND action = 'jobcreated'`, [created.id]);
      expect(r1.headers['webhook-id']).toBe(outbox[0].id);

      await action(api, 'editjobs', { jobs: { [created.id]: { priority: 4 } } }, { key: c.key });
      const [r2] = await receiver.waitFor(path('job_updated'), 1);
      expect(expectDelivery(r2, 'jobupdated', created.id)).toMatchObject({ priority: 4, version: 2 });

      await action(api, 'editjobs', { jobs: { [created.id]: { tsCheckIn: Date.now() - 1000, tsCheckOut: Date.now() } } }, { key: c.key });
      const checks = await receiver.waitFor(path('job_checked'), 2);
      expect(checks.map((r) => r.form.action).sort()).toEqual(['jobcheckin', 'jobcheckout']);
      checks.forEach((r) => expectDelivery(r, r.form.action, created.id));

      await action(api, 'editjobs', { jobs: { [created.id]: { tsDoneFailed: Date.now() } } }, { key: c.key });
      const [r4] = await receiver.waitFor(path('job_completed'), 1);
      expect(expectDelivery(r4, 'jobcompleted', created.id)).toMatchObject({ progress: 'failed' });

      await action(api, 'archivejobs', { jobs: { [created.id]: {} } }, { key: c.key });
      const [r5] = await receiver.waitFor(path('job_archived'), 1);
      expect(expectDelivery(r5, 'jobarchived', created.id)).toMatchObject({ status: 'archived' });

      await action(api, 'deletejobs', { jobs: { [created.id]: {} } }, { key: c.key });
      const [r6] = await receiver.waitFor(path('job_deleted'), 1);
      expect(expectDelivery(r6, 'jobdeleted', created.id)).toMatchObject({ destinationName: 'Hooked job' });

      // the connector's changes go out the same way
      const viaConnector = await connector(api, 'POST', '/v1/jobs', c.key, { title: 'From the connector' });
      const created2 = await receiver.waitFor(path('job_created'), 2);
      expectDelivery(created2[1], 'jobcreated', viaConnector.body.data.items[0].id);
    });

    it('a flipped byte or a stale timestamp fails verification; a fresh timestamp per attempt keeps retries verifiable', async () => {
      const [r] = receiver.at(path('job_created'));
      const flipped = { ...r, body: r.body.replace('jobcreated', 'jobcreatee') };
      expect(verifySignature(secret, flipped)).toBe(false);
      const stale = { ...r, headers: { ...r.headers } };
      expect(verifySignature(secret, stale, Number(r.headers['webhook-timestamp']) + 600)).toBe(false);
      const wrongSecret = `whsec_${Buffer.from('another secret of 32 bytes......').toString('base64')}`;
      expect(verifySignature(wrongSecret, r)).toBe(false);
    });

    it('a receiver failing twice then answering 200 gets the event with three attempts logged, one webhook-id, each signed afresh', async () => {
      const c2 = await createCompany(api);
      await configure(c2.key, { job_created: { url: `${receiver.url}/${c2.companyUid}/flaky` } });
      const s2 = await secretOf(c2.key);
      receiver.reply = (req, nth) => (req.path.endsWith('/flaky') && nth <= 2 ? { status: 500 } : { status: 200 });
      try {
        await action(api, 'createjobs', { jobs: [{ destinationName: 'Flaky' }] }, { key: c2.key });
        const got = await receiver.waitFor(`/${c2.companyUid}/flaky`, 3);
        expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
        for (const r of got) expect(verifySignature(s2, r, Math.floor(r.at / 1000), 5)).toBe(true);
        const [d] = await waitFor('the delivery to be delivered', async () => {
          const list = await deliveries(c2.key);
          return list[0]?.state === 'delivered' ? list : undefined;
        });
        expect(d.attemptLog.map((a: { httpStatus: number; outcome: string }) => [a.httpStatus, a.outcome])).toEqual([
          [500, 'retry'],
          [500, 'retry'],
          [200, 'delivered'],
        ]);
        expect(d.attempts).toBe(3);
        expect(d.eventId).toBe(got[0].headers['webhook-id']);
        expect(JSON.stringify(d)).not.toContain('tok-');
      } finally {
        receiver.reply = () => ({ status: 200 });
      }
    });

    it('410 disables the key (later events are not sent) until its URL is set again', async () => {
      const c3 = await createCompany(api);
      const gone = `/${c3.companyUid}/gone`;
      await configure(c3.key, { job_created: { url: `${receiver.url}${gone}` } });
      receiver.reply = (req) => (req.path === gone ? { status: 410 } : { status: 200 });
      try {
        await action(api, 'createjobs', { jobs: [{ destinationName: 'Gone 1' }] }, { key: c3.key });
        await receiver.waitFor(gone, 1);
        const hooks = await waitFor('the key to be disabled', async () => {
          const res = await action<any>(api, 'getwebhooks', {}, { key: c3.key });
          return res.body.webhooks.job_created.disabled ? res.body.webhooks : undefined;
        });
        expect(hooks.job_created).toMatchObject({ disabled: true, disabledReason: '410 Gone' });
        expect(hooks.job_created.disabledAt).toBeGreaterThan(0);
        await action(api, 'createjobs', { jobs: [{ destinationName: 'Gone 2' }] }, { key: c3.key });
        await new Promise((r) => setTimeout(r, 1500));
        expect(receiver.at(gone)).toHaveLength(1);
        receiver.reply = () => ({ status: 200 });
        const re = await configure(c3.key, { job_created: { url: `${receiver.url}${gone}` } });
        expect(re.body.webhooks.job_created.disabled).toBe(false);
        await action(api, 'createjobs', { jobs: [{ destinationName: 'Gone 3' }] }, { key: c3.key });
        const after = await receiver.waitFor(gone, 2);
        expect(JSON.parse(after[1].form.data)[0].destinationName).toBe('Gone 3');
      } finally {
        receiver.reply = () => ({ status: 200 });
      }
    });

    it('a 410 in the middle of a claim: no request after it but those already in flight; the rest of the claim is abandoned with the key', async () => {
      const c = await createCompany(api);
      const gone = `/${c.companyUid}/gone-mid`;
      await configure(c.key, { job_created: { url: `${receiver.url}${gone}` } });
      receiver.reply = (req) => (req.path === gone ? { status: 410 } : { status: 200 });
      try {
        const jobs = Array.from({ length: 20 }, (_, i) => ({ destinationName: `Gone mid ${i}` }));
        await action(api, 'createjobs', { jobs }, { key: c.key });
        const open = async () =>
          (
            await db.query(
              `SELECT count(*)::int AS n FROM webhook_deliveries d JOIN webhook_endpoints e ON e.company_id = d.company_id AND e.id = d.endpoint_id
                WHERE e.url = $1 AND d.state IN ('pending', 'in_flight')`,
              [`${receiver.url}${gone}`],
            )
          )[0].n as number;
        await waitFor('every delivery of the key closed', async () => ((await open()) === 0 ? true : undefined), { timeoutMs: 10_000 });
        await new Promise((r) => setTimeout(r, 500));
        // a claim holds up to WEBHOOK_CLAIM_ROUNDS × cap (16); the cap's 4 slots each sent one, and none more after the 410
        expect(receiver.at(gone)).toHaveLength(4);
        const hooks = (await action<any>(api, 'getwebhooks', {}, { key: c.key })).body.webhooks;
        expect(hooks.job_created).toMatchObject({ disabled: true, disabledReason: '410 Gone' });
      } finally {
        receiver.reply = () => ({ status: 200 });
      }
    });

    it('a 3xx is a failure and is not followed; a hanging receiver times out; both retry then are abandoned', async () => {
      const c4 = await createCompany(api);
      const redirect = `/${c4.companyUid}/redirect`;
      const target = `/${c4.companyUid}/target`;
      const hang = `/${c4.companyUid}/hang`;
      await configure(c4.key, { job_created: { url: `${receiver.url}${redirect}` }, job_updated: { url: `${receiver.url}${hang}` } });
      receiver.reply = (req) =>
        req.path === redirect
          ? { status: 302, headers: { location: `${receiver.url}${target}` } }
          : req.path === hang
            ? 'hang'
            : { status: 200 };
      try {
        const [job] = (await action<any>(api, 'createjobs', { jobs: [{ destinationName: 'Redirected' }] }, { key: c4.key })).body.jobs;
        await action(api, 'editjobs', { jobs: { [job.id]: { priority: 2 } } }, { key: c4.key });
        const list = await waitFor(
          'both deliveries to be abandoned',
          async () => {
            const l = await deliveries(c4.key);
            return l.length === 2 && l.every((d) => d.state === 'abandoned') ? l : undefined;
          },
          { timeoutMs: 30_000, intervalMs: 250 },
        );
        const byKey = Object.fromEntries(list.map((d) => [d.key, d]));
        expect(byKey.job_created.attemptLog.map((a: { httpStatus: number }) => a.httpStatus)).toEqual([302, 302, 302, 302]);
        expect(
          byKey.job_updated.attemptLog.every((a: { httpStatus: null; error: string }) => a.httpStatus === null && a.error === 'timeout'),
        ).toBe(true);
        expect(byKey.job_updated.attemptLog).toHaveLength(4);
        expect(receiver.at(target)).toHaveLength(0);
      } finally {
        receiver.reply = () => ({ status: 200 });
      }
    }, 60_000);

    it('429 with Retry-After delays only that delivery', async () => {
      const c5 = await createCompany(api);
      const busy = `/${c5.companyUid}/busy`;
      const calm = `/${c5.companyUid}/calm`;
      await configure(c5.key, { job_created: { url: `${receiver.url}${busy}` }, job_updated: { url: `${receiver.url}${calm}` } });
      receiver.reply = (req, nth) => (req.path === busy && nth === 1 ? { status: 429, headers: { 'retry-after': '3' } } : { status: 200 });
      try {
        const [job] = (await action<any>(api, 'createjobs', { jobs: [{ destinationName: 'Busy' }] }, { key: c5.key })).body.jobs;
        const [first] = await receiver.waitFor(busy, 1);
        await action(api, 'editjobs', { jobs: { [job.id]: { priority: 1 } } }, { key: c5.key });
        const [calmGot] = await receiver.waitFor(calm, 1);
        expect(calmGot.at - first.at).toBeLessThan(2500);
        const [, second] = await receiver.waitFor(busy, 2, 15_000);
        expect(second.at - first.at).toBeGreaterThanOrEqual(2900);
        expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
        const [d] = await deliveries(c5.key, { key: 'job_created' });
        expect(d.attemptLog.map((a: { httpStatus: number; outcome: string }) => [a.httpStatus, a.outcome])).toEqual([
          [429, 'rescheduled'],
          [200, 'delivered'],
        ]);
      } finally {
        receiver.reply = () => ({ status: 200 });
      }
    });

    it('replay sends the event again with the same webhook-id and logs a new attempt', async () => {
      const c6 = await createCompany(api);
      const p = `/${c6.companyUid}/replay`;
      await configure(c6.key, { job_created: { url: `${receiver.url}${p}` } });
      await action(api, 'createjobs', { jobs: [{ destinationName: 'Replayed' }] }, { key: c6.key });
      const [first] = await receiver.waitFor(p, 1);
      const [d] = await waitFor('delivered', async () => {
        const l = await deliveries(c6.key);
        return l[0]?.state === 'delivered' ? l : undefined;
      });
      const res = await action<any>(api, 'replaywebhookdelivery', { deliveryId: d.id }, { key: c6.key });
      expect(res.body.status).toBe(0);
      expect(res.body.delivery.id).toBe(d.id);
      const [, again] = await receiver.waitFor(p, 2);
      expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
      expect(again.form).toEqual(first.form);
      const [after] = await waitFor('two attempts logged', async () => {
        const l = await deliveries(c6.key, { eventId: d.eventId });
        return l[0]?.attemptLog.length === 2 && l[0].state === 'delivered' ? l : undefined;
      });
      expect(after.attemptLog.map((a: { outcome: string }) => a.outcome)).toEqual(['delivered', 'delivered']);
      expect((await action(api, 'replaywebhookdelivery', { deliveryId: 'dlv_nosuch' }, { key: c6.key })).http).toBe(404);
    });

    it('rotatewebhooksecret: the new secret signs, the old one too during the overlap', async () => {
      const c7 = await createCompany(api);
      const p = `/${c7.companyUid}/rotate`;
      await configure(c7.key, { job_created: { url: `${receiver.url}${p}` } });
      const old = await secretOf(c7.key);
      const rotated = await action<any>(api, 'rotatewebhooksecret', {}, { key: c7.key });
      expect(rotated.body).toEqual({ status: 0, secret: expect.stringMatching(/^whsec_/), previousSecretExpiresAt: expect.any(Number) });
      expect(rotated.body.secret).not.toBe(old);
      expect(rotated.body.previousSecretExpiresAt - Date.now()).toBeGreaterThan(23 * 3600_000);
      expect(await secretOf(c7.key)).toBe(rotated.body.secret);
      await action(api, 'createjobs', { jobs: [{ destinationName: 'Rotated' }] }, { key: c7.key });
      const [r] = await receiver.waitFor(p, 1);
      expect(String(r.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(verifySignature(rotated.body.secret, r)).toBe(true);
      expect(verifySignature(old, r)).toBe(true);
    });

    it('an event is delivered only to keys configured when it was written', async () => {
      const c8 = await createCompany(api);
      const p = `/${c8.companyUid}/late`;
      const [job] = (await action<any>(api, 'createjobs', { jobs: [{ destinationName: 'Before the hook' }] }, { key: c8.key })).body.jobs;
      await configure(c8.key, { job_created: { url: `${receiver.url}${p}` }, job_updated: { url: `${receiver.url}${p}` } });
      await action(api, 'editjobs', { jobs: { [job.id]: { priority: 3 } } }, { key: c8.key });
      const [got] = await receiver.waitFor(p, 1);
      expect(got.form.action).toBe('jobupdated');
      await new Promise((r) => setTimeout(r, 1000));
      expect(receiver.at(p)).toHaveLength(1);
    });
  });

  describe('retention', () => {
    it('prune deletes attempts, finished deliveries and their events past the retention; pending ones stay', async () => {
      const { WebhookDeliveryService } = await import('@app/webhooks');
      const c9 = await createCompany(api);
      const old = Date.now() - 31 * 86_400_000;
      const ids = { done: `msg_OLDDONE${process.pid}`, pending: `msg_OLDPEND${process.pid}`, fresh: `msg_FRESH${process.pid}` };
      await db.query(
        `INSERT INTO outbox_events (id, company_id, event_key, action, form_id, payload, created_at) VALUES
           ($1, $4, 'job_created', 'jobcreated', 'J1', '[]', $5), ($2, $4, 'job_created', 'jobcreated', 'J2', '[]', $5), ($3, $4, 'job_created', 'jobcreated', 'J3', '[]', $6)`,
        [ids.done, ids.pending, ids.fresh, c9.companyUid, old, Date.now()],
      );
      await db.query(
        `INSERT INTO webhook_deliveries (id, company_id, event_id, endpoint_id, event_key, state, attempts, failures, next_attempt_at, created_at) VALUES
           ('dlv_done${process.pid}', $1, $2, 'NOENDPOINT', 'job_created', 'delivered', 1, 0, $4, $4),
           ('dlv_pend${process.pid}', $1, $3, 'NOENDPOINT', 'job_created', 'pending', 0, 0, $5, $4)`,
        [c9.companyUid, ids.done, ids.pending, old, Date.now() + 86_400_000],
      );
      await db.query(
        `INSERT INTO webhook_attempts (id, delivery_id, company_id, started_at, duration_ms, http_status, outcome) VALUES ($1, $2, $3, $4, 5, 200, 'delivered')`,
        [`ATT${process.pid}`, `dlv_done${process.pid}`, c9.companyUid, old],
      );
      expect(await api.app.get(WebhookDeliveryService).prune()).toBeGreaterThanOrEqual(3);
      const left = await db.query(`SELECT id FROM outbox_events WHERE company_id = $1 ORDER BY id`, [c9.companyUid]);
      expect(left.map((r: { id: string }) => r.id).sort()).toEqual([ids.fresh, ids.pending].sort());
      expect(await db.query(`SELECT id FROM webhook_deliveries WHERE company_id = $1`, [c9.companyUid])).toEqual([
        { id: `dlv_pend${process.pid}` },
      ]);
      expect(await db.query(`SELECT id FROM webhook_attempts WHERE company_id = $1`, [c9.companyUid])).toEqual([]);
    });
  });

  describe('tenant isolation', () => {
    it('configuration, secret, delivery log and replay are per company', async () => {
      const a = await createCompany(api);
      const b = await createCompany(api);
      const p = `/${a.companyUid}/iso`;
      await configure(a.key, { job_created: { url: `${receiver.url}${p}` } });
      await action(api, 'createjobs', { jobs: [{ destinationName: 'A only' }] }, { key: a.key });
      await receiver.waitFor(p, 1);
      const aDeliveries = await waitFor('a delivery', async () => {
        const l = await deliveries(a.key);
        return l.length ? l : undefined;
      });
      const bView = await action<any>(api, 'getwebhooks', {}, { key: b.key });
      expect(Object.values(bView.body.webhooks).every((v) => v === null)).toBe(true);
      expect(bView.body.secret).not.toBe(await secretOf(a.key));
      expect(await deliveries(b.key)).toEqual([]);
      expect(await deliveries(b.key, { eventId: aDeliveries[0].eventId })).toEqual([]);
      const replay = await action(api, 'replaywebhookdelivery', { deliveryId: aDeliveries[0].id }, { key: b.key });
      const unknown = await action(api, 'replaywebhookdelivery', { deliveryId: 'dlv_unknown' }, { key: b.key });
      expect(replay.http).toBe(404);
      expect(replay.body.error!.replace(aDeliveries[0].id, 'X')).toBe(unknown.body.error!.replace('dlv_unknown', 'X'));
      // B's removal of a key never touches A's
      await configure(b.key, { job_created: null });
      expect((await action<any>(api, 'getwebhooks', {}, { key: a.key })).body.webhooks.job_created).not.toBeNull();
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.at(p)).toHaveLength(1);
    });
  });
});
