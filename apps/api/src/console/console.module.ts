import { Module } from '@nestjs/common';
import { ConsoleBundle } from './console-bundle';
import { ConsoleController } from './console.controller';

/** The dispatcher's console: the built single page and its assets (docs/console.md). */
@Module({
  controllers: [ConsoleController],
  providers: [{ provide: ConsoleBundle, useFactory: () => new ConsoleBundle() }],
})
export class ConsoleModule {}
