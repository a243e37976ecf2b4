import { AppConfig, AuthContext, invalid, newId } from '@app/core';
import { Injectable, Logger } from '@nestjs/common';
import { headersProblem, maskHeaderValue } from './header-rules';
import { configUrlProblem } from './url-safety';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WEBHOOK_KEYS, WebhookKey } from './webhook-keys';

/** What a client sends for one key: `{url, headers}`; null removes the key. */
export type EndpointInput = { url: string; headers: Record<string, string> } | null;

/** One key as answered (header values masked). */
export interface EndpointView {
  url: string;
  headers: Record<string, string>;
  disabled: boolean;
  disabledReason: string | null;
  /** ms */
  disabledAt: number | null;
}

/**
 * Normalises one key's value from either surface: `null`, `""` or `{url: null}` remove the key;
 * else `{url, <headersField>?}` with the URL and header rules checked.
 * @param headersField `header` (action API) or `headers` (connector)
 * @throws DomainError invalid naming `${path}.url` / `${path}.${headersField}` / unknown members.
 */
export function parseEndpointInput(value: unknown, path: string, headersField: 'header' | 'headers', allowPrivate: boolean): EndpointInput {
  if (value === null || value === '') return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid(path, `must be {url, ${headersField}} or null to remove`);
  const v = value as Record<string, unknown>;
  const unknown = Object.keys(v).find((k) => k !== 'url' && k !== headersField);
  if (unknown) throw invalid(`${path}.${unknown}`, 'unknown field');
  if (v.url === null || v.url === '') return null;
  if (typeof v.url !== 'string') throw invalid(`${path}.url`, 'must be a string');
  const urlProblem = configUrlProblem(v.url, allowPrivate);
  if (urlProblem) throw invalid(`${path}.url`, urlProblem);
  const headers = v[headersField] ?? {};
  const headerProblem = headersProblem(headers);
  if (headerProblem) throw invalid(`${path}.${headersField}`, headerProblem);
  return { url: v.url, headers: headers as Record<string, string> };
}

/**
 * Webhook configuration (CONTRACTS.md, "Configuration"): endpoint = (company, key); a write updates
 * only the keys sent, each replaced whole; setting a URL again re-enables a disabled key; removing
 * a key abandons its pending deliveries. The signing secret is {@link WebhookSecrets}'.
 */
@Injectable()
export class WebhookConfigService {
  private readonly logger = new Logger('Webhooks');

  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly config: AppConfig,
  ) {}

  get allowPrivate(): boolean {
    return this.config.WEBHOOK_ALLOW_PRIVATE;
  }

  /** Every key of the company: its endpoint or null. */
  async get(companyId: string): Promise<Record<WebhookKey, EndpointView | null>> {
    const rows = await this.endpoints.findByCompany(companyId);
    const out = Object.fromEntries(WEBHOOK_KEYS.map((k) => [k, null])) as Record<WebhookKey, EndpointView | null>;
    for (const r of rows) {
      out[r.key as WebhookKey] = {
        url: r.url,
        headers: Object.fromEntries(Object.entries(r.headers).map(([n, v]) => [n, maskHeaderValue(v)])),
        disabled: r.disabled,
        disabledReason: r.disabledReason,
        disabledAt: r.disabledAt,
      };
    }
    return out;
  }

  /**
   * Applies the keys sent (others untouched), all in one transaction. A header value sent back
   * masked keeps the stored value.
   */
  async set(ctx: AuthContext, changes: Partial<Record<WebhookKey, EndpointInput>>): Promise<Record<WebhookKey, EndpointView | null>> {
    await this.endpoints.transaction(async (m) => {
      const now = Date.now();
      for (const [key, input] of Object.entries(changes) as Array<[WebhookKey, EndpointInput]>) {
        const existing = await this.endpoints.lockByKey(m, ctx.companyId, key);
        if (input === null) {
          if (!existing) continue;
          const abandoned = await this.deliveries.abandonOpen(m, existing.id, 'endpoint removed', now);
          await this.endpoints.delete(m, existing.id);
          this.logger.log(`company ${ctx.companyId} removed ${key}; ${abandoned} pending deliveries abandoned`);
          continue;
        }
        const headers = keepMaskedHeaders(input.headers, existing?.headers);
        if (existing) await this.endpoints.replace(m, existing.id, input.url, headers, now);
        else
          await this.endpoints.insert(m, {
            id: newId(),
            companyId: ctx.companyId,
            key,
            url: input.url,
            headers,
            createdAt: now,
            updatedAt: now,
          });
      }
    });
    return this.get(ctx.companyId);
  }
}

/**
 * The headers to store for a key: each value sent, except one sent back exactly as it was answered
 * (masked: {@link maskHeaderValue}), which keeps the stored value of the same name (case-insensitive).
 */
export function keepMaskedHeaders(sent: Record<string, string>, stored: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(
    Object.entries(sent).map(([name, value]) => {
      const old = Object.entries(stored).find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
      return [name, old !== undefined && value === maskHeaderValue(old) ? old : value];
    }),
  );
}
