/**
 * Rules for an endpoint's custom headers (CONTRACTS.md, "Configuration"): names are RFC 7230
 * tokens, values have no CR/LF/NUL, at most 20 headers of at most 1 kB each; names that would
 * override the delivery itself are refused (`webhook-*`, hop-by-hop, `host`, `content-*`).
 */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'trailers',
  'transfer-encoding',
  'upgrade',
  'host',
  'expect',
]);
export const MAX_HEADERS = 20;
export const MAX_HEADER_BYTES = 1024;

/** null when valid, else the rule broken (a phrase naming the header). */
export function headersProblem(headers: unknown): string | null {
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) return 'must be an object of header name to value';
  const entries = Object.entries(headers as Record<string, unknown>);
  if (entries.length > MAX_HEADERS) return `at most ${MAX_HEADERS} headers`;
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    const lower = name.toLowerCase();
    if (!TOKEN.test(name)) return `header name "${name.slice(0, 40)}" must be an RFC 7230 token`;
    if (seen.has(lower)) return `header ${name} is given twice`;
    seen.add(lower);
    if (lower.startsWith('webhook-') || lower.startsWith('content-') || HOP_BY_HOP.has(lower)) return `header ${name} is reserved`;
    if (typeof value !== 'string') return `header ${name} must have a string value`;
    if (/[\r\n\0]/.test(value)) return `header ${name} must not contain CR, LF or NUL`;
    if (Buffer.byteLength(name) + Buffer.byteLength(value) > MAX_HEADER_BYTES)
      return `header ${name} must be at most ${MAX_HEADER_BYTES} bytes`;
  }
  return null;
}

/** A header value as answered: only its last 4 characters shown. */
export function maskHeaderValue(value: string): string {
  return value.length <= 4 ? '****' : `****${value.slice(-4)}`;
}
