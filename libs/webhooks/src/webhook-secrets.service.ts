import { AppConfig } from '@app/core';
import { Injectable } from '@nestjs/common';
import { newWebhookSecret } from './signing';
import { StoredSecrets, WebhookSecretsRepository } from './webhook-secrets.repository';

/**
 * The secrets that sign at `now` (ms): the newest, then the previous one while its overlap lasts
 * (CONTRACTS.md: two space-separated `v1,` signatures for 24 h after a rotation).
 */
export function signingSecrets(stored: StoredSecrets, now: number): string[] {
  return stored.previousSecret && (stored.previousExpiresAt ?? 0) > now ? [stored.secret, stored.previousSecret] : [stored.secret];
}

/**
 * A company's Standard Webhooks signing secret (`whsec_<base64>`): made on first use (getwebhooks
 * by an administrator, or the first delivery), rotated with an overlap (`WEBHOOK_SECRET_OVERLAP_MS`).
 */
@Injectable()
export class WebhookSecrets {
  constructor(
    private readonly secrets: WebhookSecretsRepository,
    private readonly config: AppConfig,
  ) {}

  /** The company's secrets, made on first use. */
  async stored(companyId: string): Promise<StoredSecrets> {
    const found = await this.secrets.find(companyId);
    if (found) return found;
    await this.secrets.insertIfMissing(companyId, newWebhookSecret(), Date.now());
    return (await this.secrets.find(companyId))!;
  }

  /** The newest secret (what getwebhooks answers), made on first use. */
  async current(companyId: string): Promise<string> {
    return (await this.stored(companyId)).secret;
  }

  /**
   * rotatewebhooksecret: a new secret; the old one keeps signing (as a second signature) until
   * `previousSecretExpiresAt` (ms) and is never shown again. Committed when this answers, so every
   * delivery claimed from then on is signed with both (the claim reads the secrets).
   */
  async rotate(companyId: string): Promise<{ secret: string; previousSecretExpiresAt: number }> {
    const secret = newWebhookSecret();
    const previousSecretExpiresAt = Date.now() + this.config.WEBHOOK_SECRET_OVERLAP_MS;
    if (!(await this.secrets.rotate(companyId, secret, previousSecretExpiresAt))) {
      await this.secrets.insertIfMissing(companyId, newWebhookSecret(), Date.now());
      await this.secrets.rotate(companyId, secret, previousSecretExpiresAt);
    }
    return { secret, previousSecretExpiresAt };
  }
}
