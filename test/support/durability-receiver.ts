import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import type { Received } from './webhook-receiver';

/**
 * A loopback webhook receiver for the durability tests: records every request (same shape as
 * `WebhookReceiver`, so `verifySignature` applies) and answers 200 after `delayMs`, so a backlog
 * builds up behind the per-endpoint in-flight cap and a fault can land mid-stream.
 */
export class SlowReceiver {
  readonly received: Received[] = [];
  url = '';
  private server?: Server;

  constructor(private readonly delayMs: number) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (d: string) => (body += d));
      req.on('end', () => {
        this.received.push({
          path: req.url ?? '',
          headers: req.headers,
          body,
          form: Object.fromEntries(new URLSearchParams(body)),
          at: Date.now(),
        });
        setTimeout(() => res.writeHead(200).end('ok'), this.delayMs);
      });
    });
    this.server.keepAliveTimeout = 10_000;
    await new Promise<void>((ok) => this.server!.listen(0, '127.0.0.1', ok));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Distinct `webhook-id` headers seen so far. */
  ids(): Set<string> {
    return new Set(this.received.map((r) => String(r.headers['webhook-id'])));
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((ok) => this.server!.close(ok));
    this.server = undefined;
  }
}
