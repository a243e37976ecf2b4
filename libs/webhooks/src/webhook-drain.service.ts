import { AppConfig, PhaseWatch } from '@app/core';
import { Injectable, Logger } from '@nestjs/common';
import { attemptOutcome, AttemptRules } from './attempt-outcome';
import {
  attemptRecord,
  attemptRules,
  CLAIM_MARGIN_MS,
  countAttempts,
  DecidedAttempt,
  DRAIN_BUDGET_MS,
  DrainOutcome,
  sendInSlots,
  STOPPING_HANDOFF_MS,
} from './drain-rules';
import { ClaimedDelivery, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDrainProducer } from './webhook-drain-producer.service';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookHttp } from './webhook-http.service';
import { WebhookSigner } from './webhook-signer.service';

export type { DrainOutcome } from './drain-rules';

/** A batch after its HTTP attempts: each delivery with its result and what it means. */
interface SentBatch {
  /** ms when the last answer came */
  now: number;
  /** the batch's claim (recording checks the claim is still this one) */
  lockedUntil: number;
  decided: DecidedAttempt[];
  /** claimed but not sent: the process began stopping, or an answer disabled the endpoint */
  unsent: ClaimedDelivery[];
}

/**
 * Delivers one endpoint's due deliveries (CONTRACTS.md "Delivery"; docs/decisions.md "Webhooks";
 * docs/webhooks-internals.md "A claim larger than the cap"). A drain claims the endpoint's oldest due
 * deliveries — up to `WEBHOOK_CLAIM_ROUNDS` × `WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT`, and only when
 * nothing of the endpoint is in flight (one holder per endpoint across all workers: the claim locks
 * the endpoint row) — POSTs them `cap` at a time, each slot taking the next delivery as its request
 * ends, then records them and claims the next batch in the same round trip (`fieldwork_webhook_batch`),
 * until nothing is due. A claim is `in_flight` until `locked_until` (its rounds of the timeout);
 * what a stopping process or a disabling answer left unsent goes back to `pending`.
 * Shutdown and the HTTP client: {@link WebhookHttp}. (A company's REST hook subscriptions have a
 * drain of their own: `WebhookHooksDrain`.)
 */
