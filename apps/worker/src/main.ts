import 'reflect-metadata';
import { ConfigError, loadConfig } from '@app/core';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

/**
 * Boots the worker without HTTP (STYLE.md §8). On SIGTERM/SIGINT Nest's shutdown hooks close the
 * BullMQ workers — in-flight tasks finish (or, past the lock, return to the queue as stalled) —
 * then the heartbeat is marked stopped and the connections close.
 */
async function main() {
  loadConfig(); // a wrong environment stops start-up here, naming the variable
  const { WorkerModule } = await import('./worker.module');
  const app = await NestFactory.createApplicationContext(WorkerModule, { logger: ['fatal', 'error', 'warn', 'log'] });
  // useProcessExit: exit 0 after the hooks instead of re-raising the signal (which reads as a crash)
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  await app.init();
  new Logger('Worker').log('fieldwork worker started');
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
