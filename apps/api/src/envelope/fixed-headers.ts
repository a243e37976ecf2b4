import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

/** An Express-style middleware. */
export type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/**
 * The headers `middleware` sets on every response, read once by running it on a throwaway request,
 * and a middleware that sets exactly those (one `setHeader` each, in the same order). For helmet's
 * headers with static options (no nonce, nothing read from the request): helmet runs twelve small
 * middlewares per request to set the same twelve values. Throws when `middleware` does not call
 * `next` synchronously without an error (it would not be a fixed set of headers).
 */
export function fixedHeaders(middleware: Middleware): Middleware {
  const req = new IncomingMessage(new Socket());
  req.method = 'GET';
  req.url = '/';
  const res = new ServerResponse(req);
  let passed = false;
  middleware(req, res, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error(String(err));
    passed = true;
  });
  if (!passed) throw new Error('fixedHeaders: the middleware did not call next synchronously');
  const headers = res.getHeaderNames().map((name) => [name, res.getHeader(name)!] as const);
  return (_req, out, next) => {
    for (const [name, value] of headers) out.setHeader(name, value);
    next();
  };
}
