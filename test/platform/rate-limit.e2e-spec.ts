import { createCompany, startApi, TestApi } from '../support/api';
import { startApiProcess, stopAllChildren } from '../support/proc-child';

/**
 * One budget per API key across api instances (counted in Redis), 429 with Retry-After on both
 * surfaces, unauthenticated traffic charged per client IP (told apart through the trusted proxy's
 * X-Forwarded-For), health exempt. Three BUILT api processes share a queue prefix of the test's own.
 */
describe('rate limits', () => {
  let api: TestApi;
  const prefix = `fieldwork-rl-${process.pid}-${Date.now()}`;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await stopAllChildren();
    await api.close();
  });

  it('one key’s limit holds in total across three instances; the excess answers 429 with Retry-After on both surfaces', async () => {
    const company = await createCompany(api);
    const env = { QUEUE_PREFIX: prefix, RATE_LIMIT_PER_MINUTE: '60', RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '1000' };
    const procs = await Promise.all([startApiProcess(env), startApiProcess(env), startApiProcess(env)]);
    const results: Array<{ http: number; retryAfter: string | null; body: any; surface: string }> = [];
    for (let i = 0; i < 90; i++) {
      const base = procs[i % 3].url;
      const res =
        i % 2
          ? await fetch(`${base}/api/getcompany`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'api-key': company.key },
              body: '{"data":{}}',
            })
          : await fetch(`${base}/v1/auth/whoami`, { headers: { 'api-key': company.key } });
      results.push({
        http: res.status,
        retryAfter: res.headers.get('retry-after'),
        body: await res.json(),
        surface: i % 2 ? 'action' : 'connector',
      });
    }
    const ok = results.filter((r) => r.http === 200).length;
    const limited = results.filter((r) => r.http === 429);
    expect(ok).toBe(60);
    expect(limited).toHaveLength(30);
    for (const r of limited) {
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
      if (r.surface === 'action') expect(r.body).toEqual({ status: -6, error: expect.stringContaining('rate limit') });
      else expect(r.body).toEqual({ error: { message: expect.stringContaining('rate limit') } });
    }
    // the first 60 passed, everything after was refused: one shared count, not three
    expect(results.slice(0, 60).every((r) => r.http === 200)).toBe(true);
    // health stays exempt
    expect((await fetch(`${procs[0].url}/health/ready`)).status).toBe(200);
    // another key of the same company has its own budget
    const other = await createCompany(api);
    expect((await fetch(`${procs[1].url}/v1/auth/whoami`, { headers: { 'api-key': other.key } })).status).toBe(200);
  }, 120_000);

  it('failed authentications are charged per client IP; clients behind the proxy are told apart', async () => {
    const proc = await startApiProcess({ QUEUE_PREFIX: `${prefix}-ip`, RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '5' });
    const bad = (forwardedFor: string) =>
      fetch(`${proc.url}/v1/auth/whoami`, { headers: { 'api-key': `fwk_ZZZZZZZZ_${'A'.repeat(32)}`, 'x-forwarded-for': forwardedFor } });
    const first = [];
    for (let i = 0; i < 5; i++) first.push((await bad('203.0.113.1')).status);
    expect(first).toEqual([401, 401, 401, 401, 401]);
    const sixth = await bad('203.0.113.1');
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await bad('203.0.113.2')).status).toBe(401);
    const action = await fetch(`${proc.url}/api/getaccounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.1' },
      body: '{"data":{}}',
    });
    expect(action.status).toBe(429);
    expect(await action.json()).toEqual({ status: -6, error: expect.stringContaining('rate limit') });
  }, 60_000);
});
