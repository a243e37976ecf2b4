import { AddressInfo } from 'node:net';
import { AppConfig, loadConfig } from '@app/core';
import { OsmandGroupCommit, PushLocationsService } from '@app/locations';
import { Test } from '@nestjs/testing';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { ApiModule } from '../../apps/api/src/api.module';
import { useJsonBodies } from '../../apps/api/src/envelope/body-parser';
import { MetricsModule } from '../../apps/api/src/metrics/metrics.module';
import { action, connector, createCompany, TestApi, TestCompany } from '../support/api';
import { MetricSample as Sample, parseMetrics, valueOf } from '../support/metrics-text';
import { stopAllChildren, waitFor } from '../support/proc-child';
import { WebhookReceiver } from '../support/webhook-receiver';
import { startWorker } from '../support/worker';

/**
 * `GET /metrics` over real HTTP: request metrics by action name and connector route template,
 * delivery outcomes produced by the BUILT worker (a child process) read from the shared tables,
 * the worker heartbeat age, and `METRICS_TOKEN`. Needs `npm run build`.
 */
const PREFIX = `fieldwork-metrics-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;
process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
process.env.METRICS_CACHE_MS = '100';

/** The api with the metrics module, on a loopback port; `env` is set only while it is created. */
async function startApiWithMetrics(env: Record<string, string | undefined> = {}): Promise<TestApi> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const assign = (vars: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(vars)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  assign(env);
  try {
    // the configuration read now, not the process' cached one: each app here has its own METRICS_TOKEN
    const moduleRef = await Test.createTestingModule({ imports: [ApiModule, MetricsModule] })
      .overrideProvider(AppConfig)
      .useValue(loadConfig(process.env, { cache: false }))
      .compile();
    const app = moduleRef.createNestApplication({ bodyParser: false, abortOnError: false, logger: false });
    useJsonBodies(app);
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    return { app, url: `http://127.0.0.1:${port}`, close: () => app.close() };
  } finally {
    assign(saved);
  }
}

