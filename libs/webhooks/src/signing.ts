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
  const content = `${eventId}.${timestamp}.${body}`;
  return secrets.map((s) => `v1,${createHmac('sha256', secretKey(s)).update(content).digest('base64')}`).join(' ');
}

/**
 * A secret's HMAC key: the base64 after `whsec_` (as the `standardwebhooks` library reads it). The
 * signing is node's own HMAC (OpenSSL), not the library's `Webhook.sign`, whose pure-JS SHA-256
 * (`fast-sha256`) took ~65 µs per signature, about 4 % of the webhook worker's busy time in a
 * `BENCH_ONLY=webhooks` CPU profile (docs/webhooks-internals.md, "Keeping the slots busy"); the
 * library still verifies what this signs (signing.spec.ts).
 * @throws for an empty key
 */
function secretKey(secret: string): Buffer {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  if (!key.length) throw new Error("Secret can't be empty.");
  return key;
}
