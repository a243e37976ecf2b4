import 'reflect-metadata';
import { AppConfig, ConfigError } from '@app/core';
import { Logger } from '@nestjs/common';
import { createApiApp, drainOnSignals } from './bootstrap';

async function main() {
  const app = await createApiApp();
  drainOnSignals(app);
  const config = app.get(AppConfig);
  await app.listen(config.PORT);
  new Logger('Api').log(`fieldwork api listening on :${config.PORT}`);
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
