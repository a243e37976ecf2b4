import { AppConfig, newId, QueueName, TaskProducer } from '@app/core';
import { CompanyService } from '@app/members';
import { Injectable, Logger, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AttemptOutcome, attemptOutcome, AttemptOutcomeName, AttemptRules } from './attempt-outcome';
import { parseSchedule } from './retry';
import { newWebhookSecret, signatureHeader } from './signing';
import { SendResult, WebhookSender } from './webhook-sender';

/** A delivery claimed for one attempt, with what the attempt needs (one row of `fieldwork_webhook_batch`). */
interface ClaimedDelivery {
  id: string;
  companyId: string;
  eventId: string;
  failures: number;
  url: string;
  headers: Record<string, string>;
  /** ms; null while the endpoint is not failing */
  failingSince: number | null;
  /** null when the event was pruned */
  action: string | null;
  formId: string | null;
  payload: string | null;
}

/** ms a worker reuses a company's account name and signing secrets. */
const SIGNER_CACHE_MS = 2_000;

/** ms a claim outlives the HTTP timeout before the reconciler takes it as lost. */
const CLAIM_MARGIN_MS = 5_000;

/** ms one `drain` task keeps claiming before it hands the endpoint to a fresh task (fairness). */
const DRAIN_BUDGET_MS = 2_000;

/** ms before a drain handed on by a stopping process may start (elsewhere, or here if it is still up). */
const STOPPING_HANDOFF_MS = 1_000;

/** What one `drain` task did: batches claimed, and its attempts by outcome. */
export interface DrainOutcome {
  outcome: 'drained' | 'idle';
  batches: number;
  attempts: Partial<Record<AttemptOutcomeName, number>>;
  /** true when the task stopped at its time budget (or for shutdown) with work possibly left: the caller enqueues another */
  more: boolean;
  /** ms the caller waits before that next task (1 s while this process stops, so it does not take the task back at once) */
  moreAfterMs?: number;
}

/** A batch after its HTTP attempts: each delivery with its result and what it means. */
interface SentBatch {
  /** ms when the last answer came */
  now: number;
  /** the batch's claim (recording checks the claim is still this one) */
  lockedUntil: number;
  decided: Array<{ d: ClaimedDelivery; startedAt: number; result: SendResult; decision: AttemptOutcome }>;
}

/** One element of `fieldwork_webhook_batch`'s `p_record`: the delivery's new state and its attempt row. */
function attemptRecord({ d, startedAt, result, decision }: SentBatch['decided'][number]) {
  const error = result.error?.slice(0, 500) ?? null;
  return {
    id: d.id,
    company: d.companyId,
    state: decision.state,
    next: decision.nextAttemptAt ?? null,
    failures: decision.failures,
    status: result.status,
    error,
    finished: decision.state === 'pending' ? null : startedAt + result.durationMs,
    attempt: newId(),
    started: startedAt,
    duration: result.durationMs,
    outcome: decision.outcome,
  };
}

/**
 * At-least-once webhook delivery (spec "Events"; CONTRACTS.md "Delivery"). PostgreSQL holds the
 * truth: a delivery row per (event, endpoint). Work is done per endpoint: a `drain` task claims the
 * endpoint's oldest due deliveries up to its free in-flight slots (`WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT`,
 * across all workers: the claim locks the endpoint row), POSTs them concurrently, then records them
 * and claims the next batch in the same call (`fieldwork_webhook_batch`: one round trip per batch),
 * until nothing is due. A claim is `in_flight` until `locked_until`; {@link reconcile} releases the
 * claims of dead workers and re-enqueues what Redis lost. BullMQ tasks only wake workers. Every
 * attempt is logged (never header values); the `webhook-id` is the event id for every retry and replay.
 */
