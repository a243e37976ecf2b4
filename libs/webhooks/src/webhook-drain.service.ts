import { AppConfig } from '@app/core';
import { Injectable, Logger } from '@nestjs/common';
import { attemptOutcome, AttemptRules } from './attempt-outcome';
import {
  attemptRecord,
  attemptRules,
  claimLease,
  countAttempts,
  DecidedAttempt,
  DRAIN_BUDGET_MS,
  DrainOutcome,
  RECORD_GATHER_MS,
  STOPPING_HANDOFF_MS,
} from './drain-rules';
import { runWindow } from './drain-window';
import { ClaimedDelivery, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDrainProducer } from './webhook-drain-producer.service';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookHttp } from './webhook-http.service';
import { WebhookSigner } from './webhook-signer.service';

export type { DrainOutcome } from './drain-rules';

/**
 * Delivers one endpoint's due deliveries (CONTRACTS.md "Delivery"; docs/decisions.md "Webhooks";
 * docs/webhooks-internals.md "Keeping the slots busy"). A drain claims the endpoint's oldest due
 * deliveries up to its free in-flight slots (`WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT`, across all
 * workers: the claim locks the endpoint row and counts its `in_flight` rows) and POSTs them at once;
 * each answer is recorded as soon as no record call is running (with the answers that came
 * meanwhile or within {@link RECORD_GATHER_MS}), and that same round trip
 * (`fieldwork_webhook_batch`) claims work into the slots it freed ({@link runWindow}: a sliding
 * window, so one slow answer holds its own slot only), until nothing is due. Every claim of one
 * task carries the same lease, `locked_until` = task start + {@link DRAIN_BUDGET_MS} + timeout +
 * margin ({@link claimLease}), and the records name it. Shutdown and the HTTP client:
 * {@link WebhookHttp}. (A company's REST hook subscriptions have a drain of their own: `WebhookHooksDrain`.)
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
   * Delivers an endpoint's due deliveries through a sliding window of its free slots, until nothing
   * is due (or the slots are held by another worker's drain, which carries on), an answer disabled
   * the endpoint (claiming stops; the answers out are recorded, then the endpoint is disabled), or
   * {@link DRAIN_BUDGET_MS} has passed or the process is stopping (claiming stops; the answers out
   * are recorded; `more`). Retries are enqueued for their time. Safe to call for any endpoint at any time.
   */
  async drain(endpointId: string, companyId: string | null): Promise<DrainOutcome> {
    return this.http.track(() => this.drainWindow(endpointId, companyId));
  }

  private async drainWindow(endpointId: string, known: string | null): Promise<DrainOutcome> {
    // the endpoint's company: given by the drain point, else learnt from the first claimed delivery
    let companyId = known;
    const started = Date.now();
    const lockedUntil = claimLease(started, this.config);
    const result: DrainOutcome = { outcome: 'idle', batches: 0, attempts: {}, more: false };
    let disable: string | undefined;
    let disabledAt = 0;
    const window = await runWindow<ClaimedDelivery, DecidedAttempt>(
      {
        claimsOver: () => this.http.stopping || Date.now() - started >= DRAIN_BUDGET_MS,
        halts: (x) => x.decision.disable !== undefined,
        send: (d) => this.attempt(d),
        step: async (answered, claim) => {
          const now = Date.now();
          const rows = await this.deliveries.recordAndClaim({
            endpointId,
            companyId,
            now,
            cap: claim ? this.config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT : 0,
            lockedUntil,
            record: answered.length ? answered.map(attemptRecord) : null,
            recordedLock: answered.length ? lockedUntil : null,
            anyDelivered: answered.some((x) => x.decision.outcome === 'delivered'),
          });
          companyId ??= rows[0]?.companyId ?? null;
          countAttempts(result, answered);
          const halting = answered.find((x) => x.decision.disable);
          if (halting && !disable) [disable, disabledAt] = [halting.decision.disable, now];
          const retries = [...new Set(answered.map((x) => x.decision.nextAttemptAt).filter((t): t is number => t !== undefined))];
          if (retries.length && !disable)
            await this.drains.enqueue(retries.map((at) => ({ endpointId, companyId, target: 'endpoint' as const, next: at })));
          const pruned = rows.filter((r) => r.payload === null).map((r) => r.id);
          if (pruned.length) await this.deliveries.abandonPruned(pruned, now);
          const batch = rows.filter((r) => r.payload !== null);
          if (batch.length) {
            result.outcome = 'drained';
            result.batches += 1;
          }
          return batch;
        },
      },
      { gatherMs: RECORD_GATHER_MS },
    );
    if (disable) {
      const abandoned = await this.endpoints.disable(endpointId, disable, disabledAt);
      this.logger.warn(`endpoint ${endpointId} disabled (${disable}); ${abandoned} deliveries abandoned`);
      return result;
    }
    if (window.end === 'spent') return { ...result, more: true, moreAfterMs: this.http.stopping ? STOPPING_HANDOFF_MS : 0 };
    return result;
  }

  /** Signs ({@link WebhookSigner}) and POSTs one claimed delivery, and decides what its answer means ({@link attemptOutcome}). */
  private async attempt(d: ClaimedDelivery): Promise<DecidedAttempt> {
    const request = await this.signer.sign(d, Date.now());
    const startedAt = Date.now();
    const result = await this.http.client.post(d.url, request.headers, request.body, request.contentType);
    return { d, startedAt, result, decision: attemptOutcome(result, d.failures, d.failingSince, Date.now(), this.rules) };
  }
}
