import { Agent, request } from 'undici';
import { createCompany, startApi, TestApi } from '../support/api';
import { dropQueueKeys } from '../support/durability-redis';
import { ApiProcess, getJson, startApiProcess, stopAllChildren } from '../support/proc-child';
import { ReverseProxy, startReverseProxy } from '../support/reverse-proxy';

/**
 * Rate limits behind a real reverse proxy: three BUILT api processes (a queue prefix of the test's
 * own, `TRUST_PROXY=1`: exactly one proxy in front) behind haproxy (round-robin, `option
 * forwardfor`), every request sent through the proxy only. One key's budget holds in total across
 * the instances; failed authentications are charged to the client address haproxy saw (clients
 * bound to different loopback addresses), and a forged `X-Forwarded-For` neither frees a client nor
 * frames another. Needs `npm run build` and haproxy (`scripts/test-tools.sh`).
 */
const PREFIX = `fieldwork-rlproxy-${process.pid}-${Date.now()}`;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const KEY_LIMIT = 300;
const IP_LIMIT = 20;
const BAD_KEY = `fwk_ZZZZZZZZ_${'A'.repeat(32)}`;

interface Answer {
  http: number;
  retryAfter: string | undefined;
  body: any;
}

/** A client whose connections leave from `localAddress` (all of 127/8 is the loopback interface). */
function client(localAddress: string): Agent {
  return new Agent({ localAddress, connections: 8, keepAliveTimeout: 10_000 });
}

async function send(agent: Agent, base: string, surface: 'action' | 'connector', headers: Record<string, string> = {}): Promise<Answer> {
  const res =
    surface === 'action'
      ? await request(`${base}/api/getcompany`, {
          method: 'POST',
          dispatcher: agent,
          headers: { 'content-type': 'application/json', ...headers },
          body: '{"data":{}}',
        })
      : await request(`${base}/v1/auth/whoami`, { dispatcher: agent, headers });
  const text = await res.body.text();
  const retryAfter = res.headers['retry-after'];
  return { http: res.statusCode, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, body: JSON.parse(text) };
}

/** This instance's own count of answered action/connector requests, by status (its `/metrics`, read directly). */
async function answeredByStatus(proc: ApiProcess): Promise<Record<string, number>> {
  const { status, body } = await getJson<string>(`${proc.url}/metrics`);
  expect(status).toBe(200);
  const counts: Record<string, number> = {};
  for (const line of body.split('\n')) {
    const m = /^fieldwork_http_requests_total\{(.*)\} (\S+)$/.exec(line);
    if (!m || !/surface="(action|connector)"/.test(m[1])) continue;
    const code = /status="(\d+)"/.exec(m[1])![1];
    counts[code] = (counts[code] ?? 0) + Number(m[2]);
  }
  return counts;
}

const diff = (after: Record<string, number>, before: Record<string, number>) =>
  Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)]));