@Injectable()
export class WebhookDrain {
  private readonly logger = new Logger('WebhookDelivery');
  private readonly rules: AttemptRules;

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly signer: WebhookSigner,
    private readonly drains: WebhookDrainProducer,
    private readonly http: WebhookHttp,
    private readonly config: AppConfig,
  ) {
    this.rules = attemptRules(config);
  }

  /**
   * Delivers an endpoint's due deliveries: claims a batch (up to its free in-flight slots), POSTs
   * them concurrently, records them while claiming the next batch, and repeats until nothing is
   * due, the slots are held by another worker (that worker carries on), an answer disabled the
   * endpoint, or {@link DRAIN_BUDGET_MS} has passed or the process is stopping (`more`). Retries
   * are enqueued for their time. Safe to call for any endpoint at any time.
   */
  async drain(endpointId: string, companyId: string | null): Promise<DrainOutcome> {
    // past its budget and one claim's rounds of timeouts, a drain names the await it is stuck in
    const rounds = this.config.WEBHOOK_CLAIM_ROUNDS;
    const watch = new PhaseWatch(
      this.logger,
      `drain of endpoint ${endpointId}`,
      DRAIN_BUDGET_MS + rounds * this.config.WEBHOOK_TIMEOUT_MS + CLAIM_MARGIN_MS,
    );
    try {
      return await this.http.track(() => this.drainLoop(endpointId, companyId, watch));
    } finally {
      watch.end();
    }
  }

  private async drainLoop(endpointId: string, known: string | null, watch: PhaseWatch): Promise<DrainOutcome> {
    // the endpoint's company: given by the drain point, else learnt from the first claimed delivery
    let companyId = known;
    const started = Date.now();
    const result: DrainOutcome = { outcome: 'idle', batches: 0, attempts: {}, more: false };
    const handOn = (): DrainOutcome => ({ ...result, more: true, moreAfterMs: this.http.stopping ? STOPPING_HANDOFF_MS : 0 });
    let sent: SentBatch | null = null;
    for (;;) {
      const disable = sent?.decided.find((x) => x.decision.disable)?.decision.disable;
      const outOfTime = this.http.stopping || Date.now() - started >= DRAIN_BUDGET_MS;
      if (!sent && outOfTime) return handOn(); // stopping before the first claim
      watch.enter('releasing the unsent deliveries (PostgreSQL)');
      if (sent?.unsent.length)
        await this.deliveries.releaseUnattempted(
          sent.unsent[0].companyId,
          sent.unsent.map((d) => d.id),
          sent.lockedUntil,
        );
      const claimSize = this.config.WEBHOOK_CLAIM_ROUNDS * this.config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT;
      watch.enter('recording and claiming (PostgreSQL)');
      const next = await this.step(endpointId, companyId, sent, disable || outOfTime ? 0 : claimSize);
      companyId ??= next.batch[0]?.companyId ?? null;
      if (sent) {
        countAttempts(result, sent.decided);
        if (disable) {
          watch.enter('disabling the endpoint (PostgreSQL)');
          const abandoned = await this.endpoints.disable(endpointId, disable, sent.now);
          this.logger.warn(`endpoint ${endpointId} disabled (${disable}); ${abandoned} deliveries abandoned`);
          return result;
        }
        const retries = [...new Set(sent.decided.map((x) => x.decision.nextAttemptAt).filter((t): t is number => t !== undefined))];
        watch.enter('enqueueing its retries (Redis)');
        await this.drains.enqueue(retries.map((at) => ({ endpointId, companyId, target: 'endpoint' as const, next: at })));
        if (outOfTime) return handOn();
      }
      if (!next.batch.length) return result;
      result.outcome = 'drained';
      result.batches += 1;
      watch.enter(`sending ${next.batch.length} deliveries (HTTP)`);
      sent = await this.send(next.batch, next.lockedUntil);
    }
  }

  /**
   * One round trip: records the batch just sent (if any), then claims up to `cap` of the
   * endpoint's oldest due deliveries (none when `cap` is 0, or while any of the endpoint's is in
   * flight), for as many rounds of the HTTP timeout as it takes to send them `WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT`
   * at a time; abandons claimed ones whose event was pruned.
   */
  private async step(
    endpointId: string,
    companyId: string | null,
    sent: SentBatch | null,
    cap: number,
  ): Promise<{ batch: ClaimedDelivery[]; lockedUntil: number }> {
    const now = Date.now();
    // each round of attempts ends within the timeout; past this margin the claim is taken as lost (the worker died)
    const rounds = Math.ceil(Math.max(cap, 1) / this.config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT);
    const lockedUntil = now + rounds * this.config.WEBHOOK_TIMEOUT_MS + CLAIM_MARGIN_MS;
    const rows = await this.deliveries.recordAndClaim({
      endpointId,
      companyId,
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
   * POSTs a claimed batch in order, `WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT` at a time (each slot takes
   * the next delivery as its request ends), each signed as it goes ({@link WebhookSigner}), and decides
   * what each answer means ({@link attemptOutcome}). Stops taking more once the process is stopping or
   * an answer disables the endpoint: those are `unsent`.
   */
  private async send(batch: ClaimedDelivery[], lockedUntil: number): Promise<SentBatch> {
    const decided: DecidedAttempt[] = [];
    let disabled = false;
    const taken = await sendInSlots(
      batch,
      this.config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT,
      () => !disabled && !this.http.stopping,
      async (d) => {
        const request = await this.signer.sign(d, Date.now());
        const startedAt = Date.now();
        const result = await this.http.client.post(d.url, request.headers, request.body, request.contentType);
        const decision = attemptOutcome(result, d.failures, d.failingSince, Date.now(), this.rules);
        decided.push({ d, startedAt, result, decision });
        if (decision.disable) disabled = true;
      },
    );
    return { now: Date.now(), lockedUntil, decided, unsent: batch.slice(taken) };
  }
}
