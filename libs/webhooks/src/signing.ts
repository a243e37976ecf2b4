import { createHmac, randomBytes } from 'node:crypto';

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
  // node's HMAC, not standardwebhooks' pure-JS SHA-256 (~65 µs a signature): the same bytes (signing.spec.ts checks both)
  return secrets
    .map((s) => `v1,${createHmac('sha256', Buffer.from(s.replace(/^whsec_/, ''), 'base64')).update(`${eventId}.${timestamp}.${body}`).digest('base64')}`)
    .join(' ');
}
