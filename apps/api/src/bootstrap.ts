import { AppConfig, loadConfig, ProcessNestLogger, trustProxySetting, watchShutdown } from '@app/core';
import { StreamHub } from '@app/live';
import { INestApplication, Logger as NestLogger, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Request, Response } from 'express';
import helmet from 'helmet';
import { ApiModule } from './api.module';
import { useJsonBodies } from './envelope/body-parser';
import { ApiExpressAdapter } from './envelope/express-adapter';
import { fixedHeaders, Middleware } from './envelope/fixed-headers';
import { answerClientErrorsInShape } from './envelope/client-error';
import { DrainState } from './health/drain-state.service';
import { mountOsmAnd, OSMAND_PATH } from './locations/osmand.route';
import { createApiLogger, requestLog } from './ops/logging';
import { mountQueueDashboard, QUEUE_DASHBOARD_PATH } from './ops/queue-dashboard';
import { mountShareAssets } from './share/share-assets';
import { shareSecurityHeaders } from './share/share-csp';

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/**
 * Creates the api application, configured as in production (tests boot it through this too).
 * Validates the environment first: a bad value throws naming it.
 */
export async function createApiApp(opts: { logger?: boolean } = {}): Promise<INestApplication> {
  const config = loadConfig();
  // JSON answers without Express's ETag where no client can revalidate (POST): ApiExpressAdapter
  const app = await NestFactory.create<NestExpressApplication>(ApiModule, new ApiExpressAdapter(), {
    bodyParser: false,
    abortOnError: false,
    bufferLogs: opts.logger !== false,
    logger: opts.logger === false ? false : LEVELS.slice(0, LEVELS.indexOf(config.LOG_LEVEL) + 1),
  });
  const logger = await createApiLogger(config);
  // Nest's start-up inventory (a line per module and route) at debug: ProcessNestLogger
  if (opts.logger !== false) app.useLogger(new ProcessNestLogger(logger));
  // first: every request gets its id and its line, whoever answers it (docs/decisions.md "Request log")
  app.use(requestLog(logger));
  // the dashboard's page needs its own scripts and styles; /osmand answers a phone app, never a
  // browser (empty 200 or a small JSON error), so browser headers are skipped there; everything
  // else gets helmet's defaults
  // the share pages (`/share/…`) get their own CSP: self plus the tile host (docs/share-pages.md)
  // helmet's options are static, so its headers are read once and set as one list (fixedHeaders)
  const secure = fixedHeaders(helmet() as Middleware);
  const secureShare = fixedHeaders(shareSecurityHeaders(config.CONSOLE_TILE_URL) as Middleware);
  app.use((req: Request, res: Response, next: () => void) =>
    req.path.startsWith(QUEUE_DASHBOARD_PATH) || req.path === OSMAND_PATH || req.path === `${OSMAND_PATH}/`
      ? next()
      : (req.path.startsWith('/share/') ? secureShare : secure)(req, res, next),
  );
  if (config.CORS_ORIGINS) app.enableCors({ origin: config.CORS_ORIGINS.split(',').map((o) => o.trim()), maxAge: 600 });
  mountQueueDashboard(app);
  mountShareAssets(app);
  app.set('trust proxy', trustProxySetting(config.TRUST_PROXY));
  app.disable('x-powered-by');
  useJsonBodies(app);
  // after the body parsers, before Nest's middleware and router (registered at init)
  mountOsmAnd(app);
  answerClientErrorsInShape(app.getHttpServer());
  // signals are handled by drainOnSignals (readiness first, then close); close() runs the shutdown hooks
  return app;
}

/**
 * Graceful stop on SIGTERM/SIGINT: readiness turns not-ready at once and live streams end (their
 * clients reconnect elsewhere), the instance keeps serving for `SHUTDOWN_DRAIN_MS` (so the load
 * balancer notices), then stops accepting connections and lets in-flight requests finish before closing.
 */
export function drainOnSignals(app: INestApplication): void {
  const config = app.get(AppConfig);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.get(DrainState).draining = true;
    // live streams end now, each with a retry: spread over a few seconds, so their clients reconnect
    // to other instances while this one drains (docs/live.md, "Shutdown")
    app.get(StreamHub).closeAll();
    const logger = new NestLogger('Api');
    logger.log(`${signal}: draining for ${config.SHUTDOWN_DRAIN_MS} ms`);
    await new Promise((r) => setTimeout(r, config.SHUTDOWN_DRAIN_MS));
    // a close that outlives the grace period says every 5 s how long and what is still open
    watchShutdown(logger);
    await app.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
