import { ConfigModule, CoreModule, QueueModule } from '@app/core';
import { DatabaseModule } from '@app/database';
import { MembersModule } from '@app/members';
import { Module } from '@nestjs/common';
import { HeartbeatService } from './heartbeat.service';
import { MaintenanceProcessor } from './processors/maintenance.processor';

/** The worker: BullMQ processors and the heartbeat; no HTTP. */
@Module({
  imports: [ConfigModule, DatabaseModule, CoreModule, QueueModule.register(), MembersModule],
  providers: [HeartbeatService, MaintenanceProcessor],
})
export class WorkerModule {}
