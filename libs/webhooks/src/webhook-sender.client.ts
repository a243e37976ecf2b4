import { Agent, request } from 'undici';
import { BlockedAddressError, isForbiddenAddress, literalAddress, safeLookup } from './url-safety';

/** The outcome of one HTTP attempt. */
export interface SendResult {
  /** HTTP status, or null when no answer came */
  status: number | null;
  /** why no answer came, or a short description of a failure */
  error: string | null;
  retryAfter?: string;
  /** ms */
  durationMs: number;
}

/**
 * POSTs webhook bodies through undici with: a total timeout, no redirects followed (a 3xx is a
 * failure), the SSRF-safe lookup on every connection, and IP-literal hosts checked before
 * connecting (they bypass DNS). One instance (one connection pool) per worker process.
 */
export class WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly opts: { timeoutMs: number; allowPrivate: boolean; dnsServers?: string[] }) {
    this.agent = new Agent({
      connect: { lookup: safeLookup(opts.allowPrivate, opts.dnsServers), timeout: opts.timeoutMs },
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
      connections: 64,
    });
  }

  /** @param contentType the body's (the nine keys' form by default; a REST hook's JSON) */
  async post(
    url: string,
    headers: Record<string, string>,
    body: string,
    contentType = 'application/x-www-form-urlencoded',
  ): Promise<SendResult> {
    const started = Date.now();
    const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({ ...r, durationMs: Date.now() - started });
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return done({ status: null, error: 'invalid URL' });
    }
    if (!this.opts.allowPrivate) {
      if (parsed.protocol !== 'https:') return done({ status: null, error: 'blocked: only https URLs are allowed' });
      const literal = literalAddress(parsed.hostname);
      if (literal && isForbiddenAddress(literal)) return done({ status: null, error: `blocked: ${literal} is not a public address` });
    }
    try {
      const res = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: { ...headers, 'content-type': contentType, 'user-agent': 'Fieldwork-Webhooks/1.0' },
        body,
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
      await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      const retryAfter = res.headers['retry-after'];
      return done({
        status: res.statusCode,
        error: res.statusCode >= 200 && res.statusCode < 300 ? null : `HTTP ${res.statusCode}`,
        retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
      });
    } catch (err) {
      return done({ status: null, error: describe(err) });
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

function describe(err: unknown): string {
  const e = err as Error & { code?: string; cause?: Error & { code?: string } };
  const inner = e.cause ?? e;
  if (inner instanceof BlockedAddressError || (inner as { code?: string }).code === 'EBLOCKED') return `blocked: ${inner.message}`;
  if (
    e.name === 'TimeoutError' ||
    e.name === 'AbortError' ||
    inner.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    inner.code === 'UND_ERR_CONNECT_TIMEOUT'
  )
    return 'timeout';
  return `${inner.code ?? inner.name}: ${inner.message}`.slice(0, 300);
}
