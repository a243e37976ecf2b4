import { AppConfig, OutboxStamping } from '@app/core';
import { Injectable, Logger } from '@nestjs/common';
import { attemptOutcome, AttemptRules } from '../attempt-outcome';
import { OutboxEventsRead } from '../core-outbox-events.read';
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
} from '../drain-rules';
import { runWindow } from '../drain-window';
import { ClaimedDelivery, WebhookDeliveriesRepository } from '../webhook-deliveries.repository';
import { WebhookDrainProducer } from '../webhook-drain-producer.service';
import { WebhookHttp } from '../webhook-http.service';
import { WebhookSigner } from '../webhook-signer.service';
import { WebhookSubscriptionsRepository } from './webhook-subscriptions.repository';

/** ms without any answer after which a drain task returns; answers still out then come in on their own, holding no task slot. */
export const STRAGGLER_WAIT_MS = 1_000;

/**
 * Delivers the due deliveries of every REST hook subscription of a company (CONTRACTS.md "Wave 3:
 * connector for automation platforms"; docs/webhooks-internals.md "REST hooks"), through a sliding
 * window ({@link runWindow}): one claim gives each subscription up to its free in-flight slots
 * (`fieldwork_webhook_hooks_claim`: an event with 50 subscriptions costs one claim, not 50 drains),
 * the POSTs go out at once (one JSON body per event), and each answer is recorded as soon as no
 * record call is running (`fieldwork_webhook_hooks_record`; with the answers that came meanwhile or
 * within `RECORD_GATHER_MS`), followed by a claim into the slots it freed: a slow subscriber holds its own slots only,
 * never the others'. Once no answer has come for {@link STRAGGLER_WAIT_MS}, the task returns; the
 * answers still out are left to come in (tracked for shutdown by {@link WebhookHttp}), each group
 * followed by a drain of the company, so a slow subscriber holds no task slot. Claiming goes on
 * until nothing is due, or the budget is spent or the process stops (`more`), as the endpoints'
 * {@link WebhookDrain}; every claim of a task has the task's lease ({@link claimLease}). A 410, or
 * failure for too long, deletes that subscription only.
 */
