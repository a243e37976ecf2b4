import { createCompany, startApi, TestApi, TestCompany } from '../support/api';
import { ApiProcess, spawnNode, startApiProcess, stopAllChildren, waitFor } from '../support/proc-child';

/**
 * What the processes print (issue #26, docs/decisions.md "Logs"): the BUILT api and worker as child
 * processes, their stdout captured. `LOG_FORMAT=pretty` (what `npm run dev` sets) gives one readable
 * line per request — method, path, status, ms, request id, company, member and the error text of an
 * error answer — and the worker writes the same style; JSON (the default) keeps a request line to
 * what support needs, no response headers. Needs `npm run build` first (scripts/test.sh does it).
 */

/** Headers every answer carries (helmet's, ours): none belongs in a request line. */
const RESPONSE_HEADERS = ['content-security-policy', 'x-content-type-options', 'strict-transport-security', 'x-request-id', 'content-type'];

const post = (base: string, path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

/** The stdout line of `proc` holding `text`, once written. */
const lineWith = (proc: ApiProcess, text: string) =>
  waitFor(`a log line with ${text}`, () => proc.child.stdout.split('\n').find((l) => l.includes(text)), { timeoutMs: 5_000, intervalMs: 50 });

describe('the processes’ logs', () => {
  let api: TestApi;
  let company: TestCompany;

  beforeAll(async () => {
    api = await startApi();
    company = await createCompany(api);
  });
  afterEach(() => stopAllChildren());
  afterAll(() => api.close());

  it('LOG_FORMAT=pretty: a 400 is one line with method, path, status, ms, request id, company, member and its error text', async () => {
    const proc = await startApiProcess({ LOG_FORMAT: 'pretty', LOG_LEVEL: 'log' });
    const res = await post(proc.url, '/api/getaccounts', JSON.stringify({ data: { bogus: 1 } }), {
      'api-key': company.key,
      'x-request-id': 'dev-log-400',
    });
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { status: number; error: string };
    expect(answer.error).toContain('bogus');

    const line = await lineWith(proc, 'req=dev-log-400');
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(api\): POST \/api\/getaccounts 400 \d+ ms req=dev-log-400 /);
    expect(line).toContain(`company=${company.companyUid}`);
    expect(line).toContain(`member=${company.ownerUid}`);
    expect(line).toContain(`error: ${answer.error}`);
    for (const header of RESPONSE_HEADERS) expect(line.toLowerCase()).not.toContain(header);

    // a body the parser refuses (answered before Nest's middleware) has its line and its request id too
    const malformed = await post(proc.url, '/api/getaccounts', '{"data":', { 'x-request-id': 'dev-log-malformed' });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('x-request-id')).toBe('dev-log-malformed');
    expect(await lineWith(proc, 'req=dev-log-malformed')).toMatch(/POST \/api\/getaccounts 400 \d+ ms req=dev-log-malformed error: body: malformed JSON$/);

    const out = proc.child.stdout;
    expect(out).not.toContain(company.key);
    // every line pretty, none JSON; Nest's route and module inventory only at debug; nothing on stderr
    expect(out.split('\n').filter((l) => l.startsWith('{'))).toEqual([]);
    expect(out).toContain('[Api] fieldwork api listening on :');
    expect(out).not.toMatch(/Mapped \{|RoutesResolver|InstanceLoader/);
    expect(proc.child.stderr).toBe('');
  });

  it('JSON (the default): a request line holds no headers, keeps what support needs, redacts the device id in the error too', async () => {
    const proc = await startApiProcess({ LOG_LEVEL: 'log' });
    const res = await post(proc.url, '/api/getaccounts', JSON.stringify({ data: { bogus: 1 } }), {
      'api-key': company.key,
      'x-request-id': 'json-log-400',
    });
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { error: string };
    const line = JSON.parse(await lineWith(proc, '"json-log-400"')) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 30,
      name: 'api',
      msg: 'request completed',
      req: { id: 'json-log-400', method: 'POST', url: '/api/getaccounts' },
      res: { statusCode: 400 },
      company: company.companyUid,
      member: company.ownerUid,
      error: answer.error,
    });
    expect(line.res).toEqual({ statusCode: 400 });
    expect(Object.keys(line.req as object).sort()).toEqual(['id', 'method', 'remoteAddress', 'url', 'userAgent']);
    expect(typeof line.responseTime).toBe('number');
    const raw = JSON.stringify(line).toLowerCase();
    for (const header of [...RESPONSE_HEADERS, '"headers"']) expect(raw).not.toContain(header);

    // /osmand answers an unknown device naming it; the line redacts it in the URL and in the error
    const device = `dev-secret-${Date.now()}`;
    expect((await fetch(`${proc.url}/osmand?id=${device}&lat=46.05&lon=14.5`, { method: 'POST' })).status).toBe(400);
    const osmand = JSON.parse(await lineWith(proc, '/osmand?id=')) as { error: string; req: { url: string } };
    expect(osmand.req.url).toBe('/osmand?id=[redacted]&lat=46.05&lon=14.5');
    expect(osmand.error).toBe('id: unknown device: [redacted]');
    expect(proc.child.stdout).not.toContain(device);
    expect(proc.child.stdout).not.toContain(company.key);
  });

  it('LOG_FORMAT=pretty: the worker writes the same style, and starts without library warnings', async () => {
    const worker = spawnNode('worker', 'dist/apps/worker/src/main.js', { LOG_FORMAT: 'pretty', LOG_LEVEL: 'log' });
    await waitFor('the worker to start', () => worker.stdout.includes('fieldwork worker started') || (!worker.running && fail(worker.output())), {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    expect(worker.stdout).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(worker\): \[Worker\] fieldwork worker started$/m);
    const lines = worker.stdout.split('\n').filter(Boolean);
    for (const l of lines) expect(l).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] (INFO|WARN|ERROR) \(worker\): /);
    expect(lines.filter((l) => !/ INFO /.test(l))).toEqual([]);
    expect(worker.stdout).not.toContain('InstanceLoader');
    expect(worker.stderr).toBe('');
  });
});

function fail(output: string): never {
  throw new Error(`the worker exited during start-up\n${output}`);
}
