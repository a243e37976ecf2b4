import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { AppConfig, AuthContext, createProcessLogger } from '@app/core';
import { Logger } from 'pino';

/** A client's `X-Request-Id` is kept when it is 1–128 of `A-Z a-z 0-9 . _ -`; otherwise one is made. */
const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** What never reaches a log line (CONTRACTS.md, "Operations"): keys, passwords, webhook headers, secrets. */
export const REDACTED_PATHS = [
  'req.headers["api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  '*.auth.key',
  '*.password',
  '*.secret',
  '*.header',
  '*.webhooks.*.headers',
  '*.webhooks.*.header',
  'res.headers["set-cookie"]',
];

/** `/osmand`'s query parameters that carry the device id — the device's credential (CONTRACTS.md "Traccar Client / OsmAnd"). */
const DEVICE_ID_PARAMS = /([?&](?:id|deviceid)=)[^&#]*/gi;

/** The live stream's `?token=` (CONTRACTS.md "Wave 3: live stream": redacted like keys), on any path. */
const TOKEN_PARAMS = /([?&]token=)[^&#]*/gi;

/** A request URL for the log: `/osmand`'s device id and any `token` parameter replaced by `[redacted]`. */
export function loggedUrl(url: string): string {
  const noToken = url.replace(TOKEN_PARAMS, '$1[redacted]');
  return noToken.startsWith('/osmand') ? noToken.replace(DEVICE_ID_PARAMS, '$1[redacted]') : noToken;
}

/** What a request log line says of its request. */
export interface LoggedRequest {
  id: unknown;
  method: string;
  url: string;
  remoteAddress?: string;
  userAgent?: string;
}

/** The request as {@link serializeRequest} reads it: Node's (or Express') request itself. */
export interface RequestToLog {
  id?: unknown;
  method?: string;
  url?: string;
  /** Express' URL as received (`url` is cut while a mounted router or middleware runs) */
  originalUrl?: string;
  socket?: { remoteAddress?: string } | null;
  headers?: Record<string, unknown>;
}

/**
 * The request part of a log line: id, method, URL as received (device ids and tokens redacted),
 * client address and user agent — not every header, so no credential header can reach a line. It
 * reads the request itself: no intermediate pino-std-serializers object, no parsing of Express'
 * `req.query`.
 */
export function serializeRequest(req: RequestToLog): LoggedRequest {
  const ua = req.headers?.['user-agent'];
  return {
    id: req.id,
    method: req.method ?? '',
    url: loggedUrl(req.originalUrl ?? req.url ?? ''),
    remoteAddress: req.socket?.remoteAddress,
    ...(typeof ua === 'string' ? { userAgent: ua } : {}),
  };
}

/**
 * The request's id: the client's `X-Request-Id` when valid ({@link REQUEST_ID}), else a new UUID;
 * answered as `X-Request-Id`.
 */
export function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const sent = req.headers['x-request-id'];
  const id = typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** Where an error answer's text waits for the request's log line (set by {@link noteAnsweredError}). */
const ANSWERED_ERROR = Symbol('fieldwork.answeredError');

/** Longest error text a request line carries (an error naming many fields is cut, marked `…`). */
const MAX_LOGGED_ERROR = 300;

/**
 * Notes the error text answered on `res` (the `error` of `{status, error}`, the connector's
 * `error.message`), so the request's log line carries it. Called where errors are answered
 * (`sendError`, the exception filter's operational branch, the queue dashboard's 401).
 */
export function noteAnsweredError(res: object, message: string): void {
  (res as { [ANSWERED_ERROR]?: string })[ANSWERED_ERROR] = message;
}

/** The error text noted on `res` by {@link noteAnsweredError}, if any. */
export function answeredErrorOf(res: object): string | undefined {
  return (res as { [ANSWERED_ERROR]?: string })[ANSWERED_ERROR];
}

/** What a request line says besides its `req`, `res` and `responseTime`. */
export interface RequestFacts {
  /** the caller's company id, once a key authenticated the request */
  company?: string;
  /** the caller's member id, once a key authenticated the request */
  member?: string;
  /** the error text answered (4xx and 5xx), at most {@link MAX_LOGGED_ERROR} characters */
  error?: string;
}

/** The {@link RequestFacts} of a finished request: `req.auth` (set by the guards) and the noted error text. */
export function requestFacts(req: IncomingMessage & { auth?: AuthContext }, res: ServerResponse): RequestFacts {
  const facts: RequestFacts = {};
  if (req.auth) {
    facts.company = req.auth.companyId;
    facts.member = req.auth.memberId;
  }
  const error = answeredErrorOf(res);
  if (error !== undefined) facts.error = error.length > MAX_LOGGED_ERROR ? `${error.slice(0, MAX_LOGGED_ERROR - 1)}…` : error;
  return facts;
}

/** The response part of a request line: its status — not its headers (they are the same on every answer). */
export function serializeResponse(res: { statusCode: number }): { statusCode: number } {
  return { statusCode: res.statusCode };
}

/** The level of a request line: `error` for a 5xx (or a failed response), `info` otherwise. */
const levelOf = (res: ServerResponse, err?: Error) => (err || res.statusCode >= 500 ? 'error' : 'info');

/** Where a response keeps the rewrite of its logged error text (set by {@link redactLoggedError}). */
const ERROR_REDACTION = Symbol('fieldwork.errorRedaction');

/**
 * Rewrites the error text the request's line carries (e.g. `/osmand`'s unknown device id, a
 * credential): `redact` runs on the noted text ({@link noteAnsweredError}) when the line is written.
 */
export function redactLoggedError(res: object, redact: (text: string) => string): void {
  (res as { [ERROR_REDACTION]?: (text: string) => string })[ERROR_REDACTION] = redact;
}

/** Paths whose requests get no line: the load balancer's health probes every few seconds would drown the log. */
const UNLOGGED = '/health';

/**
 * The api's request log (CONTRACTS.md "Operations"), the first middleware of every request: gives
 * the request its id ({@link requestIdOf}: `req.id`, answered as `X-Request-Id`) and, when the
 * response closes, writes one line through `logger` (the process logger, whose redaction applies):
 * `request completed` at `info`, or `request errored` at `error` for a 5xx (or a response that
 * failed), with `req` ({@link serializeRequest}), `res` ({@link serializeResponse}), `responseTime`
 * (ms) and the {@link RequestFacts} — pino-http's line shape. A response that failed carries its
 * error as `err`; a 5xx answer carries the answered `internal error (id …)` as `error` (the `Errors`
 * line with that id has the stack). No per-request child logger and no AsyncLocalStorage context:
 * lines logged while a request runs do not carry its id by themselves (docs/decisions.md,
 * "Request log").
 */
export function requestLog(logger: Logger): (req: IncomingMessage & { id?: unknown }, res: ServerResponse, next: () => void) => void {
  return (req, res, next) => {
    req.id = requestIdOf(req, res);
    if (logger.isLevelEnabled('error') && !(req.url ?? '').startsWith(UNLOGGED)) logOnClose(logger, req, res);
    next();
  };
}

/** Writes the request's line once its response closes (finished, failed or cut by the client). */
function logOnClose(logger: Logger, req: IncomingMessage & { id?: unknown }, res: ServerResponse): void {
  const start = Date.now();
  let failure: Error | undefined;
  const onError = (err: Error) => (failure = err);
  res.once('error', onError);
  res.once('close', () => {
    res.removeListener('error', onError);
    const level = levelOf(res, failure);
    if (!logger.isLevelEnabled(level)) return;
    const facts = requestFacts(req, res);
    const redact = (res as { [ERROR_REDACTION]?: (text: string) => string })[ERROR_REDACTION];
    if (facts.error !== undefined && redact) facts.error = redact(facts.error);
    const line = { req: serializeRequest(req), res: serializeResponse(res), ...(failure ? { err: failure } : {}), responseTime: Date.now() - start, ...facts };
    logger[level](line, level === 'error' ? 'request errored' : 'request completed');
  });
}

/** The api's process logger: JSON or pretty per `LOG_FORMAT` ({@link createProcessLogger}), the secrets of {@link REDACTED_PATHS} redacted. */
export function createApiLogger(config: AppConfig): Promise<Logger> {
  return createProcessLogger(config, 'api', { redact: { paths: REDACTED_PATHS, censor: '[redacted]' } });
}
