import { request as httpRequest } from 'node:http';
import { action, connector, createCompany, startApi, TestApi, TestCompany } from '../support/api';

/**
 * Edges of the envelope found by fuzzing (issue #9, item 10): ids no row can have, bodies that are
 * JSON but not objects, request heads beyond Node's limit. Never a 5xx, always the surface's shape.
 */
describe('envelope edges', () => {
  let api: TestApi;
  let company: TestCompany;

  beforeAll(async () => {
    api = await startApi();
    company = await createCompany(api);
  });
  afterAll(() => api.close());

  const notFound = { http: 404, body: { error: { message: expect.any(String) } } };

  it('JSON answers to POST carry no ETag (nobody can revalidate a POST); GET answers keep theirs and answer 304 to If-None-Match', async () => {
    const post = (path: string, body: unknown, key?: string) =>
      fetch(`${api.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key ? { 'api-key': key } : {}) },
        body: JSON.stringify(body),
      });
    // an action's object answer, getjobs' JSON text, an error answer, a connector write
    for (const res of [
      await post('/api/getaccounts', { data: {} }, company.key),
      await post('/api/getjobs', { data: { day: -1 } }, company.key),
      await post('/api/getaccounts', { data: { bogus: 1 } }, company.key),
      await post('/v1/jobs', { title: 'etag' }, company.key),
    ]) {
      const text = await res.text();
      expect({ url: res.url, etag: res.headers.get('etag') }).toEqual({ url: res.url, etag: null });
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
      // helmet's headers and the request id, as on every answer
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(() => JSON.parse(text) as unknown).not.toThrow();
    }
    // a GET keeps Express's ETag; the job written above may still be stamped after its commit, so the
    // list is read until it stops changing
    let etag: string | null = null;
    for (let i = 0; i < 20; i++) {
      const listed = await fetch(`${api.url}/v1/jobs`, { headers: { 'api-key': company.key } });
      await listed.arrayBuffer();
      const next = listed.headers.get('etag');
      expect(next).toMatch(/^W\/"/);
      if (next === etag) break;
      etag = next;
      await new Promise((r) => setTimeout(r, 50));
    }
    // node:http, not fetch: fetch adds `Cache-Control: no-cache` to a conditional request
    const again = await new Promise<{ status: number }>((resolve, reject) => {
      const req = httpRequest(`${api.url}/v1/jobs`, { headers: { 'api-key': company.key, 'if-none-match': etag! } }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode! }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(again.status).toBe(304);
  });

  it('a path id holding a NUL byte, over 64 characters or empty-looking is an unknown id (404) on every /v1/jobs/{id} route', async () => {
    const created = await connector(api, 'POST', '/v1/jobs', company.key, { title: 'edges' });
    expect(created.http).toBe(201);
    for (const id of ['%00', 'a%00b', `${created.body.data.items[0].id}%00`, 'x'.repeat(65), '%20', '%E2%80%8B']) {
      const calls = [
        await connector(api, 'GET', `/v1/jobs/${id}`, company.key),
        await connector(api, 'DELETE', `/v1/jobs/${id}`, company.key),
        await connector(api, 'POST', `/v1/jobs/${id}/archive`, company.key),
        await connector(api, 'PATCH', `/v1/jobs/${id}`, company.key, { title: 'x' }),
      ];
      for (const res of calls) expect({ id, res }).toEqual({ id, res: notFound });
    }
    // the job itself is untouched
    const again = await connector(api, 'GET', `/v1/jobs/${created.body.data.items[0].id}`, company.key);
    expect(again.body.data.items[0]).toMatchObject({ title: 'edges', archived: false });
  });

  it('a path that does not decode (%FF, %C0%80, a lone %) is an unknown route or id: 404 in the surface’s shape', async () => {
    for (const id of ['%FF', '%C0%80', '%', '%E0%A4%A']) {
      for (const key of [company.key, undefined]) {
        expect({ id, res: await connector(api, 'GET', `/v1/jobs/${id}`, key) }).toEqual({ id, res: notFound });
        expect({ id, res: await connector(api, 'PATCH', `/v1/jobs/${id}`, key, { title: 'x' }) }).toEqual({ id, res: notFound });
      }
      expect({ id, res: await action(api, id, {}, { key: company.key }) }).toEqual({
        id,
        res: { http: 404, body: { status: 1001, error: expect.any(String) } },
      });
    }
  });

  it('ids with a NUL byte in an action’s data never reach PostgreSQL: -1/400 naming the field', async () => {
    const cases: Array<[string, object, string]> = [
      ['getjobs', { id: 'a\u0000' }, 'data.id'],
      ['getjobs', { ids: ['a\u0000'] }, 'data.ids[0]'],
      ['editjobs', { jobs: { 'a\u0000': { destinationName: 'x' } } }, 'data.jobs'],
      ['deletejobs', { jobs: { 'a\u0000': {} } }, 'data.jobs'],
      ['getaccounts', { uids: ['a\u0000'] }, 'data.uids[0]'],
      ['deleteaccount', { uid: '\u0000' }, 'data.uid'],
      ['createjobs', { jobs: [{ destinationName: 'a\u0000' }] }, 'data.jobs[0].destinationName'],
    ];
    for (const [name, data, field] of cases) {
      const res = await action(api, name, data, { key: company.key });
      expect({ name, res }).toEqual({ name, res: { http: 400, body: { status: -1, error: expect.stringContaining(field) } } });
    }
  });

  it('a connector body that is JSON but not an object → 400 after authentication', async () => {
    for (const body of [[], [1], 'x', 5, null]) {
      expect({ body, res: await connector(api, 'POST', '/v1/jobs', undefined, body) }).toEqual({
        body,
        res: { http: 401, body: { error: { message: expect.any(String) } } },
      });
      expect({ body, res: await connector(api, 'POST', '/v1/jobs', company.key, body) }).toEqual({
        body,
        res: { http: 400, body: { error: { message: expect.stringContaining('body') } } },
      });
      expect({ body, res: await connector(api, 'PATCH', '/v1/jobs', company.key, body) }).toEqual({
        body,
        res: { http: 400, body: { error: { message: expect.stringContaining('body') } } },
      });
    }
  });

  it('found by fuzzing: getjobs orderIds beyond 2^53 → -1/400, not a 500 (bigint cast)', async () => {
    for (const orderIds of [[1e21], [2 ** 63], [Number.MAX_SAFE_INTEGER + 2]]) {
      const res = await action(api, 'getjobs', { orderIds }, { key: company.key });
      expect({ orderIds, res }).toEqual({ orderIds, res: { http: 400, body: { status: -1, error: expect.stringContaining('data.orderIds') } } });
    }
    expect((await action(api, 'getjobs', { orderIds: [Number.MAX_SAFE_INTEGER] }, { key: company.key })).body).toEqual({ status: 0, jobs: [] });
  });

  it('found by fuzzing: a language code longer than its column (16) → -1/400 naming it, not a 500', async () => {
    const long = 'yqq-Z5MFfqbe-3D10J-Mp1UX';
    const edit = await action(api, 'editaccount', { uid: company.ownerUid, language: long }, { key: company.key });
    expect(edit).toEqual({ http: 400, body: { status: -1, error: expect.stringContaining('data.language') } });
    const ok = await action<{ account: { language: string } }>(api, 'editaccount', { uid: company.ownerUid, language: 'pt-BR' }, { key: company.key });
    expect(ok.body.account.language).toBe('pt-BR');
  });

  it('found by fuzzing: a lone surrogate (not well-formed Unicode) → 400 naming the field, never a 500 (IsEmail threw)', async () => {
    const email = await connector(api, 'POST', '/v1/jobs', company.key, { title: 'x', contact: { email: '\ud800' } });
    expect(email).toEqual({ http: 400, body: { error: { message: expect.stringContaining('body.contact.email') } } });
    const act = await action(api, 'createaccount', { name: 'x', username: `ls.${Date.now()}@example.test`, email: 'a\udc00@b.c' }, { key: company.key });
    expect(act).toEqual({ http: 400, body: { status: -1, error: expect.stringContaining('data.email') } });
    const name = await action(api, 'editcompany', { name: 'a\ud83d' }, { key: company.key });
    expect(name).toEqual({ http: 400, body: { status: -1, error: expect.stringContaining('data.name') } });
    // a well-formed pair (an emoji) is fine
    expect((await action(api, 'editcompany', { name: 'Co \ud83d\ude00' }, { key: company.key })).body.status).toBe(0);
  });

  it('an unknown route outside /api and /v1 → 404 in the action envelope’s shape (was Nest’s {message, error, statusCode})', async () => {
    for (const [method, path] of [
      ['GET', '/nope'],
      ['GET', '/'],
      ['POST', '/nope/deeper?x=1'],
      ['DELETE', '/health/nope'],
      ['GET', '/share'],
      ['GET', '/share/nope/x'],
    ]) {
      const res = await fetch(`${api.url}${path}`, { method });
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const route = path.split('?')[0];
      expect({ path, http: res.status, body: await res.json() }).toEqual({
        path,
        http: 404,
        body: { status: 1001, error: `route not found: ${method} ${route}` },
      });
    }
    // the operational routes' own answers are kept
    expect((await fetch(`${api.url}/health/live`)).status).toBe(200);
  });

  /** A request whose head is larger than Node's `maxHeaderSize` (16 KiB by default). */
  const oversized = (path: string, method: string) =>
    new Promise<{ http: number; contentType?: string; body: string }>((resolve, reject) => {
      const req = httpRequest(`${api.url}${path}?q=${'a'.repeat(20_000)}`, { method, headers: { 'content-type': 'application/json' } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ http: res.statusCode!, contentType: res.headers['content-type'], body }));
      });
      req.on('error', reject);
      req.end(method === 'POST' ? '{"data": {}}' : undefined);
    });

  it('a query string beyond the header limit → 431 in the surface’s shape', async () => {
    const act = await oversized('/api/getjobs', 'POST');
    expect(act.http).toBe(431);
    expect(act.contentType).toMatch(/^application\/json/);
    expect(JSON.parse(act.body)).toEqual({ status: -1, error: expect.stringContaining('header') });
    const conn = await oversized('/v1/jobs', 'GET');
    expect(conn.http).toBe(431);
    expect(JSON.parse(conn.body)).toEqual({ error: { message: expect.stringContaining('header') } });
    // outside /api and /v1 (operational routes, /osmand, share links) the action shape too
    for (const path of ['/health/live', '/osmand', '/share/tracks/x', '/nope']) {
      const other = await oversized(path, 'GET');
      expect({ path, http: other.http, body: JSON.parse(other.body) }).toEqual({
        path,
        http: 431,
        body: { status: -1, error: expect.stringContaining('header') },
      });
    }
    // the server still serves
    expect((await fetch(`${api.url}/health/ready`)).status).toBe(200);
  });
});
