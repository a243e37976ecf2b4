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

/**
 * JSON logs through nestjs-pino: one line per request with its request id (also answered as
 * `X-Request-Id`), the secrets above redacted.
 */
export const ApiLoggerModule = LoggerModule.forRootAsync({
  inject: [AppConfig],
  useFactory: (config: AppConfig) => ({
    pinoHttp: {
      level: PINO_LEVELS[config.LOG_LEVEL],
      genReqId: (req: IncomingMessage, res: ServerResponse) => {
        const sent = req.headers['x-request-id'];
        const id = typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      // health probes every few seconds would drown the log
      autoLogging: { ignore: (req: IncomingMessage) => (req.url ?? '').startsWith('/health') },
    },
  }),
});
