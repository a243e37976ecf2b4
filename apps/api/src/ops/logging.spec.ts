import { createServer, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { loggedUrl, noteAnsweredError, redactLoggedError, REDACTED_PATHS, requestFacts, requestLog, serializeRequest, serializeResponse } from './logging';

describe('request log lines', () => {
  it('redact /osmand’s device id, whatever parameter carries it', () => {
    expect(loggedUrl('/osmand?id=ABC123&lat=46.1&lon=14.5')).toBe('/osmand?id=[redacted]&lat=46.1&lon=14.5');
    expect(loggedUrl('/osmand/?lat=1&deviceid=x%20y&lon=2')).toBe('/osmand/?lat=1&deviceid=[redacted]&lon=2');
    expect(loggedUrl('/osmand?ID=a')).toBe('/osmand?ID=[redacted]');
    expect(loggedUrl('/api/getjobs?id=1')).toBe('/api/getjobs?id=1');
    expect(loggedUrl('/v1/stream?events=jobcreated&token=st_abc&lastEventId=3')).toBe(
      '/v1/stream?events=jobcreated&token=[redacted]&lastEventId=3',
    );
    expect(loggedUrl('/v1/stream?TOKEN=x')).toBe('/v1/stream?TOKEN=[redacted]');
  });

  it('keep the id, method, URL as received, address and user agent of a request, no other header', () => {
    const line = serializeRequest({
      id: 'r1',
      method: 'POST',
      // Express cuts `url` while a mounted middleware runs; the line names the URL as received
      url: '/',
      originalUrl: '/osmand?id=dev',
      socket: { remoteAddress: '127.0.0.1' },
      headers: { 'user-agent': 'Traccar Client', 'api-key': 'fwk_secret', cookie: 'c' },
    });
    expect(line).toEqual({
      id: 'r1',
      method: 'POST',
      url: '/osmand?id=[redacted]',
      remoteAddress: '127.0.0.1',
      userAgent: 'Traccar Client',
    });
  });
});

describe('request facts and the response part of a line', () => {
  it('keep the status of a response, not its headers', () => {
    expect(serializeResponse({ statusCode: 400, headers: { 'content-security-policy': "default-src 'self'" } } as never)).toEqual({
      statusCode: 400,
    });
  });

  it('name the caller’s company and member once authenticated, and the answered error text, cut past 300 characters', () => {
    const req = { auth: { companyId: 'C1', memberId: 'M1' } } as never;
    const res = {} as never;
    expect(requestFacts(req, res)).toEqual({ company: 'C1', member: 'M1' });
    noteAnsweredError(res, 'data.accounts: must be an array');
    expect(requestFacts({} as never, res)).toEqual({ error: 'data.accounts: must be an array' });
    noteAnsweredError(res, 'x'.repeat(400));
    const cut = requestFacts({} as never, res).error!;
    expect(cut).toHaveLength(300);
    expect(cut.endsWith('x…')).toBe(true);
  });
});

describe('request lines (requestLog over a real HTTP server)', () => {
  /** Serves `answer` behind the api's request log; returns the JSON lines written. */
  async function linesFor(
    answer: (res: ServerResponse) => void,
    headers: Record<string, string> = {},
    { level = 'info', path = '/api/getaccounts?token=st_secret' } = {},
  ): Promise<Record<string, unknown>[]> {
    const written: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (written.push(String(chunk)), done()) });
    const logger = pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, sink);
    const middleware = requestLog(logger);
    const server = createServer((req, res) => middleware(req, res, () => answer(res)));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers });
      await res.arrayBuffer();
      await new Promise((r) => setTimeout(r, 20));
    } finally {
      await new Promise((r) => server.close(r));
    }
    return written.map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  it('a 400: info, status and error text, the request without headers, the response without headers', async () => {
    const [line, ...more] = await linesFor(
      (res) => {
        noteAnsweredError(res, 'data.bogus: unknown field');
        res.setHeader('Content-Security-Policy', "default-src 'self'");
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"status":-1,"error":"data.bogus: unknown field"}');
      },
      { 'api-key': 'fwk_secret_key', 'x-request-id': 'unit-1' },
    );
    expect(more).toEqual([]);
    expect(line).toMatchObject({ level: 30, msg: 'request completed', res: { statusCode: 400 }, error: 'data.bogus: unknown field' });
    expect(line.req).toEqual({ id: 'unit-1', method: 'POST', url: '/api/getaccounts?token=[redacted]', remoteAddress: '127.0.0.1', userAgent: 'node' });
    expect(line.res).toEqual({ statusCode: 400 });
    expect(JSON.stringify(line)).not.toMatch(/headers|content-security-policy|fwk_secret_key|st_secret/i);
  });

  it('a 500: level error with the answered error id, no stack of its own', async () => {
    const [line] = await linesFor((res) => {
      noteAnsweredError(res, 'internal error (id abc)');
      res.writeHead(500).end();
    });
    expect(line).toMatchObject({ level: 50, msg: 'request errored', res: { statusCode: 500 }, error: 'internal error (id abc)' });
    expect(line.err).toBeUndefined();
  });

  it('answers the request id: the client’s when valid, else a new UUID', async () => {
    let answered: string | undefined;
    const lines = await linesFor(
      (res) => {
        answered = String(res.getHeader('x-request-id'));
        res.end();
      },
      { 'x-request-id': 'not valid!' },
    );
    expect(answered).toMatch(/^[0-9a-f-]{36}$/);
    expect((lines[0].req as { id: string }).id).toBe(answered);
  });

  it('a 5xx still logged at level error; health probes never; the noted error text rewritten when asked', async () => {
    const [errored, ...none] = await linesFor(
      (res) => {
        noteAnsweredError(res, 'unknown device: dev-1');
        redactLoggedError(res, (t) => t.replace('dev-1', '[redacted]'));
        res.writeHead(503).end();
      },
      {},
      { level: 'error' },
    );
    expect(none).toEqual([]);
    expect(errored).toMatchObject({ level: 50, res: { statusCode: 503 }, error: 'unknown device: [redacted]' });
    expect(await linesFor((res) => res.writeHead(400).end(), {}, { level: 'error' })).toEqual([]);
    expect(await linesFor((res) => res.end(), {}, { path: '/health/live' })).toEqual([]);
  });
});
