import { CompanyService } from '@app/members';
import { Injectable } from '@nestjs/common';
import { signatureHeader } from './signing';
import { hookBody } from './subscriptions/hook-body';
import { ClaimedDelivery } from './webhook-deliveries.repository';
import { signingSecrets, WebhookSecrets } from './webhook-secrets.service';

/** Companies whose account name a worker keeps (the map is emptied past this). */
const ACCOUNT_CACHE_SIZE = 10_000;

/** The two bodies: the nine keys' form, a REST hook's JSON. */
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
export const JSON_CONTENT_TYPE = 'application/json';

/** A delivery ready to POST: its body, its content type, and every other header but user-agent (the sender's). */
export interface SignedRequest {
  body: string;
  contentType: typeof FORM_CONTENT_TYPE | typeof JSON_CONTENT_TYPE;
  headers: Record<string, string>;
}

/**
 * Builds and signs the request of a claimed delivery. To a nine-key endpoint: the spec's form fields
 * (`account`, `id`, `data`, `action`, `reason`), signed with every company secret that signs now; to
 * a REST hook subscription: the JSON body `{id, action, ts, data}` ({@link hookBody}), signed with
 * the subscription's own secret. Then the target's custom headers and the Standard Webhooks headers
 * (`webhook-id` = the event id, `webhook-timestamp` in Unix seconds, `webhook-signature`). The
 * secrets come with the claim (read in the claim's round trip), so a rotation reaches every delivery
 * claimed after it commits; only the account name — the owner's username, which never changes — is
 * kept per worker.
 */
@Injectable()
export class WebhookSigner {
  private readonly accounts = new Map<string, Promise<string>>();

  constructor(
    private readonly company: CompanyService,
    private readonly secrets: WebhookSecrets,
  ) {}

  /**
   * @param now ms; the timestamp signed is its second
   * @param hookBodies REST hook bodies by event id, to build each event's once for all its subscriptions
   */
  async sign(d: ClaimedDelivery, now: number, hookBodies?: Map<string, string>): Promise<SignedRequest> {
    if (d.target === 'subscription') return this.signHook(d, now, hookBodies);
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
      contentType: FORM_CONTENT_TYPE,
      headers: {
        ...d.headers,
        'webhook-id': d.eventId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(signingSecrets(stored, now), d.eventId, timestamp, body),
      },
    };
  }

  /**
   * A REST hook delivery: the JSON body ({@link hookBody}, taken from `bodies` when this event's is
   * there, else built and put there), signed with the subscription's secret (always in the claim).
   * Synchronous, so a drain POSTs each delivery as soon as it is signed.
   * @param now ms; the timestamp signed is its second
   */
  signHook(d: ClaimedDelivery, now: number, bodies?: Map<string, string>): SignedRequest {
    const timestamp = Math.floor(now / 1000);
    const body =
      bodies?.get(d.eventId) ??
      hookBody({
        eventId: d.eventId,
        action: d.action!,
        ts: d.eventCreatedAt!,
        stampedAt: d.eventStampedAt,
        payload: d.payload!,
      });
    bodies?.set(d.eventId, body);
    return {
      body,
      contentType: JSON_CONTENT_TYPE,
      headers: {
        ...d.headers,
        'webhook-id': d.eventId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader([d.secret!], d.eventId, timestamp, body),
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
