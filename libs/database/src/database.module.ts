import { AppConfig } from '@app/core';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { dataSourceOptions } from './data-source-options';

/** The TypeORM connection for an app, from {@link dataSourceOptions}. */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config), retryAttempts: 3, retryDelay: 1000 }),
    }),
  ],
})
export class DatabaseModule {}
