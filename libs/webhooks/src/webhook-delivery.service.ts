import { AppConfig, newId, QueueName, TaskProducer } from '@app/core';
import { CompanyService } from '@app/members';
import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { parseSchedule, retryAfterMs, retryDelayMs } from './retry';
import { newWebhookSecret, signatureHeader } from './signing';
import { WebhookSender } from './webhook-sender';

interface ClaimedDelivery {
  id: string;
  companyId: string;
  eventId: string;
  endpointId: string;
  failures: number;
  url: string;
  headers: Record<string, string>;
  action: string;
  formId: string;
  payload: string;
}

/** ms a worker reuses a company's account name and signing secrets. */
const SIGNER_CACHE_MS = 2_000;

/** ms a claim outlives the HTTP timeout before the reconciler takes it as lost. */
const CLAIM_MARGIN_MS = 5_000;

/**
 * What became of one `deliver` task: when (ms) the delivery should be tried next, if at all, and
 * the endpoint an attempt was made to (its next deliveries may then go).
 */
export interface DeliverOutcome {
  outcome: 'delivered' | 'retry' | 'rescheduled' | 'abandoned' | 'disabled' | 'deferred' | 'skipped';
  nextAttemptAt?: number;
  endpointId?: string;
}

/**
 * At-least-once webhook delivery (spec "Events"; CONTRACTS.md "Delivery"). PostgreSQL holds the
 * truth: a delivery row per (event, endpoint), claimed by one worker at a time (`in_flight` until
 * `locked_until`), never more than `WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT` per endpoint. BullMQ tasks
 * only wake workers; {@link reconcile} re-enqueues what Redis lost and releases claims of dead
 * workers. Every attempt is logged (never header values); the `webhook-id` is the event id for
 * every retry and replay.
 */
