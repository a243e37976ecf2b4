import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { AppConfig } from '@app/core';
import { LoggerModule } from 'nestjs-pino';

const PINO_LEVELS = { fatal: 'fatal', error: 'error', warn: 'warn', log: 'info', debug: 'debug', verbose: 'trace' } as const;

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

/** What a request log line says of its request (a pino-http `req` as pino-std-serializers gives it). */
export interface LoggedRequest {
  id: unknown;
  method: string;
  url: string;
  remoteAddress?: string;
  userAgent?: string;
}

/**
 * The request part of a log line: id, method, URL (device ids redacted), client address and user
 * agent — not every header. pino builds each request's child logger eagerly, so a smaller object is
 * also less work on every request, logged or not; and no credential header can reach a line.
 */
export function serializeRequest(req: {
  id: unknown;
  method: string;
  url: string;
  remoteAddress?: string;
  headers?: Record<string, unknown>;
}): LoggedRequest {
  const ua = req.headers?.['user-agent'];
  return {
    id: req.id,
    method: req.method,
    url: loggedUrl(req.url),
    remoteAddress: req.remoteAddress,
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

/**
 * JSON logs through nestjs-pino: one line per request with its request id (also answered as
 * `X-Request-Id`), the request as {@link serializeRequest} gives it, the secrets above redacted.
 */
export const ApiLoggerModule = LoggerModule.forRootAsync({
  inject: [AppConfig],
  useFactory: (config: AppConfig) => ({
    pinoHttp: {
      level: PINO_LEVELS[config.LOG_LEVEL],
      genReqId: requestIdOf,
      serializers: { req: serializeRequest },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      // health probes every few seconds would drown the log
      autoLogging: { ignore: (req: IncomingMessage) => (req.url ?? '').startsWith('/health') },
    },
  }),
});
