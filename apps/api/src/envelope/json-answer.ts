import { ServerResponse } from 'node:http';

/**
 * An answer already serialized as JSON text, or as that text's UTF-8 bytes, sent as it is by
 * {@link sendJsonText} (the api's Express adapter recognises it): with `Content-Type:
 * application/json; charset=utf-8` and its `Content-Length`, never parsed, stringified, copied or
 * hashed again. `T` is the answer's shape: the response-schema generator documents a handler
 * answering `JsonAnswer<T>` as answering `T`. The caller guarantees `json` is `T`'s JSON (bytes:
 * UTF-8, e.g. put together with `jsonListUtf8` from parts encoded once for several uses).
 */
export class JsonAnswer<T> {
  /** `T`, for the type checker and the schema generator only (never set). */
  declare readonly shape?: T;

  constructor(readonly json: string | Buffer) {}

  /**
   * The answer itself, for a server without the api's adapter (a test module booted with Nest's
   * own): `res.json` then serializes it back to the same text. Never called by the api.
   */
  toJSON(): T {
    return JSON.parse(typeof this.json === 'string' ? this.json : this.json.toString('utf8')) as T;
  }
}

/** The methods whose answers may be revalidated (`If-None-Match` → 304): only they get an ETag. */
const REVALIDATED = new Set(['GET', 'HEAD']);

/**
 * Whether an answer to `req` is sent without an ETag: every method but GET and HEAD. Express
 * answers `res.json` with a weak ETag, the sha1 of the whole body, but only a GET or HEAD can be
 * answered 304 (`req.fresh` is false for any other method) and no cache stores a POST answer, so
 * for the action API (all POST) and the connector's writes the hash is work nobody uses — ~4 ms for
 * a 2 MB answer, ~0.1 ms for 60 kB. GET answers (connector reads, share pages) keep theirs.
 */
export const answersWithoutEtag = (req: { method?: string }): boolean => !REVALIDATED.has(req.method ?? 'GET');

/** Statuses Express answers without a body (it strips Content-Type and Content-Length): left to it. */
const BODILESS = new Set([204, 205, 304]);

/**
 * Whether JSON answered on `res` with `statusCode` may be sent by {@link sendJsonText} with nothing
 * but the ETag differing from Express's `res.json`: a request answered without an ETag
 * ({@link answersWithoutEtag}), a status with a body, and no Content-Type or Transfer-Encoding set
 * already (Express would adapt those).
 */
export function sendsJsonWithoutEtag(res: ServerResponse & { req: { method?: string } }, statusCode = res.statusCode): boolean {
  return answersWithoutEtag(res.req) && !BODILESS.has(statusCode) && !res.hasHeader('Content-Type') && !res.hasHeader('Transfer-Encoding');
}

/**
 * Answers of at least this many UTF-16 code units (≥ as many UTF-8 bytes) are encoded to a Buffer
 * before the write; shorter ones are written as text. Node 20 writes a long string to a socket far
 * slower than the same bytes as a Buffer, and a short one faster (one packet with the headers).
 * Measured on loopback, bare `node:http`, p50 of a keep-alive POST: 2 MB (a 1,000-job createjobs
 * answer) 23–37 ms as text, 13–15 ms encoded first; 1 MB 11 / 6 ms; 520 kB 7–8 / 3.2 ms; 260 kB
 * 3.3–3.5 / 2.1–2.4 ms; 130 kB 0.34–0.36 / 0.28–0.33 ms; 60 kB 0.18 as text against 0.30–0.37 encoded.
 * (Express's `res.send`, which these answers bypass, encodes every string of 1,000 chars or more.)
 */
export const ENCODE_FIRST_CHARS = 128 * 1024;

/**
 * Sends `json` (JSON text, or its UTF-8 bytes, written as they are) as Express's `res.json` would,
 * with no ETag: `statusCode` when given, `Content-Type: application/json; charset=utf-8` unless a
 * Content-Type was set already, `Content-Length` (bytes), the text as UTF-8 (no body for HEAD, as
 * Node does) — encoded to a Buffer first when it is long ({@link ENCODE_FIRST_CHARS}). A short text's
 * head is written before it, so its UTF-8 length is measured once. Headers set on `res` before the
 * call are sent; none can be set after it.
 */
export function sendJsonText(res: ServerResponse, json: string | Buffer, statusCode?: number): void {
  if (statusCode) res.statusCode = statusCode;
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (typeof json !== 'string') {
    res.setHeader('Content-Length', json.length);
    res.end(json);
    return;
  }
  if (json.length < ENCODE_FIRST_CHARS) {
    res.setHeader('Content-Length', Buffer.byteLength(json));
    // the head is written first: `res.end(text)` on a response whose head is not written yet measures
    // the text's UTF-8 length again (Node 20's `write_`, for its own Content-Length), a second pass over
    // every answer's text (~0.05 ms of a 60 kB getjobs answer)
    res.writeHead(res.statusCode);
    res.end(json);
    return;
  }
  const body = Buffer.from(json, 'utf8');
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
