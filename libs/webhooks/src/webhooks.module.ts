import { MembersModule } from '@app/members';
import { Module } from '@nestjs/common';
import { OutboxEventsRead } from './core-outbox-events.read';
import { WorkerHeartbeatsRead } from './core-worker-heartbeats.read';
import { WebhookConfigService } from './webhook-config.service';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookDrain } from './webhook-drain.service';
import { WebhookDrainProducer } from './webhook-drain-producer.service';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookLogService } from './webhook-log.service';
import { WebhookPruner } from './webhook-pruner.service';
import { WebhookReconciler } from './webhook-reconciler.service';
import { WebhookSecrets } from './webhook-secrets.service';
import { WebhookSecretsRepository } from './webhook-secrets.repository';
import { WebhookSigner } from './webhook-signer.service';
import { WebhookSubscriptionsRepository } from './subscriptions/webhook-subscriptions.repository';
import { WebhookSubscriptionsService } from './subscriptions/webhook-subscriptions.service';
import { WebhookHooksDrain } from './subscriptions/webhook-hooks-drain.service';
import { WebhookHttp } from './webhook-http.service';

/**
 * Webhook configuration and secrets and REST hook subscriptions (the api), delivery (the worker:
 * {@link WebhookDeliveryService} over the two drains — a nine-key endpoint's, a company's REST hook
 * subscriptions' — their HTTP client, the drain producer, the reconciler and the pruner) and the delivery log. The
 * repositories stay inside the module.
 */
@Module({
  imports: [MembersModule],
  providers: [
    WebhookDeliveriesRepository,
    WebhookEndpointsRepository,
    WebhookSecretsRepository,
    WebhookSubscriptionsRepository,
    OutboxEventsRead,
    WorkerHeartbeatsRead,
    WebhookSecrets,
    WebhookSigner,
    WebhookDrainProducer,
    WebhookHttp,
    WebhookDrain,
    WebhookHooksDrain,
    WebhookReconciler,
    WebhookPruner,
    WebhookDeliveryService,
    WebhookConfigService,
    WebhookLogService,
    WebhookSubscriptionsService,
  ],
  exports: [WebhookConfigService, WebhookSecrets, WebhookDeliveryService, WebhookLogService, WebhookSubscriptionsService],
})
export class WebhooksModule {}