@Injectable()
export class WebhookDeliveryService implements OnModuleDestroy {
  private readonly logger = new Logger('WebhookDelivery');
  private readonly schedule: number[];
  private sender?: WebhookSender;
  private readonly signers = new Map<string, { account: string; secrets: string[]; until: number }>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly producer: TaskProducer,
    private readonly company: CompanyService,
  ) {
    this.schedule = parseSchedule(config.WEBHOOK_RETRY_SCHEDULE);
  }

  private get http(): WebhookSender {
    this.sender ??= new WebhookSender({
      timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
      allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE,
      dnsServers: this.config.WEBHOOK_DNS_SERVERS?.split(',').filter(Boolean),
    });
    return this.sender;
  }

  async onModuleDestroy(): Promise<void> {
    await this.sender?.close();
  }

  /** Enqueues `deliver` tasks for the pending deliveries of these events (after their commit), or of these deliveries. */
  async wake(eventIds: string[], deliveryIds: string[] = []): Promise<number> {
    // at most the in-flight cap per endpoint: the rest follow as attempts finish (pullNext), so a
    // batch of events doesn't fill the worker's slots with tasks that would only find the cap full
    const rows: Array<{ id: string; next: number }> = await this.dataSource.query(
      `SELECT id, next FROM (
         SELECT id, next_attempt_at::float8 AS next,
                row_number() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at, id) AS n
           FROM webhook_deliveries
          WHERE (event_id = ANY($1::text[]) OR id = ANY($2::text[])) AND state = 'pending') d
        WHERE n <= $3`,
      [eventIds, deliveryIds, this.config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT],
    );
    await this.enqueue(rows);
    return rows.length;
  }

  /** One task per delivery and schedule point (its job id `<delivery>-<ms>` dedupes re-enqueues of the same point; BullMQ refuses ":" in ids). */
  async enqueue(rows: Array<{ id: string; next: number }>): Promise<void> {
    if (!rows.length) return;
    const now = Date.now();
    await this.producer.addBulk(
      QueueName.WebhookDelivery,
      rows.map((r) => ({
        name: 'deliver' as const,
        data: { deliveryId: r.id },
        opts: { jobId: `${r.id}-${r.next}`, delay: Math.max(0, r.next - now), removeOnComplete: true, removeOnFail: true, attempts: 1 },
      })),
    );
  }

  /**
   * Makes one attempt of a delivery if it is due and its endpoint has room; records the attempt
   * and what comes next. Safe to call for any id at any time (a not-due or finished delivery is
   * skipped).
   */
  async deliver(deliveryId: string): Promise<DeliverOutcome> {
    const claimed = await this.claim(deliveryId);
    if ('outcome' in claimed) return claimed;
    const d = claimed.delivery;
    const timestamp = Math.floor(Date.now() / 1000);
    const body = new URLSearchParams({
      account: claimed.account,
      id: d.formId,
      data: d.payload,
      action: d.action,
      reason: d.action,
    }).toString();
    const headers = {
      ...d.headers,
      'webhook-id': d.eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(claimed.secrets, d.eventId, timestamp, body),
    };
    const startedAt = Date.now();
    const result = await this.http.post(d.url, headers, body);
    return { ...(await this.record(d, startedAt, result)), endpointId: d.endpointId };
  }

  private async claim(deliveryId: string): Promise<DeliverOutcome | { delivery: ClaimedDelivery; account: string; secrets: string[] }> {
    const now = Date.now();
    const claimed = await this.dataSource.transaction(async (m): Promise<DeliverOutcome | ClaimedDelivery> => {
      const [row] = await m.query(
        `SELECT d.id, d.company_id AS "companyId", d.event_id AS "eventId", d.endpoint_id AS "endpointId", d.state,
                d.failures, d.next_attempt_at::float8 AS next
           FROM webhook_deliveries d WHERE d.id = $1 FOR UPDATE`,
        [deliveryId],
      );
      if (!row || row.state !== 'pending') return { outcome: 'skipped' };
      if (row.next > now) return { outcome: 'skipped', nextAttemptAt: row.next };
      // the endpoint row lock serialises claims per endpoint, so the in-flight cap holds across workers
      const [endpoint] = await m.query(`SELECT id, url, headers, disabled FROM webhook_endpoints WHERE id = $1 FOR UPDATE`, [
        row.endpointId,
      ]);
      if (!endpoint || endpoint.disabled) {
        await this.finish(m, deliveryId, 'abandoned', null, endpoint ? 'endpoint disabled' : 'endpoint removed');
        return { outcome: 'abandoned' };
      }
      const [{ inFlight }] = await m.query(
        `SELECT count(*)::int AS "inFlight" FROM webhook_deliveries WHERE endpoint_id = $1 AND state = 'in_flight' AND locked_until > $2`,
        [row.endpointId, now],
      );
      if (inFlight >= this.config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT) {
        // the task is dropped; the endpoint's next finished attempt pulls the oldest due deliveries
        // ({@link pullNext}), and the reconciler is the fallback
        return { outcome: 'deferred' };
      }
      const [event] = await m.query(`SELECT action, form_id AS "formId", payload FROM outbox_events WHERE id = $1`, [row.eventId]);
      if (!event) {
        await this.finish(m, deliveryId, 'abandoned', null, 'event pruned');
        return { outcome: 'abandoned' };
      }
      await m.query(`UPDATE webhook_deliveries SET state = 'in_flight', locked_until = $2 WHERE id = $1`, [
        deliveryId,
        // a live attempt ends within the timeout; past this margin the claim is taken as lost (the worker died)
        now + this.config.WEBHOOK_TIMEOUT_MS + CLAIM_MARGIN_MS,
      ]);
      return { ...row, url: endpoint.url, headers: endpoint.headers, ...event };
    });
    if ('outcome' in claimed) return claimed;
    const { account, secrets } = await this.signer(claimed.companyId, now);
    return { delivery: claimed, account, secrets };
  }

  /**
   * The company's `account` username and signing secrets, cached per worker for
   * {@link SIGNER_CACHE_MS} (two queries saved per delivery; a rotation reaches deliveries within it,
   * while the old secret keeps verifying for its overlap).
   */
  private async signer(companyId: string, now: number): Promise<{ account: string; secrets: string[] }> {
    const hit = this.signers.get(companyId);
    if (hit && hit.until > now) return hit;
    const [account, secrets] = await Promise.all([this.company.accountUsername(companyId), this.signingSecrets(companyId, now)]);
    if (this.signers.size > 10_000) this.signers.clear();
    const entry = { account, secrets, until: now + SIGNER_CACHE_MS };
    this.signers.set(companyId, entry);
    return entry;
  }

  private async signingSecrets(companyId: string, now: number): Promise<string[]> {
    const [row] = await this.dataSource.query(
      `SELECT secret, previous_secret AS previous, previous_expires_at::float8 AS "expiresAt" FROM webhook_secrets WHERE company_id = $1`,
      [companyId],
    );
    if (!row) {
      await this.dataSource.query(
        `INSERT INTO webhook_secrets (company_id, secret, created_at) VALUES ($1, $2, $3) ON CONFLICT (company_id) DO NOTHING`,
        [companyId, newWebhookSecret(), now],
      );
      return this.signingSecrets(companyId, now);
    }
    return row.previous && row.expiresAt > now ? [row.secret, row.previous] : [row.secret];
  }

  private async record(
    d: ClaimedDelivery,
    startedAt: number,
    result: { status: number | null; error: string | null; retryAfter?: string; durationMs: number },
  ): Promise<DeliverOutcome> {
    const now = Date.now();
    return this.dataSource.transaction(async (m) => {
      let outcome: DeliverOutcome;
      const ok = result.status !== null && result.status >= 200 && result.status < 300;
      if (ok) {
        await this.finish(m, d.id, 'delivered', result.status, null);
        await m.query(`UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL`, [d.endpointId]);
        outcome = { outcome: 'delivered' };
      } else if (result.status === 410) {
        await this.disable(m, d.endpointId, '410 Gone', now);
        outcome = { outcome: 'disabled' };
      } else {
        const [endpoint] = await m.query(
          `UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, $2) WHERE id = $1 RETURNING failing_since::float8 AS since`,
          [d.endpointId, now],
        );
        if (endpoint && now - endpoint.since >= this.config.WEBHOOK_DISABLE_AFTER_MS) {
          await this.disable(m, d.endpointId, 'failing continuously', now);
          outcome = { outcome: 'disabled' };
        } else if (result.status === 429) {
          const delay = retryAfterMs(result.retryAfter, now) ?? retryDelayMs(Math.max(1, d.failures), this.schedule) ?? 60_000;
          outcome = { outcome: 'rescheduled', nextAttemptAt: now + delay };
          await this.retryLater(m, d.id, outcome.nextAttemptAt!, d.failures, result);
        } else {
          const delay = retryDelayMs(d.failures + 1, this.schedule);
          if (delay === null) {
            await this.finish(m, d.id, 'abandoned', result.status, result.error, d.failures + 1);
            outcome = { outcome: 'abandoned' };
          } else {
            outcome = { outcome: 'retry', nextAttemptAt: now + delay };
            await this.retryLater(m, d.id, outcome.nextAttemptAt!, d.failures + 1, result);
          }
        }
      }
      await m.query(
        `INSERT INTO webhook_attempts (id, delivery_id, company_id, started_at, duration_ms, http_status, error, outcome) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [newId(), d.id, d.companyId, startedAt, result.durationMs, result.status, result.error?.slice(0, 500) ?? null, outcome.outcome],
      );
      await m.query(`UPDATE webhook_deliveries SET attempts = attempts + 1 WHERE id = $1`, [d.id]);
      return outcome;
    });
  }

  private async retryLater(
    m: EntityManager,
    id: string,
    next: number,
    failures: number,
    r: { status: number | null; error: string | null },
  ): Promise<void> {
    await m.query(
      `UPDATE webhook_deliveries SET state = 'pending', locked_until = NULL, next_attempt_at = $2, failures = $3, last_status = $4, last_error = $5 WHERE id = $1`,
      [id, next, failures, r.status, r.error?.slice(0, 500) ?? null],
    );
  }

  private async finish(
    m: EntityManager,
    id: string,
    state: 'delivered' | 'abandoned',
    status: number | null,
    error: string | null,
    failures?: number,
  ): Promise<void> {
    await m.query(
      `UPDATE webhook_deliveries SET state = $2, locked_until = NULL, finished_at = $3, last_status = coalesce($4, last_status), last_error = $5,
              failures = coalesce($6, failures) WHERE id = $1`,
      [id, state, Date.now(), status, error?.slice(0, 500) ?? null, failures ?? null],
    );
  }

  /** Disables an endpoint and abandons its pending deliveries (logged). Setting its URL again re-enables it. */
  private async disable(m: EntityManager, endpointId: string, reason: string, now: number): Promise<void> {
    await m.query(`UPDATE webhook_endpoints SET disabled = true, disabled_reason = $2, disabled_at = $3 WHERE id = $1`, [
      endpointId,
      reason,
      now,
    ]);
    const res: [unknown[], number] = await m.query(
      `UPDATE webhook_deliveries SET state = 'abandoned', locked_until = NULL, finished_at = $2, last_error = $3 WHERE endpoint_id = $1 AND state IN ('pending', 'in_flight')`,
      [endpointId, now, `endpoint disabled: ${reason}`],
    );
    this.logger.warn(`endpoint ${endpointId} disabled (${reason}); ${res[1]} deliveries abandoned`);
  }

  /**
   * After an attempt to an endpoint: enqueues its oldest due pending deliveries, as many as its
   * in-flight cap (a backlog drains at the cap's pace instead of tasks polling for a slot).
   */
  async pullNext(endpointId: string): Promise<void> {
    const rows: Array<{ id: string; next: number }> = await this.dataSource.query(
      `SELECT id, next_attempt_at::float8 AS next FROM webhook_deliveries
        WHERE endpoint_id = $1 AND state = 'pending' AND next_attempt_at <= $2 ORDER BY next_attempt_at, id LIMIT $3`,
      [endpointId, Date.now(), this.config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT],
    );
    await this.enqueue(rows);
  }

  /**
   * The reconciler: releases claims whose worker died (`locked_until` passed: the attempt is made
   * again, with the same webhook-id) and enqueues every pending delivery due within the next
   * interval (BullMQ ignores ids it already holds).
   * @returns how many deliveries were released and enqueued.
   */
  async reconcile(): Promise<{ released: number; enqueued: number }> {
    const now = Date.now();
    const released: [unknown[], number] = await this.dataSource.query(
      `UPDATE webhook_deliveries SET state = 'pending', locked_until = NULL WHERE state = 'in_flight' AND locked_until < $1`,
      [now],
    );
    // per endpoint, its oldest pending deliveries due within the interval, up to the in-flight cap
    // (each finished attempt pulls the next ones)
    const rows: Array<{ id: string; next: number }> = await this.dataSource.query(
      `SELECT id, next FROM (
         SELECT id, next_attempt_at::float8 AS next,
                row_number() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at, id) AS n
           FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= $1) d
        WHERE n <= $2`,
      [now + this.config.WEBHOOK_RECONCILE_MS, this.config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT],
    );
    for (let i = 0; i < rows.length; i += 1000) await this.enqueue(rows.slice(i, i + 1000));
    const enqueued = rows.length;
    return { released: released[1], enqueued };
  }

  /** Deletes attempts, finished deliveries and their outbox events older than the retention, in batches. */
  async prune(): Promise<number> {
    const before = Date.now() - this.config.WEBHOOK_RETENTION_DAYS * 86_400_000;
    let total = 0;
    for (const sql of [
      `DELETE FROM webhook_attempts WHERE id IN (SELECT id FROM webhook_attempts WHERE started_at < $1 LIMIT 5000)`,
      `DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries WHERE state IN ('delivered', 'abandoned') AND created_at < $1 LIMIT 5000)`,
      `DELETE FROM outbox_events WHERE id IN (SELECT o.id FROM outbox_events o WHERE o.created_at < $1
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = o.id) LIMIT 5000)`,
    ]) {
      for (;;) {
        const res: [unknown[], number] = await this.dataSource.query(sql, [before]);
        total += res[1];
        if (res[1] < 5000) break;
      }
    }
    return total;
  }
}
