import { AppConfig, newId } from '@app/core';
import { createServer as createHttpServer, Server as HttpServer } from 'node:http';
import { AddressInfo, createServer, Server, Socket } from 'node:net';
import { DataSource } from 'typeorm';
import { action, connector, createCompany, startApi, TestApi, TestCompany } from '../support/api';
import { startDnsServer, TestDnsServer } from '../support/dns-server';
import { Child, spawnNode, stopAllChildren, waitFor } from '../support/proc-child';
import { dropQueueKeys as dropRedisKeys } from '../support/durability-redis';

/**
 * SSRF protection of webhook delivery (CONTRACTS.md, "SSRF"), with WEBHOOK_ALLOW_PRIVATE off:
 * internal-address URLs are refused when configured (action and connector surfaces) and, when they
 * get past configuration (a host NAME, or a row written straight into webhook_endpoints), blocked
 * by the BUILT worker at connect time. A loopback "canary" TCP server that every internal URL here
 * points at counts connections: it must see none. Host names resolve through a loopback DNS server
 * of the test's own (test/support/dns-server.ts, WEBHOOK_DNS_SERVERS). A positive control — a
 * second worker with WEBHOOK_ALLOW_PRIVATE=true — shows the canary does see a connection for the
 * same kind of URL, so the test can fail. Needs `npm run build` first (scripts/test.sh does it).
 * All traffic stays on 127.0.0.1 / ::1.
 */

const WORKER = 'dist/apps/worker/src/main.js';
const SLOW = 120_000;
const PREFIX = `${process.env.QUEUE_PREFIX ?? 'fieldwork-test'}-ssrf${process.pid}`.slice(-64);
const ALLOW_PREFIX = `${PREFIX}-allow`.slice(-64);
const KEYS = ['job_created', 'job_updated', 'job_completed', 'job_archived', 'job_deleted', 'job_checked', 'place_checked'] as const;

const MUST_BE_HTTPS = 'must be an https URL';
const NO_CREDENTIALS = 'must not contain credentials';
const NO_LOCALHOST = 'must not point at localhost';
const NO_PRIVATE = 'must not point at a private, loopback, link-local or reserved address';

/** A TCP server on loopback (127.0.0.1 and, when available, [::1] on the same port) that counts connections and closes them. */
class Canary {
  readonly connections: Array<{ at: number; local: string; remote: string }> = [];
  private readonly servers: Server[] = [];
  private readonly sockets = new Set<Socket>();
  port = 0;

  async start(): Promise<this> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const v4 = await this.listen(0, '127.0.0.1');
      this.port = (v4.address() as AddressInfo).port;
      try {
        const v6 = await this.listen(this.port, '::1');
        this.servers.push(v4, v6);
        return this;
      } catch {
        await new Promise<void>((ok) => v4.close(() => ok()));
      }
    }
    // no IPv6 loopback (or the port stayed taken): IPv4 only
    this.servers.push(await this.listen(0, '127.0.0.1'));
    this.port = (this.servers[0].address() as AddressInfo).port;
    return this;
  }

  private listen(port: number, host: string): Promise<Server> {
    const server = createServer((socket) => {
      this.connections.push({ at: Date.now(), local: `${socket.localAddress}:${socket.localPort}`, remote: `${socket.remoteAddress}` });
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => this.sockets.delete(socket));
      socket.destroy();
    });
    return new Promise((ok, fail) => {
      server.once('error', fail);
      server.listen(port, host, () => {
        server.off('error', fail);
        ok(server);
      });
    });
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await Promise.all(this.servers.map((s) => new Promise<void>((ok) => s.close(() => ok()))));
  }
}

