import { ALL_QUEUES } from '@app/core';
import { Client } from 'pg';
import { createCompany, startApi, TestApi } from './support/api';
import { ApiProcess, startApiProcess, stopAllChildren, waitFor } from './support/proc-child';

/**
 * Operations: JSON logs with a request id and no secrets, helmet headers, CORS off unless
 * configured, the queue dashboard behind credentials, and SIGTERM draining. The api runs as a BUILT
 * child process where its output or its exit is what is tested.
 */
describe('operations', () => {
  let api: TestApi;
  let db: Client;

  beforeAll(async () => {
    api = await startApi();
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await stopAllChildren();
    await db.end();
    await api.close();
  });

  const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('logs JSON lines with the request id, and none of the secrets', async () => {
    const company = await createCompany(api);
    const proc: ApiProcess = await startApiProcess({ LOG_LEVEL: 'log' });
    const password = 'Sup3r-secret-passw0rd';
    const headerSecret = 'Bearer webhook-header-secret-9876';
    const created = await post(
      proc.url,
      '/api/createaccount',
      { data: { name: 'Logged', username: `log.${Date.now()}@example.test`, password } },
      { 'api-key': company.key, 'x-request-id': 'req-ops-1' },
    );
    expect(created.headers.get('x-request-id')).toBe('req-ops-1');
    const hooks = await post(proc.url, '/api/setwebhooks', {
      auth: { usr: company.username, key: company.key },
      data: { job_created: { url: 'https://hooks.example.com/x', header: { Authorization: headerSecret } } },
    });
    expect(hooks.status).toBe(200);
    const generated = hooks.headers.get('x-request-id');
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    const bad = await post(proc.url, '/api/getaccounts', { data: {} }, { 'x-request-id': 'not valid!' });
    // /osmand's device id is a credential: an unknown one is refused, and the line shows no id
    const device = `dev-secret-${Date.now()}`;
    expect((await fetch(`${proc.url}/osmand?id=${device}&lat=46.05&lon=14.5`, { method: 'POST' })).status).toBe(400);
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(
      'the request lines',
      async () => (proc.child.stdout.includes(generated!) && proc.child.stdout.includes('/osmand?id=')) || undefined,
      {
        timeoutMs: 5_000,
        intervalMs: 50,
      },
    );
    const lines = proc.child.stdout.split('\n').filter((l) => l.startsWith('{'));
    expect(lines.length).toBeGreaterThan(3);
    for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
    const line = JSON.parse(lines.find((l) => l.includes('req-ops-1'))!);
    expect(line).toMatchObject({ req: { id: 'req-ops-1', url: '/api/createaccount' }, res: { statusCode: 200 } });
    const all = proc.child.stdout + proc.child.stderr;
    for (const secret of [company.key, password, headerSecret, 'webhook-header-secret-9876', device]) expect(all).not.toContain(secret);
    expect(all).toContain('/osmand?id=[redacted]&lat=46.05&lon=14.5');
  });

  it('answers with helmet’s headers; CORS is off unless origins are configured', async () => {
    const res = await fetch(`${api.url}/health/live`, { headers: { origin: 'https://evil.example' } });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const proc = await startApiProcess({ CORS_ORIGINS: 'https://app.example.com' });
    const ok = await fetch(`${proc.url}/health/live`, { headers: { origin: 'https://app.example.com' } });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const other = await fetch(`${proc.url}/health/live`, { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('/admin/queues: 404 without credentials configured, 401 with wrong ones, 200 with the right, every queue listed', async () => {
    expect((await fetch(`${api.url}/admin/queues`)).status).toBe(404);
    const proc = await startApiProcess({ QUEUE_DASHBOARD_USER: 'support', QUEUE_DASHBOARD_PASSWORD: 'pa:ss word' });
    const basic = (u: string, p: string) => ({ authorization: `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}` });
    expect((await fetch(`${proc.url}/admin/queues`)).status).toBe(401);
    expect((await fetch(`${proc.url}/admin/queues`, { headers: basic('support', 'wrong') })).status).toBe(401);
    expect((await fetch(`${proc.url}/admin/queues/api/queues`, { headers: basic('someone', 'pa:ss word') })).status).toBe(401);
    const page = await fetch(`${proc.url}/admin/queues`, { headers: basic('support', 'pa:ss word') });
    expect(page.status).toBe(200);
    const list = await fetch(`${proc.url}/admin/queues/api/queues`, { headers: basic('support', 'pa:ss word') });
    const body = (await list.json()) as { queues: Array<{ name: string; readOnlyMode: boolean }> };
    expect(body.queues.map((q) => q.name).sort()).toEqual([...ALL_QUEUES].sort());
    expect(body.queues.every((q) => q.readOnlyMode)).toBe(true);
  });

  it('SIGTERM during a slow request: readiness fails first, the request completes, then the process exits 0', async () => {
    const company = await createCompany(api);
    const created = await post(api.url, '/api/createjobs', { data: { jobs: [{ destinationName: 'Held' }] } }, { 'api-key': company.key });
    const jobId = ((await created.json()) as { jobs: Array<{ id: string }> }).jobs[0].id;
    const proc = await startApiProcess({ SHUTDOWN_DRAIN_MS: '1500' });
    // a transaction holds the job's row: the edit below waits for it
    await db.query('BEGIN');
    await db.query('SELECT 1 FROM jobs WHERE id = $1 FOR UPDATE', [jobId]);
    const slow = post(proc.url, '/api/editjobs', { data: { jobs: { [jobId]: { priority: 5 } } } }, { 'api-key': company.key });
    await new Promise((r) => setTimeout(r, 300));
    proc.child.proc.kill('SIGTERM');
    const ready = await waitFor(
      'readiness to fail',
      async () => {
        const res = await fetch(`${proc.url}/health/ready`);
        return res.status === 503 ? res : undefined;
      },
      { timeoutMs: 1_400, intervalMs: 50 },
    );
    expect(
      ((await ready.json()) as { info?: { instance?: { draining: boolean } }; error?: { instance?: { draining: boolean } } }).error
        ?.instance?.draining,
    ).toBe(true);
    await new Promise((r) => setTimeout(r, 1_700)); // past the drain: the server is closing, the request still in flight
    await db.query('COMMIT');
    const res = await slow;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: number }).status).toBe(0);
    const exit = await proc.child.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect((await db.query('SELECT priority FROM jobs WHERE id = $1', [jobId])).rows[0].priority).toBe(5);
  });
});