@Injectable()
export class WebhookDeliveryService implements OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger('WebhookDelivery');
  private readonly rules: AttemptRules;
  private sender?: WebhookSender;
  private readonly signers = new Map<string, { account: string; secrets: string[]; until: number }>();
  /** set on shutdown: drains record their batch in flight and hand the endpoint on (`more`) */
  private stopping = false;
  /** drains running in this process, and who waits for none to be */
  private active = 0;
  private readonly idle: Array<() => void> = [];

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly producer: TaskProducer,
    private readonly company: CompanyService,
  ) {
    this.rules = { scheduleMs: parseSchedule(config.WEBHOOK_RETRY_SCHEDULE), disableAfterMs: config.WEBHOOK_DISABLE_AFTER_MS };
  }

  private get http(): WebhookSender {
    this.sender ??= new WebhookSender({
      timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
      allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE,
      dnsServers: this.config.WEBHOOK_DNS_SERVERS?.split(',').filter(Boolean),
    });
    return this.sender;
  }

  /** The first shutdown hook: from now on no drain claims another batch. */
  onModuleDestroy(): void {
    this.stopping = true;
  }

  /**
   * Closes the HTTP agent once the running drains have recorded their last batch (at most the
   * timeout and the claim margin), whatever order the queue workers close in.
   */
  async onApplicationShutdown(): Promise<void> {
    if (this.active) {
      await Promise.race([
        new Promise<void>((resolve) => this.idle.push(resolve)),
        new Promise((resolve) => setTimeout(resolve, this.config.WEBHOOK_TIMEOUT_MS + CLAIM_MARGIN_MS).unref()),
      ]);
    }
    await this.sender?.close();
  }

  /** Enqueues a `drain` task for each endpoint with pending deliveries of these events (after their commit), or of these deliveries. */
  async wake(eventIds: string[], deliveryIds: string[] = []): Promise<number> {
    const rows: Array<{ endpointId: string; next: number }> = await this.dataSource.query(
      `SELECT endpoint_id AS "endpointId", min(next_attempt_at)::float8 AS next FROM webhook_deliveries
        WHERE (event_id = ANY($1::text[]) OR id = ANY($2::text[])) AND state = 'pending' GROUP BY endpoint_id`,
      [eventIds, deliveryIds],
    );
    await this.enqueue(rows);
    return rows.length;
  }

  /**
   * One `drain` task per endpoint and time (ms): its job id `drain-<endpoint>-<ms>` dedupes
   * re-enqueues of the same point (BullMQ refuses ":" in ids), delayed until then.
   */
  async enqueue(rows: Array<{ endpointId: string; next: number; tag?: string }>): Promise<void> {
    if (!rows.length) return;
    const now = Date.now();
    await this.producer.addBulk(
      QueueName.WebhookDelivery,
      rows.map((r) => ({
        name: 'drain' as const,
        data: { endpointId: r.endpointId },
        opts: {
          jobId: `drain-${r.endpointId}-${r.next}${r.tag ?? ''}`,
          delay: Math.max(0, r.next - now),
          removeOnComplete: true,
          removeOnFail: true,
          attempts: 1,
        },
      })),
    );
  }

  /**
   * Delivers an endpoint's due deliveries: claims a batch (up to its free in-flight slots), POSTs
   * them concurrently, records them while claiming the next batch, and repeats until nothing is
   * due, the slots are held by another worker (that worker carries on), an answer disabled the
   * endpoint, or {@link DRAIN_BUDGET_MS} has passed or the process is stopping (`more`). Retries
   * are enqueued for their time. Safe to call for any endpoint at any time.
   */
  async drain(endpointId: string): Promise<DrainOutcome> {
    this.active += 1;
    try {
      return await this.drainLoop(endpointId);
    } finally {
      this.active -= 1;
      if (!this.active) this.idle.splice(0).forEach((resolve) => resolve());
    }
  }

  private async drainLoop(endpointId: string): Promise<DrainOutcome> {
    const started = Date.now();
    const result: DrainOutcome = { outcome: 'idle', batches: 0, attempts: {}, more: false };
    const handOn = (): DrainOutcome => ({ ...result, more: true, moreAfterMs: this.stopping ? STOPPING_HANDOFF_MS : 0 });
    let sent: SentBatch | null = null;
    for (;;) {
      const disable = sent?.decided.find((x) => x.decision.disable)?.decision.disable;
      const outOfTime = this.stopping || Date.now() - started >= DRAIN_BUDGET_MS;
      if (!sent && outOfTime) return handOn(); // stopping before the first claim
      const next = await this.step(endpointId, sent, disable || outOfTime ? 0 : this.config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT);
      if (sent) {
        for (const x of sent.decided) result.attempts[x.decision.outcome] = (result.attempts[x.decision.outcome] ?? 0) + 1;
        if (disable) {
          await this.dataSource.transaction((m) => this.disable(m, endpointId, disable, sent!.now));
          return result;
        }
        const retries = [...new Set(sent.decided.map((x) => x.decision.nextAttemptAt).filter((t): t is number => t !== undefined))];
        await this.enqueue(retries.map((at) => ({ endpointId, next: at })));
        if (outOfTime) return handOn();
      }
      if (!next.batch.length) return result;
      result.outcome = 'drained';
      result.batches += 1;
      sent = await this.send(next.batch, next.lockedUntil);
    }
  }

  /**
   * One round trip: records the batch just sent (if any), then claims up to `cap` of the
   * endpoint's oldest due deliveries (none when `cap` is 0); abandons claimed ones whose event was pruned.
   */
  private async step(endpointId: string, sent: SentBatch | null, cap: number): Promise<{ batch: ClaimedDelivery[]; lockedUntil: number }> {
    const now = Date.now();
    // a live attempt ends within the timeout; past this margin the claim is taken as lost (the worker died)
    const lockedUntil = now + this.config.WEBHOOK_TIMEOUT_MS + CLAIM_MARGIN_MS;
    const rows: ClaimedDelivery[] = await this.dataSource.query(
      `SELECT id, company_id AS "companyId", event_id AS "eventId", failures, url, headers, failing_since::float8 AS "failingSince",
              action, form_id AS "formId", payload
         FROM fieldwork_webhook_batch($1, $2, $3, $4, $5::jsonb, $6, $7)`,
      [
        endpointId,
        now,
        cap,
        lockedUntil,
        sent ? JSON.stringify(sent.decided.map(attemptRecord)) : null,
        sent?.lockedUntil ?? null,
        sent?.decided.some((x) => x.decision.outcome === 'delivered') ?? false,
      ],
    );
    const pruned = rows.filter((r) => r.payload === null).map((r) => r.id);
    if (pruned.length) {
      await this.dataSource.query(
        `UPDATE webhook_deliveries SET state = 'abandoned', locked_until = NULL, finished_at = $2, last_error = 'event pruned' WHERE id = ANY($1::text[])`,
        [pruned, now],
      );
    }
    return { batch: rows.filter((r) => r.payload !== null), lockedUntil };
  }

  /**
   * POSTs a claimed batch concurrently (signed per Standard Webhooks, form fields per the spec's
   * Events section) and decides what each answer means ({@link attemptOutcome}).
   */
  private async send(batch: ClaimedDelivery[], lockedUntil: number): Promise<SentBatch> {
    const results = await Promise.all(
      batch.map(async (d) => {
        const { account, secrets } = await this.signer(d.companyId, Date.now());
        const timestamp = Math.floor(Date.now() / 1000);
        const body = new URLSearchParams({ account, id: d.formId!, data: d.payload!, action: d.action!, reason: d.action! }).toString();
        const headers = {
          ...d.headers,
          'webhook-id': d.eventId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureHeader(secrets, d.eventId, timestamp, body),
        };
        const startedAt = Date.now();
        return { d, startedAt, result: await this.http.post(d.url, headers, body) };
      }),
    );
    const now = Date.now();
    return {
      now,
      lockedUntil,
      decided: results.map((x) => ({ ...x, decision: attemptOutcome(x.result, x.d.failures, x.d.failingSince, now, this.rules) })),
    };
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
   * The reconciler: releases claims whose worker died (`locked_until` passed: the attempt is made
   * again, with the same webhook-id) and enqueues a `drain` for every endpoint with deliveries due
   * within the next interval (BullMQ ignores ids it already holds).
   * @returns how many deliveries were released, and how many drains enqueued.
   */
  async reconcile(): Promise<{ released: number; enqueued: number }> {
    const now = Date.now();
    const released: [unknown[], number] = await this.dataSource.query(
      `UPDATE webhook_deliveries SET state = 'pending', locked_until = NULL WHERE state = 'in_flight' AND locked_until < $1`,
      [now],
    );
    // a drain per endpoint at each of the times its oldest pending deliveries fall due within the
    // interval (a drain takes every delivery due by then; the later ones get theirs as they come)
    const rows: Array<{ endpointId: string; next: number }> = await this.dataSource.query(
      `SELECT DISTINCT "endpointId", next FROM (
         SELECT endpoint_id AS "endpointId", next_attempt_at::float8 AS next,
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
