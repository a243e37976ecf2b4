import { LoggerService } from '@nestjs/common';
import { Logger as NestPinoLogger, PinoLogger } from 'nestjs-pino';
import pino, { Logger, LoggerOptions } from 'pino';
import { AppConfig } from '../config/env';
import { PRETTY_IGNORED_KEYS, prettyMessage } from './pretty-line';

/** pino's level for each `LOG_LEVEL`. */
export const PINO_LEVELS = { fatal: 'fatal', error: 'error', warn: 'warn', log: 'info', debug: 'debug', verbose: 'trace' } as const;

/**
 * The one pino logger of a process (api or worker), writing to stdout: JSON lines with
 * `LOG_FORMAT=json` (the default; production), or with `LOG_FORMAT=pretty` one human-readable line
 * per entry (`[HH:MM:ss.l] LEVEL (<name>): <message>`, {@link prettyMessage}) through pino-pretty —
 * a devDependency, loaded only then; written synchronously, so lines keep their order with the
 * process' own `console` output and none is lost at exit.
 * @param name `api` or `worker`: the `name` field of every line
 * @param options pino options on top (level: `LOG_LEVEL`'s unless given; redaction, serializers…)
 */
export async function createProcessLogger(config: AppConfig, name: string, options: LoggerOptions = {}): Promise<Logger> {
  const opts: LoggerOptions = { name, level: PINO_LEVELS[config.LOG_LEVEL], ...options };
  if (config.LOG_FORMAT !== 'pretty') return pino(opts);
  const { default: pretty } = await import('pino-pretty');
  return pino(
    opts,
    pretty({
      sync: true,
      translateTime: 'HH:MM:ss.l',
      ignore: PRETTY_IGNORED_KEYS.join(','),
      singleLine: true,
      messageFormat: (log, messageKey, _label, { colors }) => prettyMessage(log, messageKey, colors),
    }),
  );
}

/**
 * Nest contexts whose `log` lines are start-up inventory — a line per module (InstanceLoader), per
 * controller (RoutesResolver) and per route (RouterExplorer): about 120 lines in the api. Written
 * at `debug` instead (`LOG_LEVEL=debug` shows them).
 */
const START_UP_INVENTORY = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/**
 * The Nest logger of a process: nestjs-pino's, writing through `logger`, with Nest's start-up
 * inventory ({@link START_UP_INVENTORY}) moved to `debug`. Given a pino logger (the worker), it
 * wraps it in nestjs-pino's PinoLogger, which keeps one out-of-request logger per process (the
 * first one made): make it before any other.
 */
export class ProcessNestLogger implements LoggerService {
  private readonly inner: NestPinoLogger;

  constructor(inner: NestPinoLogger | Logger) {
    this.inner = inner instanceof NestPinoLogger ? inner : new NestPinoLogger(new PinoLogger({ pinoHttp: { logger: inner } }), {});
  }

  log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams[optionalParams.length - 1];
    if (typeof context === 'string' && START_UP_INVENTORY.has(context)) this.inner.debug(message, ...optionalParams);
    else this.inner.log(message, ...optionalParams);
  }
  error(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.error(message, ...optionalParams);
  }
  warn(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.warn(message, ...optionalParams);
  }
  debug(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.debug(message, ...optionalParams);
  }
  verbose(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.verbose(message, ...optionalParams);
  }
  fatal(message: unknown, ...optionalParams: unknown[]): void {
    this.inner.fatal(message, ...optionalParams);
  }
}
