import { AppConfig, newId } from '@app/core';
import { Injectable, Logger, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import { AttemptOutcome, attemptOutcome, AttemptOutcomeName, AttemptRules } from './attempt-outcome';
import { parseSchedule } from './retry';
import { GroupRecorder } from './subscriptions/group-recorder';
import { AttemptRecord, ClaimedDelivery, HookAttemptRecord, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
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

  /**
   * Delivers the due deliveries of every REST hook subscription of a company, in rounds: one claim
   * gives each subscription up to its free in-flight slots (`fieldwork_webhook_hooks_claim`), the
   * POSTs go out concurrently and are recorded in groups as the answers come in ({@link GroupRecorder}:
   * a slow subscriber never holds the others' records, so never their slots), and the next round
   * starts once the round is recorded — until nothing is due or the budget is spent, as {@link drain}.
   * A 410 (or failure for too long) deletes that subscription only. So an event with 50 subscriptions
   * costs one claim and a few record calls, not 50 drains.
   */
  async drainHooks(companyId: string): Promise<DrainOutcome> {
    this.active += 1;
    try {
      return await this.hooksLoop(companyId);
    } finally {
      this.active -= 1;
      if (!this.active) this.idle.splice(0).forEach((resolve) => resolve());
    }
  }

  private async hooksLoop(companyId: string): Promise<DrainOutcome> {
    const started = Date.now();
    const result: DrainOutcome = { outcome: 'idle', batches: 0, attempts: {}, more: false };
    for (;;) {
      if (this.stopping || Date.now() - started >= DRAIN_BUDGET_MS) {
        return { ...result, more: true, moreAfterMs: this.stopping ? STOPPING_HANDOFF_MS : 0 };
      }
      const now = Date.now();
      const lockedUntil = now + this.config.WEBHOOK_TIMEOUT_MS + CLAIM_MARGIN_MS;
      const rows = await this.deliveries.claimHooks(companyId, now, this.config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT, lockedUntil);
      const pruned = rows.filter((r) => r.payload === null).map((r) => r.id);
      if (pruned.length) await this.deliveries.abandonPruned(pruned, now);
      const batch = rows.filter((r) => r.payload !== null);
      if (!batch.length) return result;
      result.outcome = 'drained';
      result.batches += 1;
      const decided = await this.sendHooks(companyId, batch, lockedUntil);
      for (const x of decided) result.attempts[x.decision.outcome] = (result.attempts[x.decision.outcome] ?? 0) + 1;
      const gone = new Map(decided.filter((x) => x.decision.disable).map((x) => [x.d.targetId, x] as const));
      for (const [targetId, x] of gone) await this.disable(targetId, x.d, x.decision.disable!, Date.now());
      const retries = [...new Set(decided.map((x) => x.decision.nextAttemptAt).filter((t): t is number => t !== undefined))];
      await this.drains.enqueue(retries.map((at) => ({ endpointId: companyId, target: 'subscription' as const, next: at })));
    }
  }

  /** POSTs a claimed round of subscription deliveries concurrently, each recorded in a group as its answer comes in. */
  private async sendHooks(companyId: string, batch: ClaimedDelivery[], lockedUntil: number): Promise<SentBatch['decided']> {
    const recorder = new GroupRecorder<HookAttemptRecord>((records) =>
      this.deliveries.recordHooks(companyId, Date.now(), records, lockedUntil),
    );
    const bodies = new Map<string, string>(); // one JSON body per event, however many subscriptions get it
    return Promise.all(
      batch.map(async (d) => {
        const request = await this.signer.sign(d, Date.now(), bodies);
        const startedAt = Date.now();
        const result = await this.http.post(d.url, request.headers, request.body, request.contentType);
        const decided = { d, startedAt, result, decision: attemptOutcome(result, d.failures, d.failingSince, Date.now(), this.rules) };
        await recorder.add({ ...attemptRecord(decided), target: d.targetId });
        return decided;
      }),
    );
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
        await this.drains.enqueue(retries.map((at) => ({ endpointId, target: 'endpoint' as const, next: at })));
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
