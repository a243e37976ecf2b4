import { OutboxAction, OutboxEventKey, STREAM_ONLY_KEY } from '@app/core';

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
 * the nine, but for the live stream's own events (`notification`): an event under another key could
 * never be configured, so never delivered. Checked by the build, whose program holds every lib's events.
 */
type _EveryEventKeyIsAWebhookKey = Assert<Exclude<OutboxEventKey<OutboxAction>, typeof STREAM_ONLY_KEY> extends WebhookKey ? true : false>;
/** …and the stream's own key is not one of the nine: no endpoint can be configured for it. */
type _StreamOnlyKeyIsNoWebhookKey = Assert<typeof STREAM_ONLY_KEY extends WebhookKey ? false : true>;
