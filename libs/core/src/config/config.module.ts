import { Global, Module } from '@nestjs/common';
import { AppConfig } from './env';
import { loadConfig } from './load-config';

/** Provides the validated {@link AppConfig} to every module (validated once, at start-up). */
@Global()
@Module({
  providers: [{ provide: AppConfig, useFactory: () => loadConfig() }],
  exports: [AppConfig],
})
export class ConfigModule {}
