import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DrainState } from './drain-state.service';
import { HealthController } from './health.controller';
import { RedisProbe } from './redis-probe.service';

@Module({
  imports: [TerminusModule.forRoot({ logger: false, errorLogStyle: 'json' })],
  controllers: [HealthController],
  providers: [DrainState, RedisProbe],
  exports: [DrainState],
})
export class HealthModule {}
