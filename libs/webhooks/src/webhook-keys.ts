import { OutboxAction, OutboxEventKey } from '@app/core';

/** The nine webhook configuration keys (spec "Webhook configuration"). */
export const WEBHOOK_KEYS = [
  'job_created',
  'job_updated',
  'job_completed',
  'job_archived',
  'job_deleted',
  'job_checked',
  'place_checked',
  'clock_in_out',
  'alert_triggered',
] as const;
export type WebhookKey = (typeof WEBHOOK_KEYS)[number];

export const isWebhookKey = (k: string): k is WebhookKey => (WEBHOOK_KEYS as readonly string[]).includes(k);

type Assert<T extends true> = T;
/**
 * Every key an outbox event is declared with (core's `OutboxEvents`, filled by each lib) is one of
 * the nine: an event under another key could never be configured, so never delivered. Checked by
 * the build, whose program holds every lib's events.
 */
type _EveryEventKeyIsAWebhookKey = Assert<OutboxEventKey<OutboxAction> extends WebhookKey ? true : false>;
