import 'reflect-metadata';
import { ConfigError, createProcessLogger, loadConfig, PINO_LEVELS, ProcessNestLogger, QueueConnection, watchShutdown } from '@app/core';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

/** The worker logs at least `log` whatever `LOG_LEVEL` says: its start, stop and lifecycle lines. */
const WORKER_LEVELS = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'] as const;

/**
 * Boots the worker without HTTP (STYLE.md §8). On SIGTERM/SIGINT Nest's shutdown hooks close the
 * BullMQ workers — in-flight tasks finish (or, past the lock, return to the queue as stalled) —
 * then the heartbeat is marked stopped and the connections close; with Redis unreachable meanwhile,
 * its connections are cut so that nothing waits on it for ever
 * (`QueueConnection.cutWhenRedisUnreachable`). Logs like the api (JSON, or pretty with
 * `LOG_FORMAT=pretty`), at `LOG_LEVEL` but never above `log`.
 */
async function main() {
  const config = loadConfig(); // a wrong environment stops start-up here, naming the variable
  const level = WORKER_LEVELS[Math.max(WORKER_LEVELS.indexOf(config.LOG_LEVEL), WORKER_LEVELS.indexOf('log'))];
  const logger = new ProcessNestLogger(await createProcessLogger(config, 'worker', { level: PINO_LEVELS[level] }));
  const { WorkerModule } = await import('./worker.module');
  const app = await NestFactory.createApplicationContext(WorkerModule, { logger });
  // useProcessExit: exit 0 after the hooks instead of re-raising the signal (which reads as a crash)
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  // the first line of a shutdown: a stop that never finishes shows it began (and the lines after, where it
  // waits: the named waits' own traces, and every 5 s how long and what is still open). From the signal
  // on, Redis unreachable gets the queue connections cut, so nothing waits on it for ever
  const queues = app.get(QueueConnection, { strict: false });
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    process.once(signal, () => {
      const logger = new Logger('Worker');
      logger.log(`${signal}: stopping (tasks in hand finish, then the connections close)`);
      watchShutdown(logger);
      queues.cutWhenRedisUnreachable();
    });
  await app.init();
  new Logger('Worker').log('fieldwork worker started');
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
