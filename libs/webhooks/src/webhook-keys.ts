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
