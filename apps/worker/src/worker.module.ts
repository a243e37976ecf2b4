import { ConfigModule, CoreModule, QueueModule } from '@app/core';
import { DatabaseModule } from '@app/database';
import { MembersModule } from '@app/members';
import { WebhooksModule } from '@app/webhooks';
import { Module } from '@nestjs/common';
import { HeartbeatService } from './heartbeat.service';
import { MaintenanceProcessor } from './processors/maintenance.processor';
import { WebhookDeliveryProcessor } from './processors/webhook-delivery.processor';

/** The worker: BullMQ processors and the heartbeat; no HTTP. */
@Module({
  imports: [ConfigModule, DatabaseModule, QueueModule.register(), CoreModule, MembersModule, WebhooksModule],
  providers: [HeartbeatService, MaintenanceProcessor, WebhookDeliveryProcessor],
})
export class WorkerModule {}