describe('rate limits behind a reverse proxy (haproxy, three api processes)', () => {
  let api: TestApi;
  let procs: ApiProcess[];
  let proxy: ReverseProxy;
  const agents: Agent[] = [];
  const agent = (address: string) => {
    const a = client(address);
    agents.push(a);
    return a;
  };

  beforeAll(async () => {
    api = await startApi();
    const env = {
      QUEUE_PREFIX: PREFIX,
      RATE_LIMIT_PER_MINUTE: String(KEY_LIMIT),
      RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: String(IP_LIMIT),
      TRUST_PROXY: '1',
    };
    procs = await Promise.all([startApiProcess(env), startApiProcess(env), startApiProcess(env)]);
    proxy = await startReverseProxy(procs.map((p) => p.url));
  }, 90_000);

  afterAll(async () => {
    await Promise.all(agents.map((a) => a.close().catch(() => undefined)));
    await proxy?.stop();
    await stopAllChildren();
    await api?.close();
    await dropQueueKeys(REDIS_URL, PREFIX).catch(() => undefined);
  });

  it('one key’s limit holds in total across the instances; the excess answers 429 with Retry-After on both surfaces', async () => {
    const company = await createCompany(api);
    const total = Math.round(KEY_LIMIT * 1.5);
    const before = await Promise.all(procs.map(answeredByStatus));
    const proxiedBefore = await proxy.requestsPerServer();

    // a few requests in flight at a time, alternating surfaces, all through the proxy
    const answers: Array<Answer & { surface: string }> = [];
    const caller = agent('127.0.0.1');
    let next = 0;
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (next < total) {
          const surface = next++ % 2 ? 'action' : 'connector';
          answers.push({ surface, ...(await send(caller, proxy.url, surface, { 'api-key': company.key })) });
        }
      }),
    );

    const ok = answers.filter((a) => a.http === 200);
    const limited = answers.filter((a) => a.http === 429);
    expect(answers).toHaveLength(total);
    expect(ok.length + limited.length).toBe(total); // nothing else (no 502 from the proxy, no 5xx)
    expect(Math.abs(ok.length - KEY_LIMIT)).toBeLessThanOrEqual(KEY_LIMIT * 0.01);
    for (const a of limited) {
      expect(Number(a.retryAfter)).toBeGreaterThan(0);
      if (a.surface === 'action') expect(a.body).toEqual({ status: -6, error: expect.stringContaining('rate limit') });
      else expect(a.body).toEqual({ error: { message: expect.stringContaining('rate limit') } });
    }
    expect(new Set(limited.map((a) => a.surface))).toEqual(new Set(['action', 'connector']));

    // every instance answered a share (round-robin: a third each), and by their own counts the
    // instances together answered exactly what the client saw: one budget, not three
    const perInstance = (await Promise.all(procs.map(answeredByStatus))).map((after, i) => diff(after, before[i]));
    for (const counts of perInstance) expect((counts['200'] ?? 0) + (counts['429'] ?? 0)).toBe(total / 3);
    expect(perInstance.reduce((n, c) => n + (c['200'] ?? 0), 0)).toBe(ok.length);
    expect(perInstance.reduce((n, c) => n + (c['429'] ?? 0), 0)).toBe(limited.length);
    for (const counts of perInstance) expect(counts['200']).toBeGreaterThan(0);
    const proxied = diff(await proxy.requestsPerServer(), proxiedBefore);
    expect(proxied).toEqual({ api0: total / 3, api1: total / 3, api2: total / 3 });

    // another key has its own budget
    const other = await createCompany(api);
    expect((await send(caller, proxy.url, 'connector', { 'api-key': other.key })).http).toBe(200);
  }, 120_000);

  it('clients behind the proxy are told apart by the address haproxy appended; a forged X-Forwarded-For changes nothing', async () => {
    const a = agent('127.0.0.2');
    const b = agent('127.0.0.3');
    const c = agent('127.0.0.4');
    const bad = { 'api-key': BAD_KEY };
    const proxiedBefore = await proxy.requestsPerServer();

    // client A spends its budget of failed authentications, spread over the three instances
    const first: number[] = [];
    for (let i = 0; i < IP_LIMIT; i++) first.push((await send(a, proxy.url, i % 2 ? 'action' : 'connector', bad)).http);
    expect(first).toEqual(Array(IP_LIMIT).fill(401));
    const proxied = diff(await proxy.requestsPerServer(), proxiedBefore);
    expect(Object.values(proxied).every((n) => n >= Math.floor(IP_LIMIT / 3))).toBe(true);

    for (const surface of ['connector', 'action', 'connector'] as const) {
      const over = await send(a, proxy.url, surface, bad);
      expect(over.http).toBe(429);
      expect(Number(over.retryAfter)).toBeGreaterThan(0);
      if (surface === 'action') expect(over.body).toEqual({ status: -6, error: expect.stringContaining('rate limit') });
      else expect(over.body).toEqual({ error: { message: expect.stringContaining('rate limit') } });
    }
    // no key at all is charged the same way
    expect((await send(a, proxy.url, 'connector')).http).toBe(429);

    // client B, behind the same proxy, is another client
    expect((await send(b, proxy.url, 'connector', bad)).http).toBe(401);
    expect((await send(b, proxy.url, 'action', bad)).http).toBe(401);

    // A forging the left-most X-Forwarded-For (a fresh address, or B's) is still A
    for (const forged of ['203.0.113.77', '127.0.0.3', '203.0.113.78, 127.0.0.3']) {
      for (const surface of ['connector', 'action'] as const) {
        expect((await send(a, proxy.url, surface, { ...bad, 'x-forwarded-for': forged })).http).toBe(429);
      }
    }
    // and a third client forging A's address is not A (it gets its own 401, not A's 429)
    expect((await send(c, proxy.url, 'connector', { ...bad, 'x-forwarded-for': '127.0.0.2' })).http).toBe(401);
    // B's count is B's own requests only (2 so far): exactly the rest of its budget, then 429
    const rest: number[] = [];
    for (let i = 0; i < IP_LIMIT - 2; i++) rest.push((await send(b, proxy.url, 'connector', bad)).http);
    expect(rest).toEqual(Array(IP_LIMIT - 2).fill(401));
    expect((await send(b, proxy.url, 'connector', bad)).http).toBe(429);
  }, 60_000);
});