async function scrape(api: TestApi, authorization?: string): Promise<{ http: number; type: string | null; text: string }> {
  const res = await fetch(`${api.url}/metrics`, { headers: authorization ? { authorization } : {} });
  return { http: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

async function samples(api: TestApi): Promise<Sample[]> {
  const res = await scrape(api);
  expect(res.http).toBe(200);
  return parseMetrics(res.text);
}

describe('metrics', () => {
  let api: TestApi;
  let db: DataSource;
  let c: TestCompany;

  beforeAll(async () => {
    api = await startApiWithMetrics({ METRICS_TOKEN: undefined });
    db = api.app.get(DataSource);
    c = await createCompany(api);
  });

  afterAll(async () => {
    await stopAllChildren();
    await api?.close();
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const keys = await redis.keys(`${PREFIX}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('is open without METRICS_TOKEN and answers the Prometheus text format with process metrics', async () => {
    const res = await scrape(api);
    expect(res.http).toBe(200);
    expect(res.type).toMatch(/^text\/plain/);
    const s = parseMetrics(res.text);
    expect(valueOf(s, 'process_cpu_user_seconds_total')).toBeGreaterThanOrEqual(0);
    // the event-loop thread in the scheduler (Linux: /proc/self/schedstat)
    expect(valueOf(s, 'fieldwork_main_thread_cpu_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(s, 'fieldwork_main_thread_run_queue_wait_seconds_total')).toBeGreaterThanOrEqual(0);
    expect(valueOf(s, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    for (const state of ['waiting', 'active', 'delayed', 'failed']) {
      expect(valueOf(s, 'fieldwork_queue_jobs', { queue: 'webhook-delivery', state })).toBeGreaterThanOrEqual(0);
    }
    expect(valueOf(s, 'fieldwork_webhook_deliveries_open', { state: 'pending' })).toBeGreaterThanOrEqual(0);
    expect(valueOf(s, 'fieldwork_webhook_disabled_endpoints')).toBeGreaterThanOrEqual(0);
  });

  it('counts action requests by action name, unknown actions as `unknown`, connector requests by route template', async () => {
    const counted = (s: Sample[], labels: Record<string, string>) => valueOf(s, 'fieldwork_http_requests_total', labels) ?? 0;
    const before = await samples(api);

    for (let i = 0; i < 2; i++) expect((await action(api, 'getaccounts', {}, { key: c.key })).http).toBe(200);
    expect((await action(api, 'nosuchaction', {}, { key: c.key })).http).toBe(404);
    expect((await action(api, 'getaccounts', {}, { key: 'wrong-key' })).http).toBe(401);
    const job = (await action<any>(api, 'createjobs', { jobs: [{ destinationName: 'Metered' }] }, { key: c.key })).body.jobs[0];
    expect((await connector(api, 'GET', `/v1/jobs/${job.id}`, c.key)).http).toBe(200);
    expect((await connector(api, 'GET', `/v1/jobs/${job.id}`, 'wrong-key')).http).toBe(401);
    expect((await connector(api, 'GET', `/v1/no/such/route`, c.key)).http).toBe(404);
    // refused by the body parser before any route matched
    const malformed = await fetch(`${api.url}/api/getaccounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(malformed.status).toBe(400);

    const after = await samples(api);
    const delta = (labels: Record<string, string>) => counted(after, labels) - counted(before, labels);
    expect(delta({ surface: 'action', route: 'getaccounts', status: '200' })).toBe(2);
    expect(delta({ surface: 'action', route: 'getaccounts', status: '401' })).toBe(1);
    expect(delta({ surface: 'action', route: 'unknown', status: '404' })).toBe(1);
    expect(delta({ surface: 'connector', route: '/v1/jobs/:id', status: '200' })).toBe(1);
    expect(delta({ surface: 'connector', route: '/v1/jobs/:id', status: '401' })).toBe(1);
    expect(delta({ surface: 'connector', route: 'unknown', status: '404' })).toBe(1);
    expect(delta({ surface: 'action', route: 'unknown', status: '400' })).toBe(1);
    // never the raw path or action
    expect(after.some((x) => x.labels.route === 'nosuchaction' || x.labels.route?.includes(job.id))).toBe(false);
    const histogramCount = (s: Sample[]) =>
      valueOf(s, 'fieldwork_http_request_duration_seconds_count', { surface: 'action', route: 'getaccounts' }) ?? 0;
    expect(histogramCount(after) - histogramCount(before)).toBe(3);
  });

  it("reports this process's locate snapshot reads and members, and the /osmand and pushlocations group commits", async () => {
    const before = await samples(api);
    const read = (s: Sample[], kind: string) => valueOf(s, 'fieldwork_locate_snapshot_reads_total', { kind }) ?? 0;
    // the first locate of a company reads it whole, the next only its changed rows
    for (let i = 0; i < 2; i++) expect((await action(api, 'locate', { teams: true }, { key: c.key })).http).toBe(200);
    const w = (
      await action<any>(
        api,
        'createaccount',
        { name: 'Metered Phone', username: `metered.${Date.now()}`, password: 'correct horse battery' },
        { key: c.key },
      )
    ).body;
    expect(w.status).toBe(0);
    const deviceId = `metrics-dev-${Date.now()}`;
    // as editaccount writes it: the member's device_id with its global lookup row
    await db.query(
      `WITH d AS (INSERT INTO member_device_ids (device_id, company_id, member_id) VALUES (lower($2), $3, $1))
       UPDATE members SET device_id = $2 WHERE company_id = $3 AND id = $1`,
      [w.uid, deviceId, c.companyUid],
    );
    // the route is mounted by the api's bootstrap (not by this test module): its service, as the route calls it
    const now = Date.now();
    expect(
      await api.app
        .get(OsmandGroupCommit)
        .ingestDevice(deviceId, [{ ts: now, lat: 46.05, lng: 14.5, acc: null, dir: null, spd: null, elv: null, bat: null }], now),
    ).toMatchObject({ accepted: 1 });
    // and a pushlocations call without tracking (its service, as the controller calls it)
    expect(
      await api.app.get(PushLocationsService).ingest({
        companyId: c.companyUid,
        memberId: w.uid,
        fixes: [{ ts: now + 1, lat: 46.06, lng: 14.5, acc: null, dir: null, spd: null, elv: null, bat: null }],
        source: 'app',
        now,
      }),
    ).toMatchObject({ accepted: 1 });

    const after = await samples(api);
    expect(read(after, 'whole') - read(before, 'whole')).toBe(1);
    expect(read(after, 'changed') - read(before, 'changed')).toBe(1);
    expect(valueOf(after, 'fieldwork_locate_snapshot_members')).toBeGreaterThanOrEqual(1);
    const delta = (name: string) => (valueOf(after, name) ?? 0) - (valueOf(before, name) ?? 0);
    expect(delta('fieldwork_osmand_group_commit_statements_total')).toBe(1);
    expect(delta('fieldwork_osmand_group_commit_requests_total')).toBe(1);
    expect(valueOf(after, 'fieldwork_osmand_group_commit_waiting')).toBe(0);
    expect(delta('fieldwork_push_group_commit_statements_total')).toBe(1);
    expect(delta('fieldwork_push_group_commit_calls_total')).toBe(1);
    expect(valueOf(after, 'fieldwork_push_group_commit_waiting')).toBe(0);
  });

  describe('with the built worker', () => {
    let receiver: WebhookReceiver;

    beforeAll(async () => {
      receiver = await new WebhookReceiver().start();
      const env = { QUEUE_PREFIX: PREFIX, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RECONCILE_MS: '500' };
      await startWorker('worker', env, (sql, params) => db.query(sql, params));
    }, 60_000);

    afterAll(async () => {
      await stopAllChildren();
      await receiver?.close();
    });

    it('reports a delivery made by the worker (read from the shared tables) and the heartbeat age', async () => {
      const delivered = (s: Sample[]) => valueOf(s, 'fieldwork_webhook_attempts_last_hour', { outcome: 'delivered' }) ?? 0;
      const before = delivered(await samples(api));
      const hook = { job_created: { url: `${receiver.url}/${c.companyUid}/created` } };
      expect((await action<any>(api, 'setwebhooks', hook, { key: c.key })).body.status).toBe(0);
      await action(api, 'createjobs', { jobs: [{ destinationName: 'Hooked' }] }, { key: c.key });
      await receiver.waitFor(`/${c.companyUid}/created`, 1);

      const s = await waitFor('the delivered attempt in /metrics', async () => {
        const now = await samples(api);
        return delivered(now) >= before + 1 && now;
      });
      // nothing of this company's is left open; the gauge reports both open states
      expect(valueOf(s, 'fieldwork_webhook_deliveries_open', { state: 'in_flight' })).toBeGreaterThanOrEqual(0);
      expect(valueOf(s, 'fieldwork_webhook_deliveries_open', { state: 'pending' })).toBeGreaterThanOrEqual(0);
      expect(valueOf(s, 'fieldwork_webhook_delivery_latency_seconds', { quantile: '0.5' })).toBeGreaterThanOrEqual(0);
      expect(valueOf(s, 'fieldwork_webhook_delivery_latency_seconds', { quantile: '0.99' })).toBeGreaterThanOrEqual(0);
      const age = valueOf(s, 'fieldwork_worker_heartbeat_age_seconds');
      expect(age).toBeGreaterThanOrEqual(0);
      expect(age).toBeLessThan(60);
      expect(valueOf(s, 'fieldwork_metrics_collect_errors_total') ?? 0).toBe(0);
    });
  });

  describe('with METRICS_TOKEN set', () => {
    let guarded: TestApi;

    beforeAll(async () => {
      guarded = await startApiWithMetrics({ METRICS_TOKEN: 'metrics-secret-token' });
    });

    afterAll(async () => {
      await guarded?.close();
    });

    it('answers 401 without or with a wrong bearer token, 200 with the right one', async () => {
      const none = await scrape(guarded);
      expect(none.http).toBe(401);
      expect(none.text).not.toContain('fieldwork_');
      expect((await scrape(guarded, 'Bearer wrong-token')).http).toBe(401);
      expect((await scrape(guarded, 'Basic bWV0cmljcy1zZWNyZXQtdG9rZW4=')).http).toBe(401);
      expect((await scrape(guarded, 'Bearer metrics-secret-token-and-more')).http).toBe(401);
      const ok = await scrape(guarded, 'Bearer metrics-secret-token');
      expect(ok.http).toBe(200);
      expect(ok.text).toContain('fieldwork_http_requests_total');
      // the first app, booted without a token, stays open
      expect((await scrape(api)).http).toBe(200);
    });
  });
});