@Injectable()
export class WebhookHooksDrain {
  private readonly logger = new Logger('WebhookDelivery');
  private readonly rules: AttemptRules;

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly subscriptions: WebhookSubscriptionsRepository,
    private readonly signer: WebhookSigner,
    private readonly drains: WebhookDrainProducer,
    private readonly http: WebhookHttp,
    private readonly config: AppConfig,
    private readonly stamping: OutboxStamping,
    private readonly outboxEvents: OutboxEventsRead,
  ) {
    this.rules = attemptRules(config);
  }

  /** Delivers the company's subscriptions' due deliveries; safe to call for any company at any time. */
  async drainHooks(companyId: string): Promise<DrainOutcome> {
    return this.http.track(() => this.loop(companyId));
  }

  private async loop(companyId: string): Promise<DrainOutcome> {
    const started = Date.now();
    const lockedUntil = claimLease(started, this.config);
    const result: DrainOutcome = { outcome: 'idle', batches: 0, attempts: {}, more: false };
    const bodies = new Map<string, string>(); // one JSON body per event, however many subscriptions get it
    const window = await runWindow<ClaimedDelivery, DecidedAttempt>(
      {
        claimsOver: () => this.http.stopping || Date.now() - started >= DRAIN_BUDGET_MS,
        halts: () => false, // a gone subscription is deleted alone (follow); the others go on
        send: (d) => this.http.track(() => this.attempt(d, bodies)),
        step: async (answered, claim, late) => {
          const now = Date.now();
          const records = answered.map((x) => ({ ...attemptRecord(x), target: x.d.targetId }));
          const cap = this.config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT;
          const gone = answered.some((x) => x.decision.disable);
          let rows: ClaimedDelivery[] = [];
          // record and claim in one round trip, unless a subscription is to be deleted first (its slots not claimed again)
          if (answered.length && claim && !gone)
            rows = await this.deliveries.recordAndClaimHooks({ companyId, now, records, recordedLock: lockedUntil, cap, lockedUntil });
          else if (answered.length) await this.deliveries.recordHooks(companyId, now, records, lockedUntil);
          if (answered.length) {
            if (!late) countAttempts(result, answered);
            await this.follow(companyId, answered, late);
          }
          if (!claim) return [];
          if (!answered.length || gone) rows = await this.deliveries.claimHooks(companyId, Date.now(), cap, lockedUntil);
          const pruned = rows.filter((r) => r.payload === null).map((r) => r.id);
          if (pruned.length) await this.deliveries.abandonPruned(pruned, now);
          const batch = rows.filter((r) => r.payload !== null);
          if (!batch.length) return batch;
          await this.stampFirst(companyId, batch);
          result.outcome = 'drained';
          result.batches += 1;
          return batch;
        },
      },
      { stragglerWaitMs: STRAGGLER_WAIT_MS, gatherMs: RECORD_GATHER_MS },
    );
    if (window.late) {
      // the answers still out are recorded as they come, each group followed by a drain of the company
      void this.http.track(() =>
        window.tail.catch((err: Error) => this.logger.warn(`late REST hook answers of company ${companyId}: ${err.message}`)),
      );
    }
    if (window.end === 'spent') return { ...result, more: true, moreAfterMs: this.http.stopping ? STOPPING_HANDOFF_MS : 0 };
    return result;
  }

  /**
   * Gives every claimed event its commit-ordered stamp before its body is built: a body's item
   * carries it as `createdAt`, as the polling routes list the item (docs/connector.md, "REST hooks").
   * The delivery is woken by the same commit as the api's stamper, so an event is often claimed
   * before an api instance stamped it: then this stamps the company itself (core's stamping, the
   * same lock and order) and reads the stamps back.
   */
  private async stampFirst(companyId: string, batch: ClaimedDelivery[]): Promise<void> {
    const unstamped = [...new Set(batch.filter((d) => d.eventStampedAt === null).map((d) => d.eventId))];
    if (!unstamped.length) return;
    await this.stamping.kick(companyId);
    const stamps = await this.outboxEvents.eventStamps(companyId, unstamped);
    for (const d of batch) if (d.eventStampedAt === null) d.eventStampedAt = stamps.get(d.eventId) ?? null;
  }

  /** Signs and POSTs one delivery ({@link WebhookSigner}) and decides what its answer means ({@link attemptOutcome}). */
  private async attempt(d: ClaimedDelivery, bodies: Map<string, string>): Promise<DecidedAttempt> {
    const request = this.signer.signHook(d, Date.now(), bodies);
    const startedAt = Date.now();
    const result = await this.http.client.post(d.url, request.headers, request.body, request.contentType);
    return { d, startedAt, result, decision: attemptOutcome(result, d.failures, d.failingSince, Date.now(), this.rules) };
  }

  /**
   * Acts on recorded attempts: a subscription answering 410 (or failing for too long) is deleted,
   * its open deliveries abandoned (the automation tool subscribes again); retries are enqueued for
   * their time; after a late answer, a drain of the company now (its slot is free for what waits).
   */
  private async follow(companyId: string, decided: DecidedAttempt[], late = false): Promise<void> {
    const gone = new Map(decided.filter((x) => x.decision.disable).map((x) => [x.d.targetId, x.decision.disable!] as const));
    for (const [targetId, reason] of gone) {
      const abandoned = await this.subscriptions.deleteGone(companyId, targetId, `subscription removed: ${reason}`, Date.now());
      if (abandoned !== null)
        this.logger.warn(`hook ${targetId} of company ${companyId} deleted (${reason}); ${abandoned} deliveries abandoned`);
    }
    const times = new Set(decided.map((x) => x.decision.nextAttemptAt).filter((t): t is number => t !== undefined));
    if (late) times.add(Date.now());
    await this.drains.enqueue([...times].map((next) => ({ endpointId: companyId, companyId, target: 'subscription' as const, next })));
  }
}
