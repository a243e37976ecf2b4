import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import helmet from 'helmet';
import { shareSecurityHeaders } from '../share/share-csp';
import { fixedHeaders, Middleware } from './fixed-headers';

/** The headers a server answering through `middleware` sends to `path` (less the date). */
async function headersThrough(middleware: Middleware, path: string): Promise<Record<string, string>> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => middleware(req, res, () => res.end('{}')));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, { method: 'POST' });
    await res.arrayBuffer();
    const headers = Object.fromEntries(res.headers);
    delete headers.date;
    return headers;
  } finally {
    await new Promise((r) => server.close(r));
  }
}

describe('fixedHeaders', () => {
  it('sends exactly the headers helmet sends (defaults, and the share pages’ options)', async () => {
    for (const make of [() => helmet(), () => shareSecurityHeaders('https://{s}.tile.example.org/{z}/{x}/{y}.png')]) {
      const fixed = await headersThrough(fixedHeaders(make() as Middleware), '/api/getjobs?x=1');
      expect(fixed).toEqual(await headersThrough(make() as Middleware, '/api/getjobs?x=1'));
      expect(fixed['content-security-policy']).toContain("default-src '");
      expect(fixed['x-content-type-options']).toBe('nosniff');
      expect(fixed['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    }
  });

  it('refuses a middleware that does not pass on synchronously or fails', () => {
    expect(() => fixedHeaders(() => undefined)).toThrow(/did not call next/);
    expect(() => fixedHeaders((_q, _s, next) => next(new Error('no')))).toThrow('no');
  });
});
