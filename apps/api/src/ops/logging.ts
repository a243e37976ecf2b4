import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { AppConfig, AuthContext, createProcessLogger } from '@app/core';
import { LoggerModule, PinoLogger } from 'nestjs-pino';
import { Logger } from 'pino';
import { Options as HttpLogOptions } from 'pino-http';

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

/** The request as pino-http hands it to {@link serializeRequest}: Node's (or Express') request itself. */
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
 * client address and user agent — not every header. pino builds each request's child logger
 * eagerly, so a smaller object is also less work on every request, logged or not; and no credential
 * header can reach a line. It reads the request itself (pino-http's `wrapSerializers: false`): no
 * intermediate pino-std-serializers object, no parsing of Express' `req.query` on every request.
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

/** What a request line says besides pino-http's `req`, `res` and `responseTime`. */
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

/**
 * The request line of a request answered before pino-http's middleware runs (the lean `/osmand`
 * route, body-parser errors), in pino-http's shape and through its logger (nestjs-pino's root):
 * registered on `res`'s `finish`, and only when the level logs request lines at all (no work per
 * request otherwise). `req.id` must be set ({@link requestIdOf}).
 * @param redactError rewrites the error text before it is logged (e.g. an id that is a credential)
 */
export function logRequestOnFinish(req: IncomingMessage & { id?: unknown }, res: ServerResponse, redactError?: (text: string) => string): void {
  const log = PinoLogger.root;
  if (!log?.isLevelEnabled('info')) return;
  const start = Date.now();
  res.once('finish', () => {
    const facts = requestFacts(req, res);
    if (facts.error !== undefined && redactError) facts.error = redactError(facts.error);
    const level = levelOf(res);
    log[level]({ req, res, responseTime: Date.now() - start, ...facts }, level === 'error' ? 'request errored' : 'request completed');
  });
}

/** pino-http's own error for a 5xx answer without an exception (its stack is pino-http's, not ours). */
const isStatusError = (err: Error, res: ServerResponse) => err.message === `failed with status code ${res.statusCode}`;

/**
 * pino-http's options for the api's request lines, over the process logger `logger`: one line per
 * request (`request completed`; `request errored` at level `error` for a 5xx) with its request id
 * (also answered as `X-Request-Id`), the request as {@link serializeRequest} gives it, the status
 * ({@link serializeResponse}), `responseTime` (ms) and the {@link RequestFacts}. A 5xx line carries
 * the answered `internal error (id …)` (the `Errors` line with that id has the stack), not
 * pino-http's own "failed with status code" error.
 */
export function requestLogOptions(logger: Logger): HttpLogOptions {
  return {
    logger,
    genReqId: requestIdOf,
    // the serializers read Node's request and response themselves (see serializeRequest)
    wrapSerializers: false,
    serializers: { req: serializeRequest, res: serializeResponse },
    customLogLevel: (_req, res, err) => levelOf(res, err),
    customSuccessObject: (req, res, line) => ({ ...(line as object), ...requestFacts(req, res) }),
    customErrorObject: (req, res, err, line) => {
      const { err: _statusError, ...rest } = line as { err?: unknown };
      return { ...(isStatusError(err, res) ? rest : (line as object)), ...requestFacts(req, res) };
    },
    // health probes every few seconds would drown the log
    autoLogging: { ignore: (req) => (req.url ?? '').startsWith('/health') },
  };
}

/**
 * Logs through nestjs-pino, JSON or pretty per `LOG_FORMAT` ({@link createProcessLogger}), request
 * lines as {@link requestLogOptions} says, the secrets above redacted.
 */
export const ApiLoggerModule = LoggerModule.forRootAsync({
  inject: [AppConfig],
  useFactory: async (config: AppConfig) => ({
    pinoHttp: requestLogOptions(await createProcessLogger(config, 'api', { redact: { paths: REDACTED_PATHS, censor: '[redacted]' } })),
  }),
});
