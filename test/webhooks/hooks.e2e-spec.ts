import { AppConfig } from '@app/core';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { action, connector, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';
import { dropQueueKeys } from '../support/durability-redis';
import { stopAllChildren, waitFor } from '../support/proc-child';
import { Received, verifySignature, WebhookReceiver } from '../support/webhook-receiver';
import { startWorker } from '../support/worker';

/**
 * REST hooks (`/v1/hooks`, CONTRACTS.md "Wave 3: connector for automation platforms"; docs/connector.md
 * "REST hooks"), delivered by the BUILT worker (a child process) to a real receiver on loopback:
 * the JSON body and its Standard Webhooks signature (verified with the `standardwebhooks` library),
 * many subscriptions per event, key subscriptions, the nine-key endpoint beside them, 410, the limit,
 * unsubscribing, tenancy, roles and bad input. Needs `npm run build` (scripts/test.sh).
 */
const PREFIX = `fieldwork-hooks-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;
process.env.WEBHOOK_ALLOW_PRIVATE = 'true';

interface HookBody {
  id: string;
  action: string;
  ts: number;
  data: any;
}

describe('REST hooks (/v1/hooks)', () => {
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

  const subscribe = (key: string, body: unknown) => connector(api, 'POST', '/v1/hooks', key, body);
  const hooksOf = async (key: string) => (await connector(api, 'GET', '/v1/hooks', key)).body.data.items as any[];
  const unsubscribe = (key: string, id: string) => connector(api, 'DELETE', `/v1/hooks/${encodeURIComponent(id)}`, key);
  /** Subscribes `event` to the receiver's `path`; @returns the create answer's data (with the secret) */
  const hook = async (c: TestCompany, event: string, path: string, headers?: Record<string, string>) => {
    const res = await subscribe(c.key, { event, url: `${receiver.url}${path}`, ...(headers ? { headers } : {}) });
    expect(res.http).toBe(201);
    return res.body.data as { id: string; secret: string; event: string; url: string; createdAt: number };
  };
  const createJob = async (c: TestCompany, title: string) =>
    (await connector(api, 'POST', '/v1/jobs', c.key, { title })).body.data.items[0] as { id: string };
  /** The body, checked against the library's verification with `secret` (throws if it fails). */
  const verified = (secret: string, r: Received): HookBody =>
    new Webhook(secret).verify(r.body, {
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    }) as HookBody;
  const quietly = (ms = 1500) => new Promise((r) => setTimeout(r, ms));

  describe('subscriptions', () => {
    let c: TestCompany;
    beforeAll(async () => {
      c = await createCompany(api);
    });

    it('subscribes (201, the secret answered once), lists without the secret, unsubscribes (200), then the id is unknown (404)', async () => {
      const res = await subscribe(c.key, {
        event: 'jobcreated',
        url: 'https://hooks.example.com/catch/1',
        headers: { Authorization: 'Bearer abcdefgh' },
      });
      expect(res.http).toBe(201);
      const created = res.body.data;
      expect(created).toEqual({
        id: expect.stringMatching(/^[0-9A-Z]{26}$/),
        event: 'jobcreated',
        url: 'https://hooks.example.com/catch/1',
        headers: { Authorization: '****efgh' },
        createdAt: expect.any(Number),
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]{40,}$/),
      });
      expect(Math.abs(created.createdAt - Date.now())).toBeLessThan(60_000);
      const second = (await subscribe(c.key, { event: 'job_checked', url: 'https://hooks.example.com/catch/2' })).body.data;
      expect(second.secret).not.toBe(created.secret);
      const { secret: _s, ...listed } = created;
      expect(await hooksOf(c.key)).toEqual([
        listed,
        { id: second.id, event: 'job_checked', url: 'https://hooks.example.com/catch/2', headers: {}, createdAt: second.createdAt },
      ]);
      expect(JSON.stringify(await connector(api, 'GET', '/v1/hooks', c.key))).not.toContain('whsec_');

      const del = await unsubscribe(c.key, created.id);
      expect(del).toEqual({ http: 200, body: { data: { id: created.id, deleted: true } } });
      expect((await hooksOf(c.key)).map((h) => h.id)).toEqual([second.id]);
      const again = await unsubscribe(c.key, created.id);
      expect(again.http).toBe(404);
      expect(again.body.error.message).toContain(created.id);
      expect((await unsubscribe(c.key, 'no-such-hook')).http).toBe(404);
      // the nine-key configuration is untouched by subscriptions
      const keys = (await connector(api, 'GET', '/v1/webhooks', c.key)).body.data.webhooks;
      expect(Object.values(keys).every((v) => v === null)).toBe(true);
      await unsubscribe(c.key, second.id);
    });

    it.each(
      (
        [
          [{ event: 'jobexploded', url: 'https://hooks.example.com/x' }, 'body.event: must be an event action (jobcreated'],
          [{ event: 'notification', url: 'https://hooks.example.com/x' }, 'body.event: must be an event action'],
          [{ event: 'JobCreated', url: 'https://hooks.example.com/x' }, 'body.event: must be an event action'],
          [{ event: 5, url: 'https://hooks.example.com/x' }, 'body.event'],
          [{ url: 'https://hooks.example.com/x' }, 'body.event'],
          [{ event: 'jobcreated' }, 'body.url'],
          [{ event: 'jobcreated', url: 'not a url' }, 'body.url: must be an absolute URL'],
          [{ event: 'jobcreated', url: 'ftp://hooks.example.com/x' }, 'body.url: must be an http or https URL'],
          [{ event: 'jobcreated', url: 'https://user:pw@hooks.example.com/x' }, 'body.url: must not contain credentials'],
          [{ event: 'jobcreated', url: `https://hooks.example.com/${'x'.repeat(2100)}` }, 'body.url'],
          [
            { event: 'jobcreated', url: 'https://hooks.example.com/x', headers: { 'webhook-id': 'x' } },
            'body.headers: header webhook-id is reserved',
          ],
          [
            { event: 'jobcreated', url: 'https://hooks.example.com/x', headers: { 'Content-Type': 'x' } },
            'body.headers: header Content-Type is reserved',
          ],
          [
            { event: 'jobcreated', url: 'https://hooks.example.com/x', headers: { 'Bad Name': 'x' } },
            'body.headers: header name "Bad Name"',
          ],
          [
            { event: 'jobcreated', url: 'https://hooks.example.com/x', headers: { 'X-A': 'a\r\nInjected: 1' } },
            'body.headers: header X-A must not contain',
          ],
          [
            { event: 'jobcreated', url: 'https://hooks.example.com/x', headers: { 'X-A': 5 } },
            'body.headers: header X-A must have a string value',
          ],
          [{ event: 'jobcreated', url: 'https://hooks.example.com/x', headers: 'Authorization: x' }, 'body.headers'],
          [{ event: 'jobcreated', url: 'https://hooks.example.com/x', secret: 'whsec_mine' }, 'body.secret'],
        ] as Array<[unknown, string]>
      ).map(([body, message]) => [message, body] as const),
    )('refuses a body with 400 naming "%s", and subscribes nothing', async (message, body) => {
      const res = await subscribe(c.key, body);
      expect(res.http).toBe(400);
      expect(res.body.error.message.startsWith(message)).toBe(true);
      expect(await hooksOf(c.key)).toEqual([]);
    });

    it('without WEBHOOK_ALLOW_PRIVATE: https only, no loopback, private or localhost target', async () => {
      const config = api.app.get(AppConfig);
      config.WEBHOOK_ALLOW_PRIVATE = false;
      try {
        for (const [url, rule] of [
          [`${receiver.url}/private`, 'must be an https URL'],
          ['https://127.0.0.1/x', 'must not point at a private, loopback, link-local or reserved address'],
          ['https://10.1.2.3/x', 'must not point at a private, loopback, link-local or reserved address'],
          ['https://[::1]/x', 'must not point at a private, loopback, link-local or reserved address'],
          ['https://localhost/x', 'must not point at localhost'],
        ]) {
          const res = await subscribe(c.key, { event: 'jobcreated', url });
          expect([url, res.http, res.body.error?.message]).toEqual([url, 400, `body.url: ${rule}`]);
        }
        expect(await hooksOf(c.key)).toEqual([]);
        const ok = await subscribe(c.key, { event: 'jobcreated', url: 'https://hooks.example.com/public' });
        expect(ok.http).toBe(201);
        await unsubscribe(c.key, ok.body.data.id);
      } finally {
        config.WEBHOOK_ALLOW_PRIVATE = true;
      }
    });

    it('roles: as the nine keys — administrators subscribe and unsubscribe; operators only list; workers nothing', async () => {
      const mine = await hook(c, 'jobupdated', '/roles');
      const op = await createMember(api, c, { role: 'operator' });
      const w = await createMember(api, c, { role: 'worker' });
      expect((await hooksOf(op.key)).map((h) => h.id)).toEqual([mine.id]);
      expect(JSON.stringify(await hooksOf(op.key))).not.toContain('whsec_');
      for (const key of [op.key, w.key]) {
        const post = await subscribe(key, { event: 'jobcreated', url: 'https://hooks.example.com/x' });
        expect(post.http).toBe(403);
        expect(post.body.error.message).toMatch(/may not subscribe or unsubscribe hooks/);
        expect((await unsubscribe(key, mine.id)).http).toBe(403);
      }
      expect((await connector(api, 'GET', '/v1/hooks', w.key)).http).toBe(403);
      expect((await connector(api, 'GET', '/v1/hooks')).http).toBe(401);
      expect((await hooksOf(c.key)).map((h) => h.id)).toEqual([mine.id]);
      await unsubscribe(c.key, mine.id);
    });

    it('at most 50 per company: the 51st is 403 naming the limit, concurrent creates too; other companies do not count; deleting one makes room', async () => {
      const full = await createCompany(api);
      const other = await createCompany(api);
      await hook(other, 'jobcreated', '/other-limit');
      const results = await Promise.all(
        Array.from({ length: 55 }, (_, i) =>
          subscribe(full.key, { event: i % 2 ? 'jobcreated' : 'job_updated', url: `https://hooks.example.com/${i}` }),
        ),
      );
      expect(results.filter((r) => r.http === 201)).toHaveLength(50);
      const refused = results.filter((r) => r.http !== 201);
      expect(refused.map((r) => r.http)).toEqual([403, 403, 403, 403, 403]);
      expect(refused[0].body.error.message).toBe(
        'hook limit reached (50 per company): delete a subscription (DELETE /v1/hooks/{id}) first',
      );
      const listed = await hooksOf(full.key);
      expect(listed).toHaveLength(50);
      expect((await subscribe(full.key, { event: 'jobcreated', url: 'https://hooks.example.com/51' })).http).toBe(403);
      await unsubscribe(full.key, listed[0].id);
      expect((await subscribe(full.key, { event: 'jobcreated', url: 'https://hooks.example.com/51' })).http).toBe(201);
      expect((await subscribe(full.key, { event: 'jobcreated', url: 'https://hooks.example.com/52' })).http).toBe(403);
      expect(await hooksOf(other.key)).toHaveLength(1);
    });
  });

  describe('delivery', () => {
    it('two subscriptions to one event each get the JSON body, signed with their own secret; the key endpoint still gets its form', async () => {
      const c = await createCompany(api);
      const p = (name: string) => `/${c.companyUid}/${name}`;
      await action(api, 'setwebhooks', { job_created: { url: `${receiver.url}${p('key')}` } }, { key: c.key });
      const companySecret = (await action<any>(api, 'getwebhooks', {}, { key: c.key })).body.secret as string;
      const a = await hook(c, 'jobcreated', p('a'), { 'X-Zap': 'zap-token-a' });
      const b = await hook(c, 'job_created', p('b'));
      const job = await createJob(c, 'Hooked by two');
      const [ra] = await receiver.waitFor(p('a'), 1);
      const [rb] = await receiver.waitFor(p('b'), 1);
      const [rk] = await receiver.waitFor(p('key'), 1);

      const [event] = await db.query(
        `SELECT id, created_at::float8 AS ts FROM outbox_events WHERE form_id = $1 AND action = 'jobcreated'`,
        [job.id],
      );
      const asPolled = (await connector(api, 'GET', `/v1/jobs/${job.id}`, c.key)).body.data.items[0];
      for (const [r, s] of [
        [ra, a.secret],
        [rb, b.secret],
      ] as const) {
        expect(r.headers['content-type']).toBe('application/json');
        expect(r.headers['webhook-id']).toBe(event.id);
        const body = verified(s, r);
        expect(body).toEqual({ id: event.id, action: 'jobcreated', ts: event.ts, data: asPolled });
        expect(Object.keys(JSON.parse(r.body))).toEqual(['id', 'action', 'ts', 'data']);
        expect(verifySignature(s, r)).toBe(true);
      }
      // each subscription's secret is its own: neither the other's nor the company's verifies it
      expect(() => verified(b.secret, ra)).toThrow();
      expect(verifySignature(companySecret, ra)).toBe(false);
      expect(ra.headers['x-zap']).toBe('zap-token-a');
      expect(rb.headers['x-zap']).toBeUndefined();
      // the nine-key endpoint: the same event, its own form body and the company's secret
      expect(rk.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(rk.headers['webhook-id']).toBe(event.id);
      expect(rk.form).toMatchObject({ action: 'jobcreated', id: job.id, account: c.username });
      expect(JSON.parse(rk.form.data)[0]).toMatchObject({ id: job.id, destinationName: 'Hooked by two' });
      expect(verifySignature(companySecret, rk)).toBe(true);
      await quietly(500);
      expect([receiver.at(p('a')).length, receiver.at(p('b')).length, receiver.at(p('key')).length]).toEqual([1, 1, 1]);
    });

    it('a key subscription (job_checked) gets both of its actions; an action subscription only its own; others none', async () => {
      const c = await createCompany(api);
      const p = (name: string) => `/${c.companyUid}/${name}`;
      const key = await hook(c, 'job_checked', p('checked'));
      const out = await hook(c, 'jobcheckout', p('out'));
      await hook(c, 'jobcompleted', p('completed'));
      const job = await createJob(c, 'Checked');
      await action(api, 'editjobs', { jobs: { [job.id]: { tsCheckIn: Date.now() - 1000, tsCheckOut: Date.now() } } }, { key: c.key });
      const both = await receiver.waitFor(p('checked'), 2);
      expect(both.map((r) => verified(key.secret, r).action).sort()).toEqual(['jobcheckin', 'jobcheckout']);
      for (const r of both) expect(verified(key.secret, r).data).toMatchObject({ id: job.id, progress: 'started' });
      const [r] = await receiver.waitFor(p('out'), 1);
      expect(verified(out.secret, r).action).toBe('jobcheckout');
      await quietly();
      expect(receiver.at(p('out'))).toHaveLength(1);
      expect(receiver.at(p('completed'))).toHaveLength(0);
    });

    it('unsubscribing stops delivery; the key endpoint of the same event goes on', async () => {
      const c = await createCompany(api);
      const p = (name: string) => `/${c.companyUid}/${name}`;
      await action(api, 'setwebhooks', { job_updated: { url: `${receiver.url}${p('key')}` } }, { key: c.key });
      const sub = await hook(c, 'jobupdated', p('sub'));
      const job = await createJob(c, 'Edited');
      await action(api, 'editjobs', { jobs: { [job.id]: { priority: 1 } } }, { key: c.key });
      expect(verified(sub.secret, (await receiver.waitFor(p('sub'), 1))[0]).data.priority).toBe(1);
      expect((await unsubscribe(c.key, sub.id)).http).toBe(200);
      await action(api, 'editjobs', { jobs: { [job.id]: { priority: 2 } } }, { key: c.key });
      const keyed = await receiver.waitFor(p('key'), 2);
      expect(JSON.parse(keyed[1].form.data)[0].priority).toBe(2);
      await quietly();
      expect(receiver.at(p('sub'))).toHaveLength(1);
    });

    it('410 deletes the subscription (later events are not sent); a key answering 410 is still disabled, not removed', async () => {
      const c = await createCompany(api);
      const p = (name: string) => `/${c.companyUid}/${name}`;
      await action(api, 'setwebhooks', { job_created: { url: `${receiver.url}${p('key-gone')}` } }, { key: c.key });
      const gone = await hook(c, 'jobcreated', p('sub-gone'));
      const stays = await hook(c, 'jobcreated', p('sub-ok'));
      receiver.reply = (req) => (req.path === p('sub-gone') || req.path === p('key-gone') ? { status: 410 } : { status: 200 });
      try {
        await createJob(c, 'Gone 1');
        await receiver.waitFor(p('sub-gone'), 1);
        await receiver.waitFor(p('key-gone'), 1);
        await waitFor('the subscription to be deleted', async () =>
          (await hooksOf(c.key)).some((h) => h.id === gone.id) ? undefined : true,
        );
        expect((await hooksOf(c.key)).map((h) => h.id)).toEqual([stays.id]);
        const keys = await waitFor('the key to be disabled', async () => {
          const res = await action<any>(api, 'getwebhooks', {}, { key: c.key });
          return res.body.webhooks.job_created?.disabled ? res.body.webhooks : undefined;
        });
        expect(keys.job_created).toMatchObject({ disabled: true, disabledReason: '410 Gone' });
        const log = (await action<any>(api, 'getwebhookdeliveries', {}, { key: c.key })).body.deliveries as any[];
        const goneDelivery = log.find((d) => d.hookId === gone.id);
        expect(goneDelivery).toMatchObject({ state: 'abandoned', key: 'job_created', action: 'jobcreated' });
        expect(goneDelivery.attemptLog.map((a: any) => [a.httpStatus, a.outcome])).toEqual([[410, 'disabled']]);
        expect(log.find((d) => d.hookId === null)).toMatchObject({ state: 'abandoned' });
        expect((await unsubscribe(c.key, gone.id)).http).toBe(404);

        await createJob(c, 'Gone 2');
        await receiver.waitFor(p('sub-ok'), 2);
        await quietly();
        expect(receiver.at(p('sub-gone'))).toHaveLength(1);
        expect(receiver.at(p('key-gone'))).toHaveLength(1);
      } finally {
        receiver.reply = () => ({ status: 200 });
      }
    });

    it('a failing subscription is retried and logged with its hook id; replay sends it again with the same webhook-id', async () => {
      const c = await createCompany(api);
      const path = `/${c.companyUid}/flaky`;
      const sub = await hook(c, 'jobcreated', path);
      receiver.reply = (req, nth) => (req.path === path && nth === 1 ? { status: 500 } : { status: 200 });
      try {
        const job = await createJob(c, 'Flaky');
        const got = await receiver.waitFor(path, 2);
        expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
        for (const r of got) expect(verified(sub.secret, r).data.id).toBe(job.id);
        const [d] = await waitFor('the delivery to be delivered', async () => {
          const list = (await action<any>(api, 'getwebhookdeliveries', {}, { key: c.key })).body.deliveries as any[];
          return list[0]?.state === 'delivered' ? list : undefined;
        });
        expect(d).toMatchObject({ hookId: sub.id, key: 'job_created', action: 'jobcreated', formId: job.id, attempts: 2 });
        expect(d.attemptLog.map((a: any) => [a.httpStatus, a.outcome])).toEqual([
          [500, 'retry'],
          [200, 'delivered'],
        ]);
        const replay = await action<any>(api, 'replaywebhookdelivery', { deliveryId: d.id }, { key: c.key });
        expect(replay.body.status).toBe(0);
        const [, , third] = await receiver.waitFor(path, 3);
        expect(third.headers['webhook-id']).toBe(got[0].headers['webhook-id']);
        expect(verified(sub.secret, third).data.id).toBe(job.id);
        // a replay of a deleted subscription's delivery is refused, naming the subscription
        await unsubscribe(c.key, sub.id);
        const refused = await action<any>(api, 'replaywebhookdelivery', { deliveryId: d.id }, { key: c.key });
        expect(refused.body).toEqual({ status: -1, error: 'data.deliveryId: the hook subscription of this delivery was removed' });
      } finally {
        receiver.reply = () => ({ status: 200 });
      }
    });

    it('a hanging subscriber holds up none of the other subscriptions of its company: they get each event at once', async () => {
      const c = await createCompany(api);
      const fast = `/${c.companyUid}/fast`;
      const hang = `/${c.companyUid}/hang`;
      const f = await hook(c, 'jobcreated', fast);
      const h = await hook(c, 'jobcreated', hang);
      receiver.reply = (req) => (req.path === hang ? 'hang' : { status: 200 });
      try {
        const lags: number[] = [];
        for (let i = 0; i < 3; i++) {
          const t0 = Date.now();
          const job = await createJob(c, `Beside a hanging one ${i}`);
          const got = await receiver.waitFor(fast, i + 1);
          expect(verified(f.secret, got[i]).data.id).toBe(job.id);
          lags.push(got[i].at - t0);
        }
        // the hanging subscriber times out after 1.5 s; the fast one never waited for it
        expect(Math.max(...lags)).toBeLessThan(1000);
        expect(receiver.at(hang).length).toBeGreaterThanOrEqual(1);
        expect(receiver.maxOpen(hang)).toBeLessThanOrEqual(4);
      } finally {
        receiver.reply = () => ({ status: 200 });
      }
      // the hanging one's attempts time out and are retried (the same webhook-id): it gets its three events. It
      // holds one claim at a time (one holder per subscription): the events after its first may wait for that
      // claim's timeout, and then find it answering again
      const delivered = await waitFor(
        'the hanging subscriber to have its three events',
        async () => {
          const log = (await action<any>(api, 'getwebhookdeliveries', {}, { key: c.key })).body.deliveries as any[];
          const mine = log.filter((d) => d.hookId === h.id);
          return mine.length === 3 && mine.every((d) => d.state === 'delivered') ? mine : undefined;
        },
        { timeoutMs: 20_000 },
      );
      const timedOut = delivered.filter((d) => d.attemptLog.some((a: any) => a.error === 'timeout'));
      expect(timedOut.length).toBeGreaterThanOrEqual(1);
      for (const d of timedOut) expect(d.attemptLog[0]).toMatchObject({ httpStatus: null, error: 'timeout', outcome: 'retry' });
    });

    it("tenancy: another company's hooks are invisible and unknown to it, and its events never reach them", async () => {
      const a = await createCompany(api);
      const b = await createCompany(api);
      const pa = `/${a.companyUid}/iso`;
      const pb = `/${b.companyUid}/iso`;
      const ha = await hook(a, 'jobcreated', pa);
      const hb = await hook(b, 'jobcreated', pb);
      expect((await hooksOf(b.key)).map((h) => h.id)).toEqual([hb.id]);
      const foreign = await unsubscribe(b.key, ha.id);
      expect(foreign.http).toBe(404);
      expect(foreign.body.error.message).toBe(`hook ${ha.id} not found`);
      const jobB = await createJob(b, 'B only');
      const [rb] = await receiver.waitFor(pb, 1);
      expect(verified(hb.secret, rb).data.id).toBe(jobB.id);
      await quietly();
      expect(receiver.at(pa)).toHaveLength(0);
      expect((await hooksOf(a.key)).map((h) => h.id)).toEqual([ha.id]);
      const jobA = await createJob(a, 'A only');
      expect(verified(ha.secret, (await receiver.waitFor(pa, 1))[0]).data.id).toBe(jobA.id);
      expect(receiver.at(pb)).toHaveLength(1);
    });

    it('clock events reach a clockin subscription, with the event time and the member', async () => {
      const c = await createCompany(api);
      const w = await createMember(api, c, { role: 'worker', name: 'Clock Hooked' });
      const path = `/${c.companyUid}/clock`;
      const sub = await hook(c, 'clockin', path);
      const ts = Date.now() - 60_000;
      expect(
        (await action<any>(api, 'pushlocations', { locations: [], tracking: true, tracking_ts: ts }, { key: w.key })).body.status,
      ).toBe(0);
      const [r] = await receiver.waitFor(path, 1);
      const body = verified(sub.secret, r);
      const [event] = await db.query(
        `SELECT id, created_at::float8 AS ts FROM outbox_events WHERE company_id = $1 AND action = 'clockin'`,
        [c.companyUid],
      );
      expect(body).toMatchObject({ id: event.id, action: 'clockin', ts: event.ts });
      expect(body.data).toMatchObject({ kind: 'clockin', member: { id: w.uid, username: w.username, name: 'Clock Hooked' }, ts });
    });
  });
});
