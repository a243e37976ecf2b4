import { CompanyService } from '@app/members';
import { Injectable } from '@nestjs/common';
import { signatureHeader } from './signing';
import { ClaimedDelivery } from './webhook-deliveries.repository';
import { signingSecrets, WebhookSecrets } from './webhook-secrets.service';

/** Companies whose account name a worker keeps (the map is emptied past this). */
const ACCOUNT_CACHE_SIZE = 10_000;

/** A delivery ready to POST: its form body and every header but content-type and user-agent (the sender's). */
export interface SignedRequest {
  body: string;
  headers: Record<string, string>;
}

/**
 * Builds and signs the request of a claimed delivery: the spec's form fields (`account`, `id`,
 * `data`, `action`, `reason`), the endpoint's custom headers, then the Standard Webhooks headers
 * (`webhook-id` = the event id, `webhook-timestamp` in Unix seconds, `webhook-signature` with every
 * secret that signs now). The secrets come with the claim (read in the claim's round trip), so a
 * rotation reaches every delivery claimed after it commits; only the account name — the owner's
 * username, which never changes — is kept per worker.
 */
@Injectable()
export class WebhookSigner {
  private readonly accounts = new Map<string, Promise<string>>();

  constructor(
    private readonly company: CompanyService,
    private readonly secrets: WebhookSecrets,
  ) {}

  /** @param now ms; the timestamp signed is its second */
  async sign(d: ClaimedDelivery, now: number): Promise<SignedRequest> {
    const [account, stored] = await Promise.all([
      this.account(d.companyId),
      d.secret === null
        ? this.secrets.stored(d.companyId)
        : { secret: d.secret, previousSecret: d.previousSecret, previousExpiresAt: d.previousExpiresAt },
    ]);
    const timestamp = Math.floor(now / 1000);
    const body = new URLSearchParams({ account, id: d.formId!, data: d.payload!, action: d.action!, reason: d.action! }).toString();
    return {
      body,
      headers: {
        ...d.headers,
        'webhook-id': d.eventId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(signingSecrets(stored, now), d.eventId, timestamp, body),
      },
    };
  }

  /** The company's `account` form field (its owner's username), read once per worker (concurrent callers share the read). */
  private account(companyId: string): Promise<string> {
    let account = this.accounts.get(companyId);
    if (!account) {
      if (this.accounts.size >= ACCOUNT_CACHE_SIZE) this.accounts.clear();
      account = this.company.accountUsername(companyId);
      this.accounts.set(companyId, account);
      // a failed or empty read is not kept
      account.then(
        (name) => !name && this.accounts.delete(companyId),
        () => this.accounts.delete(companyId),
      );
    }
    return account;
  }
}