/** An HTTP server on 127.0.0.1 that answers every request with a redirect to `location`, counting requests. */
async function startRedirector(location: () => string): Promise<{ server: HttpServer; port: number; requests: number[] }> {
  const requests: number[] = [];
  const server = createHttpServer((req, res) => {
    requests.push(Date.now());
    req.resume();
    res.writeHead(307, { location: location() }).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  return { server, port: (server.address() as AddressInfo).port, requests };
}

/** Deletes what a worker left in the shared Redis under its own prefix. */
const dropQueueKeys = (prefix: string) => dropRedisKeys(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix);

interface AttemptView {
  at: number;
  httpStatus: number | null;
  error: string | null;
  outcome: string;
}
interface DeliveryView {
  id: string;
  key: string;
  state: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  attemptLog: AttemptView[];
}

/** One endpoint of the connect-time stage: a company of its own, its job_created URL, and how the URL got in. */
interface Target {
  label: string;
  url: string;
  via: 'config' | 'sql';
  /** what the block message must name (the address or the rule) */
  blockedMentions: RegExp;
  company?: TestCompany;
  /** refused at configuration after all (only for `configOrConnect` targets) */
  refusedAtConfig?: string;
  /** may configuration refuse it (the test accepts either a refusal or a connect-time block) */
  configOrConnect?: boolean;
}

describe('webhooks SSRF (WEBHOOK_ALLOW_PRIVATE off)', () => {
  let api: TestApi;
  let db: DataSource;
  let dns: TestDnsServer;
  let canary: Canary;
  let redirectTarget: Canary;
  let redirector: Awaited<ReturnType<typeof startRedirector>>;
  let cfg: TestCompany;
  const companies: TestCompany[] = [];

  beforeAll(async () => {
    // the in-process api wakes deliveries on the blocking worker's queues, and configures with the allow setting off
    process.env.QUEUE_PREFIX = PREFIX;
    process.env.WEBHOOK_ALLOW_PRIVATE = 'false';
    api = await startApi();
    api.app.get(AppConfig).WEBHOOK_ALLOW_PRIVATE = false;
    db = api.app.get(DataSource);
    canary = await new Canary().start();
    redirectTarget = await new Canary().start();
    redirector = await startRedirector(() => `http://127.0.0.1:${redirectTarget.port}/after-redirect`);
    dns = await startDnsServer(
      {
        'canary.test': ['127.0.0.1'],
        'loop2.test': ['127.1.2.3'],
        'zero.test': ['0.0.0.0'],
        'meta.test': ['169.254.169.254'],
        'redirect.test': ['127.0.0.1'],
        'both.test': ['127.0.0.1'],
        localhost: ['127.0.0.1'],
        'v6loop.test': [],
        'mapped.test': [],
      },
      {
        'v6loop.test': ['::1'],
        'mapped.test': ['::ffff:127.0.0.1'],
        'both.test': ['::1'],
      },
    );
    cfg = await createCompany(api, { name: 'SSRF config' });
  }, SLOW);

  afterAll(async () => {
    await stopAllChildren();
    // leave nothing pending behind for other suites' workers
    const ids = [cfg, ...companies].filter(Boolean).map((c) => c.companyUid);
    if (db && ids.length) {
      await db.query(`DELETE FROM webhook_endpoints WHERE company_id = ANY($1::text[])`, [ids]).catch(() => undefined);
      await db
        .query(
          `UPDATE webhook_deliveries SET state = 'abandoned', finished_at = $2 WHERE company_id = ANY($1::text[]) AND state <> 'delivered' AND state <> 'abandoned'`,
          [ids, Date.now()],
        )
        .catch(() => undefined);
    }
    await Promise.all([
      canary?.close(),
      redirectTarget?.close(),
      redirector && new Promise<void>((ok) => redirector.server.close(() => ok())),
      dns?.close(),
    ]);
    await api?.close();
    await dropQueueKeys(PREFIX).catch(() => undefined);
    await dropQueueKeys(ALLOW_PREFIX).catch(() => undefined);
  }, SLOW);

  /** Every URL configuration must refuse, with the rule it breaks. */
  const refusedAtConfig = (): Array<[string, string]> => {
    const p = canary.port;
    return [
      // loopback
      [`https://127.0.0.1:${p}/hook`, NO_PRIVATE],
      [`https://127.1.2.3:${p}/hook`, NO_PRIVATE],
      [`https://127.255.255.254/`, NO_PRIVATE],
      [`https://[::1]:${p}/hook`, NO_PRIVATE],
      [`https://localhost:${p}/hook`, NO_LOCALHOST],
      [`https://LocalHost/hook`, NO_LOCALHOST],
      [`https://foo.localhost:${p}/hook`, NO_LOCALHOST],
      [`https://%6c%6fcalhost:${p}/`, NO_LOCALHOST],
      // RFC 1918
      [`https://10.0.0.1/`, NO_PRIVATE],
      [`https://10.255.255.254:${p}/`, NO_PRIVATE],
      [`https://172.16.0.1/`, NO_PRIVATE],
      [`https://172.31.255.254/`, NO_PRIVATE],
      [`https://192.168.0.1/`, NO_PRIVATE],
      [`https://192.168.255.254:8443/`, NO_PRIVATE],
      // link-local, cloud metadata
      [`https://169.254.1.1/`, NO_PRIVATE],
      [`https://169.254.169.254/latest/meta-data/iam/security-credentials/`, NO_PRIVATE],
      [`https://[fd00:ec2::254]/latest/meta-data/`, NO_PRIVATE],
      [`https://[fe80::1]/`, NO_PRIVATE],
      [`https://[fc00::1]/`, NO_PRIVATE],
      // CGNAT
      [`https://100.64.0.1/`, NO_PRIVATE],
      [`https://100.127.255.254/`, NO_PRIVATE],
      // unspecified, multicast, broadcast, reserved
      [`https://0.0.0.0:${p}/`, NO_PRIVATE],
      [`https://[::]:${p}/`, NO_PRIVATE],
      [`https://224.0.0.1/`, NO_PRIVATE],
      [`https://255.255.255.255/`, NO_PRIVATE],
      [`https://240.0.0.1/`, NO_PRIVATE],
      // IPv4-mapped / -embedding IPv6
      [`https://[::ffff:127.0.0.1]:${p}/`, NO_PRIVATE],
      [`https://[::ffff:7f00:1]:${p}/`, NO_PRIVATE],
      [`https://[::ffff:169.254.169.254]/`, NO_PRIVATE],
      [`https://[2002:7f00:1::]/`, NO_PRIVATE],
      [`https://[64:ff9b::a9fe:a9fe]/`, NO_PRIVATE],
      // other spellings of 127.0.0.1 / 169.254.169.254 (WHATWG normalises them to literals)
      [`https://2130706433:${p}/`, NO_PRIVATE],
      [`https://0177.0.0.1:${p}/`, NO_PRIVATE],
      [`https://017700000001/`, NO_PRIVATE],
      [`https://0x7f.1:${p}/`, NO_PRIVATE],
      [`https://0x7f000001/`, NO_PRIVATE],
      [`https://127.1:${p}/`, NO_PRIVATE],
      [`https://127.0.0.1.:${p}/`, NO_PRIVATE],
      [`https://2852039166/latest/meta-data/`, NO_PRIVATE],
      [`https://0xa9.0xfe.0xa9.0xfe/`, NO_PRIVATE],
      // scheme and credentials
      [`http://127.0.0.1:${p}/hook`, MUST_BE_HTTPS],
      [`http://canary.test:${p}/hook`, MUST_BE_HTTPS],
      [`http://example.com/hook`, MUST_BE_HTTPS],
      [`gopher://127.0.0.1:${p}/_PING`, MUST_BE_HTTPS],
      [`file:///etc/passwd`, MUST_BE_HTTPS],
      [`https://user:secret@canary.test:${p}/hook`, NO_CREDENTIALS],
      [`https://admin@example.com/hook`, NO_CREDENTIALS],
      [`https://user:pass@127.0.0.1:${p}/`, NO_CREDENTIALS],
    ];
  };

  /** URLs that get past configuration (names), or are written straight into the table; the worker must block each. */
  const connectTime = (): Target[] => {
    const p = canary.port;
    return [
      // host names resolving to internal addresses through the loopback DNS server: accepted at configuration
      {
        label: 'name → 127.0.0.1',
        url: `https://canary.test:${p}/hook`,
        via: 'config',
        blockedMentions: /canary\.test resolves to 127\.0\.0\.1/,
      },
      { label: 'name → 127.1.2.3', url: `https://loop2.test:${p}/hook`, via: 'config', blockedMentions: /resolves to 127\.1\.2\.3/ },
      { label: 'name → 0.0.0.0', url: `https://zero.test:${p}/hook`, via: 'config', blockedMentions: /resolves to 0\.0\.0\.0/ },
      {
        label: 'name → 169.254.169.254 (metadata)',
        url: `https://meta.test:${p}/latest/meta-data/`,
        via: 'config',
        blockedMentions: /meta\.test resolves to 169\.254\.169\.254/,
      },
      { label: 'name → AAAA ::1 only', url: `https://v6loop.test:${p}/hook`, via: 'config', blockedMentions: /resolves to ::1\b/ },
      {
        label: 'name → AAAA ::ffff:127.0.0.1',
        url: `https://mapped.test:${p}/hook`,
        via: 'config',
        blockedMentions: /resolves to ::ffff:127\.0\.0\.1/,
      },
      {
        label: 'name → A 127.0.0.1 + AAAA ::1',
        url: `https://both.test:${p}/hook`,
        via: 'config',
        blockedMentions: /both\.test resolves to (127\.0\.0\.1|::1)/,
      },
      // Redirects are never followed (a 3xx is a failure). The redirector itself lives on loopback, so
      // with the allow setting off the FIRST hop (redirect.test → 127.0.0.1) is already blocked and
      // the redirect is never even fetched; the positive control below shows a 3xx is not followed
      // when the first hop is allowed.
      {
        label: 'name → redirector on loopback (redirect to an internal address)',
        url: `https://redirect.test:${redirector.port}/start`,
        via: 'config',
        blockedMentions: /redirect\.test resolves to 127\.0\.0\.1/,
      },
      // the fully-qualified localhost: refused at configuration or blocked at connect time
      {
        label: 'localhost. (root dot)',
        url: `https://localhost.:${p}/hook`,
        via: 'config',
        blockedMentions: /resolves to 127\.0\.0\.1/,
        configOrConnect: true,
      },
      // literal internal URLs written past configuration (straight into webhook_endpoints); all point at
      // loopback, so even a regression could only reach the canary (metadata is covered by meta.test)
      { label: 'SQL http://127.0.0.1', url: `http://127.0.0.1:${p}/`, via: 'sql', blockedMentions: /only https URLs are allowed/ },
      {
        label: 'SQL https://127.0.0.1',
        url: `https://127.0.0.1:${p}/`,
        via: 'sql',
        blockedMentions: /127\.0\.0\.1 is not a public address/,
      },
      { label: 'SQL https://[::1]', url: `https://[::1]:${p}/`, via: 'sql', blockedMentions: /::1 is not a public address/ },
      {
        label: 'SQL https://[::ffff:127.0.0.1]',
        url: `https://[::ffff:127.0.0.1]:${p}/`,
        via: 'sql',
        blockedMentions: /::ffff:7f00:1 is not a public address/,
      },
      {
        label: 'SQL https://[::ffff:7f00:1]',
        url: `https://[::ffff:7f00:1]:${p}/`,
        via: 'sql',
        blockedMentions: /::ffff:7f00:1 is not a public address/,
      },
      {
        label: 'SQL decimal 2130706433',
        url: `https://2130706433:${p}/`,
        via: 'sql',
        blockedMentions: /127\.0\.0\.1 is not a public address/,
      },
      {
        label: 'SQL octal 0177.0.0.1',
        url: `https://0177.0.0.1:${p}/`,
        via: 'sql',
        blockedMentions: /127\.0\.0\.1 is not a public address/,
      },
      { label: 'SQL hex 0x7f.1', url: `https://0x7f.1:${p}/`, via: 'sql', blockedMentions: /127\.0\.0\.1 is not a public address/ },
      { label: 'SQL https://0.0.0.0', url: `https://0.0.0.0:${p}/`, via: 'sql', blockedMentions: /0\.0\.0\.0 is not a public address/ },
      { label: 'SQL https://[::]', url: `https://[::]:${p}/`, via: 'sql', blockedMentions: /:: is not a public address/ },
      { label: 'SQL https://localhost', url: `https://localhost:${p}/`, via: 'sql', blockedMentions: /localhost resolves to 127\.0\.0\.1/ },
    ];
  };

  const insertEndpoint = async (companyId: string, key: string, url: string) =>
    db.query(
      `INSERT INTO webhook_endpoints (id, company_id, key, url, headers, created_at, updated_at) VALUES ($1, $2, $3, $4, '{}', $5, $5)`,
      [newId(), companyId, key, url, Date.now()],
    );

  const createJob = async (company: TestCompany, name: string) => {
    const res = await action<{ jobs: Array<{ id: string }> }>(
      api,
      'createjobs',
      { jobs: [{ destinationName: name }] },
      { key: company.key },
    );
    if (res.body.status !== 0) throw new Error(`createjobs failed: ${JSON.stringify(res.body)}`);
    return res.body.jobs[0].id;
  };

  const deliveriesOf = async (company: TestCompany): Promise<DeliveryView[]> => {
    const res = await action<{ deliveries: DeliveryView[] }>(api, 'getwebhookdeliveries', { key: 'job_created' }, { key: company.key });
    if (res.body.status !== 0) throw new Error(`getwebhookdeliveries failed: ${JSON.stringify(res.body)}`);
    return res.body.deliveries;
  };

  const spawnWorker = (label: string, prefix: string, allowPrivate: boolean): Child =>
    spawnNode(label, WORKER, {
      QUEUE_PREFIX: prefix,
      WEBHOOK_ALLOW_PRIVATE: String(allowPrivate),
      WEBHOOK_DNS_SERVERS: dns.address,
      WEBHOOK_RETRY_SCHEDULE: '1,1',
      WEBHOOK_RECONCILE_MS: '500',
      WEBHOOK_TIMEOUT_MS: '2000',
      QUEUE_LOCK_MS: '5000',
    });

  /** Fails with the worker's captured output, so a broken start-up explains itself. */
  const withOutput = (worker: Child) => (err: Error) => {
    throw new Error(`${err.message}\n${worker.output()}`);
  };

  it('at least 30 internal-address URLs are covered', () => {
    expect(refusedAtConfig().length + connectTime().length).toBeGreaterThanOrEqual(30);
    expect(new Set(refusedAtConfig().map(([u]) => u)).size).toBe(refusedAtConfig().length);
  });

  it('setwebhooks refuses every internal-address URL with -1 naming data.<key>.url, and configures nothing', async () => {
    const cases = refusedAtConfig();
    const wrong: string[] = [];
    for (const [i, [url, rule]] of cases.entries()) {
      const key = KEYS[i % KEYS.length];
      const res = await action(api, 'setwebhooks', { [key]: { url } }, { key: cfg.key });
      const expected = `data.${key}.url: ${rule}`;
      if (res.body.status !== -1 || res.body.error !== expected)
        wrong.push(`${url} → ${JSON.stringify(res.body)} (expected -1 "${expected}")`);
    }
    expect(wrong).toEqual([]);
    const got = await action<{ webhooks: Record<string, unknown> }>(api, 'getwebhooks', {}, { key: cfg.key });
    expect(Object.values(got.body.webhooks).every((v) => v === null)).toBe(true);
    expect(canary.connections).toEqual([]);
  });

  it('PUT /v1/webhooks refuses every internal-address URL with 400 naming body.webhooks.<key>.url, and configures nothing', async () => {
    const cases = refusedAtConfig();
    const wrong: string[] = [];
    for (const [i, [url, rule]] of cases.entries()) {
      const key = KEYS[(i + 3) % KEYS.length];
      const res = await connector(api, 'PUT', '/v1/webhooks', cfg.key, { webhooks: { [key]: { url } } });
      const expected = `body.webhooks.${key}.url: ${rule}`;
      if (res.http !== 400 || res.body?.error?.message !== expected)
        wrong.push(`${url} → ${res.http} ${JSON.stringify(res.body)} (expected 400 "${expected}")`);
    }
    expect(wrong).toEqual([]);
    const got = await connector(api, 'GET', '/v1/webhooks', cfg.key);
    expect(Object.values(got.body.data.webhooks).every((v) => v === null)).toBe(true);
    expect(canary.connections).toEqual([]);
  });

  it('a refused key inside a multi-key write refuses the whole write', async () => {
    const res = await action(
      api,
      'setwebhooks',
      { job_created: { url: `https://canary.test:${canary.port}/ok` }, job_updated: { url: 'https://169.254.169.254/' } },
      { key: cfg.key },
    );
    expect(res.body).toEqual({ status: -1, error: `data.job_updated.url: ${NO_PRIVATE}` });
    const got = await action<{ webhooks: Record<string, unknown> }>(api, 'getwebhooks', {}, { key: cfg.key });
    expect(got.body.webhooks.job_created).toBeNull();
  });

  it(
    'the worker blocks, at connect time, names resolving to internal addresses and literal internal URLs written past configuration; the canary sees no connection',
    async () => {
      const targets = connectTime();
      // configure every target, each in a company of its own (one job_created endpoint each)
      for (const t of targets) {
        t.company = await createCompany(api, { name: `SSRF ${t.label}` });
        companies.push(t.company);
        if (t.via === 'sql') {
          await insertEndpoint(t.company.companyUid, 'job_created', t.url);
          continue;
        }
        const res = await action(api, 'setwebhooks', { job_created: { url: t.url } }, { key: t.company.key });
        if (t.configOrConnect && res.body.status === -1) {
          expect(res.body.error).toBe(`data.job_created.url: ${NO_LOCALHOST}`);
          t.refusedAtConfig = res.body.error;
          continue;
        }
        expect({ url: t.url, body: res.body }).toEqual({ url: t.url, body: expect.objectContaining({ status: 0 }) });
      }
      const live = targets.filter((t) => !t.refusedAtConfig);
      for (const t of live) await createJob(t.company!, t.label);
      // every live target has a delivery row waiting (made by the outbox trigger)
      for (const t of live) expect((await deliveriesOf(t.company!)).map((d) => d.state)).toEqual(['pending']);

      const worker = spawnWorker('worker:blocking', PREFIX, false);
      const finished = await waitFor(
        'every delivery to be abandoned after 3 attempts',
        async () => {
          if (!worker.running) throw new Error(`the worker exited: ${JSON.stringify(worker.exit)}`);
          const all = await Promise.all(live.map(async (t) => ({ t, d: (await deliveriesOf(t.company!))[0] })));
          return all.every(({ d }) => d && d.state === 'abandoned' && d.attempts === 3) ? all : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 250 },
      ).catch(withOutput(worker));

      const wrong: string[] = [];
      for (const { t, d } of finished) {
        const errors = d.attemptLog.map((a) => a.error ?? '');
        const ok =
          d.attemptLog.length === 3 &&
          d.attemptLog.every((a) => a.httpStatus === null) &&
          errors.every((e) => e.startsWith('blocked: ') && t.blockedMentions.test(e)) &&
          d.lastError !== null &&
          d.lastError.startsWith('blocked: ') &&
          d.lastStatus === null;
        if (!ok) wrong.push(`${t.label} (${t.url}): ${JSON.stringify({ lastError: d.lastError, attempts: d.attemptLog })}`);
      }
      expect(wrong).toEqual([]);
      // the names were looked up through the test's DNS server (the block is the resolved address's)
      const unasked = [
        'canary.test',
        'loop2.test',
        'zero.test',
        'meta.test',
        'v6loop.test',
        'mapped.test',
        'both.test',
        'redirect.test',
      ].filter(
        (name) => dns.queriesFor(name).length < 3, // at least one lookup per attempt
      );
      expect(unasked).toEqual([]);
      // nothing reached loopback: not the canary, not the redirector (first hop blocked), not the redirect's target
      expect(canary.connections).toEqual([]);
      expect(redirector.requests).toEqual([]);
      expect(redirectTarget.connections).toEqual([]);

      const exit = await worker.stop('SIGTERM', 10_000);
      expect(exit).toEqual({ code: 0, signal: null });
    },
    SLOW,
  );

  it(
    'positive control: a worker with WEBHOOK_ALLOW_PRIVATE=true does connect to the canary (and still never follows a redirect)',
    async () => {
      // the blocking stage left nothing pending (every delivery was abandoned), so this worker only sees the control's
      expect(
        await db.query(`SELECT id FROM webhook_deliveries WHERE company_id = ANY($1::text[]) AND state IN ('pending', 'in_flight')`, [
          companies.map((c) => c.companyUid),
        ]),
      ).toEqual([]);
      expect(canary.connections).toEqual([]);

      const direct = await createCompany(api, { name: 'SSRF control direct' });
      const redirected = await createCompany(api, { name: 'SSRF control redirect' });
      companies.push(direct, redirected);
      await insertEndpoint(direct.companyUid, 'job_created', `http://127.0.0.1:${canary.port}/`);
      await insertEndpoint(redirected.companyUid, 'job_created', `http://127.0.0.1:${redirector.port}/start`);
      await createJob(direct, 'control direct');
      await createJob(redirected, 'control redirect');

      const worker = spawnWorker('worker:allowing', ALLOW_PREFIX, true);
      await waitFor(
        'the canary to see a connection from the allowing worker',
        () => {
          if (!worker.running) throw new Error(`the worker exited: ${JSON.stringify(worker.exit)}`);
          return canary.connections.length > 0;
        },
        { timeoutMs: 60_000, intervalMs: 100 },
      ).catch(withOutput(worker));
      expect(canary.connections[0].local).toMatch(/^(::ffff:)?127\.0\.0\.1:\d+$/);

      // the redirect is a failure, never followed
      const [d] = await waitFor(
        'the redirected delivery to record an attempt',
        async () => {
          const list = await deliveriesOf(redirected);
          return list[0]?.attemptLog.length ? list : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 200 },
      ).catch(withOutput(worker));
      expect(d.attemptLog[0]).toMatchObject({ httpStatus: 307, error: 'HTTP 307' });
      expect(redirector.requests.length).toBeGreaterThanOrEqual(1);
      expect(redirectTarget.connections).toEqual([]);

      // the direct delivery's attempts failed for a reason other than a block (the canary closes the socket)
      const direct1 = await waitFor(
        'the direct delivery to record an attempt',
        async () => {
          const list = await deliveriesOf(direct);
          return list[0]?.attemptLog.length ? list[0] : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 200 },
      ).catch(withOutput(worker));
      expect(direct1.attemptLog[0].error).not.toMatch(/^blocked/);

      await worker.stop('SIGTERM', 10_000);
      // stop the control's retries from reaching anything later
      await db.query(`DELETE FROM webhook_endpoints WHERE company_id = ANY($1::text[])`, [[direct.companyUid, redirected.companyUid]]);
    },
    SLOW,
  );
});
