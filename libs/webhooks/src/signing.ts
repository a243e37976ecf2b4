import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The `webhook-signature` header (Standard Webhooks: `v1,<base64 HMAC-SHA256("id.timestamp.body")>`),
 * signed with each secret given, space-separated (the previous secret overlaps after a rotation).
 * @param timestamp the `webhook-timestamp`, Unix seconds
 */
export function signatureHeader(secrets: string[], eventId: string, timestamp: number, body: string): string {
  return secrets.map((s) => new Webhook(s).sign(eventId, new Date(timestamp * 1000), body)).join(' ');
}
