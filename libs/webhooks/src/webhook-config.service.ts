import { AppConfig, AuthContext, invalid, newId } from '@app/core';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity';
import { WebhookSecret } from './entities/webhook-secret.entity';
import { headersProblem, maskHeaderValue } from './header-rules';
import { newWebhookSecret } from './signing';
import { configUrlProblem } from './url-safety';
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
 * a key abandons its pending deliveries. The signing secret is made on first use and rotated with
 * an overlap.
 */
@Injectable()
export class WebhookConfigService {
  private readonly logger = new Logger('Webhooks');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  get allowPrivate(): boolean {
    return this.config.WEBHOOK_ALLOW_PRIVATE;
  }

  /** Every key of the company: its endpoint or null. */
  async get(companyId: string): Promise<Record<WebhookKey, EndpointView | null>> {
    const rows = await this.dataSource.getRepository(WebhookEndpoint).findBy({ companyId });
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

  /** Applies the keys sent (others untouched). A header value sent back masked keeps the stored value. */
  async set(ctx: AuthContext, changes: Partial<Record<WebhookKey, EndpointInput>>): Promise<Record<WebhookKey, EndpointView | null>> {
    await this.dataSource.transaction(async (manager) => {
      const repo = manager.getRepository(WebhookEndpoint);
      const now = Date.now();
      for (const [key, input] of Object.entries(changes) as Array<[WebhookKey, EndpointInput]>) {
        const existing = await repo
          .createQueryBuilder('e')
          .setLock('pessimistic_write')
          .where('e.company_id = :c AND e.key = :k', { c: ctx.companyId, k: key })
          .getOne();
        if (input === null) {
          if (!existing) continue;
          const abandoned = await this.abandonPending(manager, existing.id, 'endpoint removed');
          await repo.delete({ id: existing.id });
          this.logger.log(`company ${ctx.companyId} removed ${key}; ${abandoned} pending deliveries abandoned`);
          continue;
        }
        const headers: Record<string, string> = Object.fromEntries(
          Object.entries(input.headers).map(([name, value]) => {
            const old = existing ? Object.entries(existing.headers).find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1] : undefined;
            return [name, old !== undefined && value === maskHeaderValue(old) ? old : value];
          }),
        );
        if (existing) {
          await repo.update(
            { id: existing.id },
            { url: input.url, headers, disabled: false, disabledReason: null, disabledAt: null, failingSince: null, updatedAt: now },
          );
        } else {
          await repo.insert({ id: newId(), companyId: ctx.companyId, key, url: input.url, headers, createdAt: now, updatedAt: now });
        }
      }
    });
    return this.get(ctx.companyId);
  }

  /** The current secret, made on first use. */
  async secret(companyId: string, manager: EntityManager = this.dataSource.manager): Promise<string> {
    const repo = manager.getRepository(WebhookSecret);
    const found = await repo.findOneBy({ companyId });
    if (found) return found.secret;
    await manager.query(
      `INSERT INTO webhook_secrets (company_id, secret, created_at) VALUES ($1, $2, $3) ON CONFLICT (company_id) DO NOTHING`,
      [companyId, newWebhookSecret(), Date.now()],
    );
    return (await repo.findOneByOrFail({ companyId })).secret;
  }

  /**
   * rotatewebhooksecret: a new secret; the old one keeps signing (as a second signature) until
   * `previousSecretExpiresAt` (ms) and is never shown again.
   */
  async rotate(ctx: AuthContext): Promise<{ secret: string; previousSecretExpiresAt: number }> {
    return this.dataSource.transaction(async (manager) => {
      const old = await this.secret(ctx.companyId, manager);
      const secret = newWebhookSecret();
      const previousSecretExpiresAt = Date.now() + this.config.WEBHOOK_SECRET_OVERLAP_MS;
      await manager.query(`UPDATE webhook_secrets SET secret = $2, previous_secret = $3, previous_expires_at = $4 WHERE company_id = $1`, [
        ctx.companyId,
        secret,
        old,
        previousSecretExpiresAt,
      ]);
      return { secret, previousSecretExpiresAt };
    });
  }

  /** Marks an endpoint's pending deliveries abandoned (removed or disabled). @returns how many. */
  async abandonPending(manager: EntityManager, endpointId: string, reason: string): Promise<number> {
    const res: [unknown[], number] = await manager.query(
      `UPDATE webhook_deliveries SET state = 'abandoned', last_error = $2, finished_at = $3, locked_until = NULL
        WHERE endpoint_id = $1 AND state IN ('pending', 'in_flight')`,
      [endpointId, reason, Date.now()],
    );
    return res[1];
  }
}
