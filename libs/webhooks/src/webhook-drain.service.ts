import { AppConfig, newId } from '@app/core';
import { Injectable, Logger, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import { AttemptOutcome, attemptOutcome, AttemptOutcomeName, AttemptRules } from './attempt-outcome';
import { parseSchedule } from './retry';
import { AttemptRecord, ClaimedDelivery, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDrainProducer } from './webhook-drain-producer.service';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { SendResult, WebhookSender } from './webhook-sender.client';
import { WebhookSigner } from './webhook-signer.service';
import { WebhookSubscriptionsRepository } from './subscriptions/webhook-subscriptions.repository';

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

/** One element of the batch call's `p_record`: the delivery's new state and its attempt row. */
function attemptRecord({ d, startedAt, result, decision }: SentBatch['decided'][number]): AttemptRecord {
  return {
    id: d.id,
    company: d.companyId,
    state: decision.state,
    next: decision.nextAttemptAt ?? null,
    failures: decision.failures,
    status: result.status,
    error: result.error?.slice(0, 500) ?? null,
    finished: decision.state === 'pending' ? null : startedAt + result.durationMs,
    attempt: newId(),
    started: startedAt,
    duration: result.durationMs,
    outcome: decision.outcome,
  };
}

/**
 * Delivers one endpoint's due deliveries (CONTRACTS.md "Delivery"; docs/decisions.md "Webhooks").
 * A drain claims the endpoint's oldest due deliveries up to its free in-flight slots
 * (`WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT`, across all workers: the claim locks the endpoint row),
 * POSTs them concurrently, then records them and claims the next batch in the same round trip
 * (`fieldwork_webhook_batch`), until nothing is due. A claim is `in_flight` until `locked_until`.
 *
 * Shutdown: the first shutdown hook stops every drain from claiming again (each records its batch
 * in flight and hands the endpoint on); the HTTP agent closes in the last hook, once the last
 * drain has recorded (at most the timeout and the claim margin), whatever order the queue workers close in.
 */
@Injectable()
export class WebhookDrain implements OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger('WebhookDelivery');
  private readonly rules: AttemptRules;
  private sender?: WebhookSender;
  /** set on shutdown: drains record their batch in flight and hand the endpoint on (`more`) */
  private stopping = false;
  /** drains running in this process, and who waits for none to be */
  private active = 0;
  private readonly idle: Array<() => void> = [];

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly subscriptions: WebhookSubscriptionsRepository,
    private readonly signer: WebhookSigner,
    private readonly drains: WebhookDrainProducer,
    private readonly config: AppConfig,
  ) {
    this.rules = { scheduleMs: parseSchedule(config.WEBHOOK_RETRY_SCHEDULE), disableAfterMs: config.WEBHOOK_DISABLE_AFTER_MS };
  }

  /** The HTTP client, made on first use (the api never sends). */
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

  /** The last shutdown hook: closes the HTTP agent once the running drains have recorded their last batch. */
  async onApplicationShutdown(): Promise<void> {
    if (this.active) {
      await Promise.race([
        new Promise<void>((resolve) => this.idle.push(resolve)),
        new Promise((resolve) => setTimeout(resolve, this.config.WEBHOOK_TIMEOUT_MS + CLAIM_MARGIN_MS).unref()),
      ]);
    }
    await this.sender?.close();
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
      const disabling = sent?.decided.find((x) => x.decision.disable);
      const disable = disabling?.decision.disable;
      const outOfTime = this.stopping || Date.now() - started >= DRAIN_BUDGET_MS;
      if (!sent && outOfTime) return handOn(); // stopping before the first claim
      const next = await this.step(endpointId, sent, disable || outOfTime ? 0 : this.config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT);
      if (sent) {
        for (const x of sent.decided) result.attempts[x.decision.outcome] = (result.attempts[x.decision.outcome] ?? 0) + 1;
        if (disabling && disable) {
          await this.disable(endpointId, disabling.d, disable, sent.now);
          return result;
        }
        const retries = [...new Set(sent.decided.map((x) => x.decision.nextAttemptAt).filter((t): t is number => t !== undefined))];
        await this.drains.enqueue(retries.map((at) => ({ endpointId, next: at })));
        if (outOfTime) return handOn();
      }
      if (!next.batch.length) return result;
      result.outcome = 'drained';
      result.batches += 1;
      sent = await this.send(next.batch, next.lockedUntil);
    }
  }

  /**
   * A 410 answer, or failure for too long: a nine-key endpoint is disabled (setting its URL again
   * re-enables it); a REST hook subscription is deleted (the automation tool subscribes again) — in
   * both cases its open deliveries are abandoned.
   */
  private async disable(targetId: string, d: ClaimedDelivery, reason: string, now: number): Promise<void> {
    if (d.target === 'subscription') {
      const abandoned = await this.subscriptions.deleteGone(d.companyId, targetId, `subscription removed: ${reason}`, now);
      this.logger.warn(`hook ${targetId} of company ${d.companyId} deleted (${reason}); ${abandoned ?? 0} deliveries abandoned`);
      return;
    }
    const abandoned = await this.endpoints.disable(targetId, reason, now);
    this.logger.warn(`endpoint ${targetId} disabled (${reason}); ${abandoned} deliveries abandoned`);
  }

  /**
   * One round trip: records the batch just sent (if any), then claims up to `cap` of the
   * endpoint's oldest due deliveries (none when `cap` is 0); abandons claimed ones whose event was pruned.
   */
  private async step(endpointId: string, sent: SentBatch | null, cap: number): Promise<{ batch: ClaimedDelivery[]; lockedUntil: number }> {
    const now = Date.now();
    // a live attempt ends within the timeout; past this margin the claim is taken as lost (the worker died)
    const lockedUntil = now + this.config.WEBHOOK_TIMEOUT_MS + CLAIM_MARGIN_MS;
    const rows = await this.deliveries.recordAndClaim({
      endpointId,
      now,
      cap,
      lockedUntil,
      record: sent ? sent.decided.map(attemptRecord) : null,
      recordedLock: sent?.lockedUntil ?? null,
      anyDelivered: sent?.decided.some((x) => x.decision.outcome === 'delivered') ?? false,
    });
    const pruned = rows.filter((r) => r.payload === null).map((r) => r.id);
    if (pruned.length) await this.deliveries.abandonPruned(pruned, now);
    return { batch: rows.filter((r) => r.payload !== null), lockedUntil };
  }

  /**
   * POSTs a claimed batch concurrently, each signed as it goes ({@link WebhookSigner}), and decides
   * what each answer means ({@link attemptOutcome}).
   */
  private async send(batch: ClaimedDelivery[], lockedUntil: number): Promise<SentBatch> {
    const results = await Promise.all(
      batch.map(async (d) => {
        const request = await this.signer.sign(d, Date.now());
        const startedAt = Date.now();
        return { d, startedAt, result: await this.http.post(d.url, request.headers, request.body, request.contentType) };
      }),
    );
    const now = Date.now();
    return {
      now,
      lockedUntil,
      decided: results.map((x) => ({ ...x, decision: attemptOutcome(x.result, x.d.failures, x.d.failingSince, now, this.rules) })),
    };
  }
}
