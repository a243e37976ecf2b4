import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  /** the raw body (form-urlencoded) */
  body: string;
  /** the parsed form fields */
  form: Record<string, string>;
  /** ms */
  at: number;
}

/** What the receiver answers for a request: a status (and headers, after `delayMs`), or hang (never answer). */
export type Reply = { status: number; headers?: Record<string, string>; delayMs?: number } | 'hang';

/**
 * A real HTTP webhook receiver on loopback, recording every request. `reply` decides the answer
 * per request (default 200); `hang` keeps the socket open without answering (timeouts).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  reply: (req: Received, nth: number) => Reply = () => ({ status: 200 });
  private server?: Server;
  private readonly hanging = new Set<ServerResponse>();
  /** path → requests received and not yet answered, now and at most */
  private readonly open = new Map<string, { now: number; max: number }>();
  /** path → requests received */
  private readonly counts = new Map<string, number>();
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (d: string) => (body += d));
      req.on('end', () => {
        const r: Received = {
          path: req.url ?? '',
          headers: req.headers,
          body,
          form: Object.fromEntries(new URLSearchParams(body)),
          at: Date.now(),
        };
        this.received.push(r);
        const open = this.open.get(r.path) ?? { now: 0, max: 0 };
        open.now += 1;
        open.max = Math.max(open.max, open.now);
        this.open.set(r.path, open);
        res.on('close', () => (open.now -= 1));
        const nth = (this.counts.get(r.path) ?? 0) + 1;
        this.counts.set(r.path, nth);
        const answer = this.reply(r, nth);
        if (answer === 'hang') {
          this.hanging.add(res);
          return;
        }
        if (answer.delayMs) {
          this.hanging.add(res);
          setTimeout(() => {
            this.hanging.delete(res);
            if (!res.destroyed) res.writeHead(answer.status, answer.headers).end('ok');
          }, answer.delayMs);
          return;
        }
        res.writeHead(answer.status, answer.headers).end('ok');
      });
    });
    // longer than the sender keeps an idle connection, so a reused one is never closed under it
    this.server.keepAliveTimeout = 10_000;
    await new Promise<void>((ok) => this.server!.listen(0, '127.0.0.1', ok));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    return this;
  }

  /** Distinct `webhook-id` headers seen so far. */
  ids(): Set<string> {
    return new Set(this.received.map((r) => String(r.headers['webhook-id'])));
  }

  /** The most requests to one path that were open (received, not yet answered) at once. */
  maxOpen(path: string): number {
    return this.open.get(path)?.max ?? 0;
  }

  /** Requests to one path, in arrival order. */
  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async waitFor(path: string, count: number, timeoutMs = 20_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const got = this.at(path);
      if (got.length >= count) return got;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`receiver: ${this.at(path).length} of ${count} requests to ${path} within ${timeoutMs} ms`);
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise((ok) => this.server?.close(ok) ?? ok(undefined));
  }
}

/**
 * Verifies a Standard Webhooks signature independently of the service's code: HMAC-SHA256 over
 * `id.timestamp.body` with the base64 secret after `whsec_`, compared against every `v1,` entry,
 * and the timestamp within `toleranceS` of `nowS`.
 */
export function verifySignature(secret: string, r: Received, nowS = Math.floor(Date.now() / 1000), toleranceS = 300): boolean {
  const id = String(r.headers['webhook-id']);
  const ts = String(r.headers['webhook-timestamp']);
  if (!/^\d+$/.test(ts) || Math.abs(nowS - Number(ts)) > toleranceS) return false;
  const expected = createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
    .update(`${id}.${ts}.${r.body}`)
    .digest();
  return String(r.headers['webhook-signature'])
    .split(' ')
    .some((sig) => {
      const [version, value] = sig.split(',');
      const got = Buffer.from(value ?? '', 'base64');
      return version === 'v1' && got.length === expected.length && timingSafeEqual(got, expected);
    });
}
