import { Optional, SinceLimitDto } from '@app/core';
import { Allow, IsIn, IsObject, IsString, Length } from 'class-validator';
import { WEBHOOK_KEYS } from '../webhook-keys';

/** setwebhooks: any of the nine keys, each `{url, header?}`, or null / "" / `{url: null}` to remove it. */
export class SetWebhooksDto {
  @Allow() job_created?: unknown;
  @Allow() job_updated?: unknown;
  @Allow() job_completed?: unknown;
  @Allow() job_archived?: unknown;
  @Allow() job_deleted?: unknown;
  @Allow() job_checked?: unknown;
  @Allow() place_checked?: unknown;
  @Allow() clock_in_out?: unknown;
  @Allow() alert_triggered?: unknown;
}

/** `PUT /v1/webhooks`: `{webhooks: {<key>: {url, headers?} | null}}`. */
export class PutWebhooksBody {
  @IsObject()
  webhooks: Record<string, unknown>;
}

/** getwebhookdeliveries (our extension). */
export class GetWebhookDeliveriesDto extends SinceLimitDto {
  @Optional()
  @IsString()
  @Length(1, 64)
  eventId?: string;

  @Optional()
  @IsIn(WEBHOOK_KEYS as unknown as string[], { message: `must be one of ${WEBHOOK_KEYS.join(', ')}` })
  key?: string;
}

/** replaywebhookdelivery (our extension). */
export class ReplayWebhookDeliveryDto {
  @IsString()
  @Length(1, 64)
  deliveryId: string;
}
