import { MembersModule } from '@app/members';
import { Module } from '@nestjs/common';
import { WebhookConfigService } from './webhook-config.service';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookLogService } from './webhook-log.service';

/** Webhook configuration, delivery (the worker) and the delivery log. */
@Module({
  imports: [MembersModule],
  providers: [WebhookConfigService, WebhookDeliveryService, WebhookLogService],
  exports: [WebhookConfigService, WebhookDeliveryService, WebhookLogService],
})
export class WebhooksModule {}
