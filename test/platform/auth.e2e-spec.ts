import { ApiKeysService } from '@app/members';
import { action, connector, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';

/** CONTRACTS.md "Auth failures" on both surfaces: never a 5xx. */
describe('authentication matrix', () => {
  let api: TestApi;
  let company: TestCompany;

  beforeAll(async () => {
    api = await startApi();
    company = await createCompany(api);
  });
  afterAll(() => api.close());

  const expectAction = (res: { http: number; body: { status: number; error?: string } }, status: number, http: number) => {
    expect(res.body.status).toBe(status);
    expect(res.http).toBe(http);
    expect(typeof res.body.error).toBe('string');
  };

  it('accepts a valid key in header style and in body style', async () => {
    const header = await action(api, 'getaccounts', {}, { key: company.key });
    expect(header.http).toBe(200);
    expect(header.body.status).toBe(0);
    const body = await action(api, 'getaccounts', {}, { key: company.key, usr: company.username, style: 'body' });
    expect(body.body.status).toBe(0);
    // usr is compared case-insensitively
    const upper = await action(api, 'getaccounts', {}, { key: company.key, usr: company.username.toUpperCase(), style: 'body' });
    expect(upper.body.status).toBe(0);
  });

  it('missing credentials → -2/401', async () => {
    expectAction(await action(api, 'getaccounts', {}), -2, 401);
    expectAction(await action(api, 'getaccounts', {}, { style: 'body', usr: company.username }), -2, 401);
  });

  it('malformed, unknown or wrong key → -2/401', async () => {
    expectAction(await action(api, 'getaccounts', {}, { key: 'not-a-key' }), -2, 401);
    const [prefix] = company.key.split('_').slice(0, 2).join('_').split(' ');
    expectAction(await action(api, 'getaccounts', {}, { key: `${prefix}_${'A'.repeat(32)}` }), -2, 401);
    expectAction(await action(api, 'getaccounts', {}, { key: `fwk_ZZZZZZZZ_${'A'.repeat(32)}` }), -2, 401);
  });

  it('revoked key → -2/401 on both surfaces', async () => {
    const keys = api.app.get(ApiKeysService);
    const issued = await keys.issue(company.username, 'to revoke');
    expect((await action(api, 'getaccounts', {}, { key: issued.apiKey })).body.status).toBe(0);
    expect(await keys.revoke(issued.prefix)).toBe(true);
    expectAction(await action(api, 'getaccounts', {}, { key: issued.apiKey }), -2, 401);
    const c = await connector(api, 'GET', '/v1/auth/whoami', issued.apiKey);
    expect(c.http).toBe(401);
    expect(typeof c.body.error.message).toBe('string');
  });

  it('deactivated member → -2/401, and reactivation does not revive its keys', async () => {
    const worker = await createMember(api, company, { role: 'worker' });
    expect((await action(api, 'getaccounts', {}, { key: worker.key })).body.status).toBe(0);
    expect((await action(api, 'deleteaccount', { uid: worker.uid }, { key: company.key })).body.status).toBe(0);
    expectAction(await action(api, 'getaccounts', {}, { key: worker.key }), -2, 401);
    expect((await connector(api, 'GET', '/v1/auth/whoami', worker.key)).http).toBe(401);
    const re = await action(api, 'createaccount', { name: 'Back again', username: worker.username }, { key: company.key });
    expect(re.body.status).toBe(0);
    expectAction(await action(api, 'getaccounts', {}, { key: worker.key }), -2, 401);
  });

  it('usr not matching the key → -3/401', async () => {
    const other = await createMember(api, company, { role: 'worker' });
    expectAction(await action(api, 'getaccounts', {}, { key: company.key, usr: other.username, style: 'body' }), -3, 401);
    expectAction(await action(api, 'getaccounts', {}, { key: company.key, usr: 'nobody@example.test', style: 'body' }), -3, 401);
  });

  it('header and body naming different keys → -3/401', async () => {
    const other = await createMember(api, company, { role: 'worker' });
    const res = await fetch(`${api.url}/api/getaccounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'api-key': company.key },
      body: JSON.stringify({ auth: { usr: other.username, key: other.key }, data: {} }),
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { status: number }).status).toBe(-3);
  });

  it('the connector takes only the API-Key header: missing or invalid → 401 {error: {message}}', async () => {
    for (const key of [undefined, 'junk', `fwk_ZZZZZZZZ_${'A'.repeat(32)}`]) {
      const res = await connector(api, 'GET', '/v1/auth/whoami', key);
      expect(res.http).toBe(401);
      expect(res.body).toEqual({ error: { message: expect.any(String) } });
    }
    const ok = await connector(api, 'GET', '/v1/auth/whoami', company.key);
    expect(ok.http).toBe(200);
    expect(ok.body.data.member.username).toBe(company.username);
    expect(ok.body.data.company).toEqual({ id: company.companyUid, name: 'Test Co', username: company.username });
  });
});

/** CONTRACTS.md "Order of checks" and the envelope's rules. */
describe('action envelope', () => {
  let api: TestApi;
  let company: TestCompany;

  beforeAll(async () => {
    api = await startApi();
    company = await createCompany(api);
  });
  afterAll(() => api.close());

  const raw = async (path: string, body: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${api.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    return { http: res.status, body: (await res.json()) as any };
  };

  it('malformed JSON → -1/400 before authentication', async () => {
    const res = await raw('/api/getaccounts', '{"data": {', {});
    expect(res).toEqual({ http: 400, body: { status: -1, error: expect.stringContaining('malformed JSON') } });
  });

  it('a non-object body → -1/400, after authentication (CONTRACTS.md order: only malformed JSON comes first)', async () => {
    const res = await raw('/api/getaccounts', '[1,2]', { 'api-key': company.key });
    expect(res.http).toBe(400);
    expect(res.body.status).toBe(-1);
    for (const body of ['[]', '[1,2]', '"x"', '5', 'null', 'true']) {
      expect({ body, res: await raw('/api/getaccounts', body) }).toEqual({
        body,
        res: { http: 401, body: { status: -2, error: expect.any(String) } },
      });
      expect({ body, res: await raw('/api/getaccounts', body, { 'api-key': 'fwk_ZZZZZZZZ_' + 'A'.repeat(32) }) }).toEqual({
        body,
        res: { http: 401, body: { status: -2, error: expect.any(String) } },
      });
    }
    // authenticated: an unknown action still comes before the body's shape
    expect(await raw('/api/nosuchaction', '[]', { 'api-key': company.key })).toEqual({
      http: 404,
      body: { status: 1001, error: expect.any(String) },
    });
  });

  it('authentication comes before unknown action; unknown action → 1001/404', async () => {
    expect((await action(api, 'nosuchaction', {})).body.status).toBe(-2);
    const res = await action(api, 'nosuchaction', {}, { key: company.key });
    expect(res.http).toBe(404);
    expect(res.body.status).toBe(1001);
  });

  it('ver: absent, 1, 2 accepted; 3, "2", 2.5 → -1/400 naming ver', async () => {
    expect((await action(api, 'getcompany', {}, { key: company.key })).body.status).toBe(0);
    for (const ver of [1, 2]) expect((await action(api, 'getcompany', {}, { key: company.key }, { ver })).body.status).toBe(0);
    for (const ver of [3, '2', 2.5, null]) {
      const res = await action(api, 'getcompany', {}, { key: company.key }, { ver });
      expect(res.http).toBe(400);
      expect(res.body.status).toBe(-1);
      expect(res.body.error).toMatch(/^ver: unsupported ver/);
    }
  });

  it('ver 1 createaccount answers only status', async () => {
    const res = await action(
      api,
      'createaccount',
      { name: 'Old Client', username: `old.${Date.now()}@example.test` },
      { key: company.key },
      { ver: 1 },
    );
    expect(res.body).toEqual({ status: 0 });
  });

  it('data is required and must be an object', async () => {
    for (const data of [undefined, null, [], 'x', 5]) {
      const res = await action(api, 'getcompany', data, { key: company.key });
      expect(res.http).toBe(400);
      expect(res.body).toEqual({ status: -1, error: 'data: is required and must be an object' });
    }
  });

  it('unknown keys in data → -1 naming them', async () => {
    const res = await action(api, 'getcompany', { surprise: true }, { key: company.key });
    expect(res.body).toEqual({ status: -1, error: 'data.surprise: unknown field' });
  });

  it('values PostgreSQL cannot store are refused naming them, never a 500', async () => {
    const nul = await action(api, 'createaccount', { name: 'a\u0000b', username: `nul.${Date.now()}@example.test` }, { key: company.key });
    expect(nul.body).toEqual({ status: -1, error: 'data.name: must not contain the NUL character' });
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = { d: deep };
    const nested = await action(api, 'editcompany', { working_hours: deep }, { key: company.key });
    expect(nested.http).toBe(400);
    expect(nested.body.error).toContain('nested too deeply');
    const huge = await action(api, 'getnotifications', { since: 1e300 }, { key: company.key });
    expect(huge.body.status).toBe(-1);
    const q = await connector(api, 'GET', '/v1/members?query=a%00b', company.key);
    expect(q.http).toBe(400);
    expect(q.body.error.message).toBe('query.query: must not contain the NUL character');
  });

  it('a body over 5 MB → 413 in each surface’s shape', async () => {
    const big = JSON.stringify({ data: { pad: 'x'.repeat(5 * 1024 * 1024 + 10) } });
    const a = await raw('/api/getaccounts', big, { 'api-key': company.key });
    expect(a.http).toBe(413);
    expect(a.body.status).toBe(-1);
    const c = await fetch(`${api.url}/v1/members`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'api-key': company.key },
      body: big,
    });
    expect(c.status).toBe(413);
    expect(((await c.json()) as any).error.message).toEqual(expect.any(String));
  });

  it('connector: unknown route → 404; bad query parameter → 400 naming it', async () => {
    const nf = await connector(api, 'GET', '/v1/nothing-here', company.key);
    expect(nf.http).toBe(404);
    expect(nf.body.error.message).toEqual(expect.any(String));
    for (const bad of ['max=abc', 'max=-1', 'max=1.5', 'unknown=1']) {
      const res = await connector(api, 'GET', `/v1/members?${bad}`, company.key);
      expect(res.http).toBe(400);
      expect(res.body.error.message).toMatch(/^query\./);
    }
  });
});
