import { AppConfig, groupBy, OutboxStamping } from '@app/core';
import { Injectable, Logger } from '@nestjs/common';
import { attemptOutcome, AttemptRules } from '../attempt-outcome';
import { OutboxEventsRead } from '../core-outbox-events.read';
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
} from '../drain-rules';
import { ClaimedDelivery, HookAttemptRecord, WebhookDeliveriesRepository } from '../webhook-deliveries.repository';
import { WebhookDrainProducer } from '../webhook-drain-producer.service';
import { WebhookHttp } from '../webhook-http.service';
import { WebhookSigner } from '../webhook-signer.service';
import { GroupRecorder } from './group-recorder';
import { WebhookSubscriptionsRepository } from './webhook-subscriptions.repository';

/** ms a round of REST hook POSTs is awaited; answers still out then come in on their own, holding no task slot. */
export const STRAGGLER_WAIT_MS = 1_000;

/** ms an answer waits for the rest of its round before it is recorded without them ({@link GroupRecorder}). */
const RECORD_GATHER_MS = 25;

/**
 * Delivers the due deliveries of every REST hook subscription of a company (CONTRACTS.md "Wave 3:
 * connector for automation platforms"; docs/webhooks-internals.md "REST hooks"), in rounds: one claim
 * gives each subscription with nothing in flight up to `WEBHOOK_CLAIM_ROUNDS` ×
 * `WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT` of its oldest due deliveries (`fieldwork_webhook_hooks_claim`:
 * an event with 50 subscriptions costs one claim, not 50 drains; one holder per subscription across
 * workers), each subscription's are POSTed in order `cap` at a time (each slot taking the next as its
 * request ends; one JSON body per event), and the answers are recorded in groups
 * ({@link GroupRecorder}: an answer waits at most {@link RECORD_GATHER_MS} for the others): a slow
 * subscriber never holds the others' records, so never their deliveries. A round is awaited up to
 * {@link STRAGGLER_WAIT_MS}; answers still out then are left to come in (tracked for shutdown by
 * {@link WebhookHttp}), each followed by a drain of the company, so a slow subscriber holds no task
 * slot. Deliveries claimed but not sent — the process began stopping, or an answer removed the
 * subscription — go back to `pending` as they were. Rounds go on until nothing is due, or the budget
 * is spent or the process stops (`more`), as the endpoints' {@link WebhookDrain}. A 410, or failure
 * for too long, deletes that subscription only.
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
    const result: DrainOutcome = { outcome: 'idle', batches: 0, attempts: {}, more: false };
    for (;;) {
      if (this.http.stopping || Date.now() - started >= DRAIN_BUDGET_MS) {
        return { ...result, more: true, moreAfterMs: this.http.stopping ? STOPPING_HANDOFF_MS : 0 };
      }
      const now = Date.now();
      // a subscription's claim is sent `cap` at a time: its rounds each end within the timeout; past
      // them and this margin the claim is taken as lost (the worker died)
      const rounds = this.config.WEBHOOK_CLAIM_ROUNDS;
      const lockedUntil = now + rounds * this.config.WEBHOOK_TIMEOUT_MS + CLAIM_MARGIN_MS;
      const claimSize = rounds * this.config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT;
      const rows = await this.deliveries.claimHooks(companyId, now, claimSize, lockedUntil);
      const pruned = rows.filter((r) => r.payload === null).map((r) => r.id);
      if (pruned.length) await this.deliveries.abandonPruned(pruned, now);
      const batch = rows.filter((r) => r.payload !== null);
      if (!batch.length) return result;
      await this.stampFirst(companyId, batch);
      result.outcome = 'drained';
      result.batches += 1;
      const decided = await this.round(companyId, batch, lockedUntil);
      countAttempts(result, decided);
      await this.follow(companyId, decided);
    }
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

  /**
   * POSTs a claimed round: each subscription's deliveries in order, `WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT`
   * at a time, the subscriptions side by side; each answer recorded (in a group) as it comes in. Waits
   * for the round up to {@link STRAGGLER_WAIT_MS}; an answer coming later is followed on its own.
   * @returns the attempts recorded within the wait
   * @throws when a record call failed within the wait (the claims are released by the reconciler)
   */
  private async round(companyId: string, batch: ClaimedDelivery[], lockedUntil: number): Promise<DecidedAttempt[]> {
    const recorder = new GroupRecorder<HookAttemptRecord>(
      (records) => this.deliveries.recordHooks(companyId, Date.now(), records, lockedUntil),
      batch.length,
      RECORD_GATHER_MS,
    );
    const bodies = new Map<string, string>(); // one JSON body per event, however many subscriptions get it
    const decided: DecidedAttempt[] = [];
    let waiting = true;
    const answered = (x: DecidedAttempt): Promise<void> =>
      this.http.track(async () => {
        await recorder.add({ ...attemptRecord(x), target: x.d.targetId });
        if (waiting) decided.push(x);
        else await this.follow(companyId, [x], true);
      });
    const all = Promise.all(
      [...bySubscription(batch).values()].map((queue) => this.http.track(() => this.sendQueue(queue, lockedUntil, bodies, answered))),
    );
    all.catch((err: Error) => !waiting && this.logger.warn(`late REST hook answers of company ${companyId}: ${err.message}`));
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([all, new Promise((resolve) => (timer = setTimeout(resolve, STRAGGLER_WAIT_MS)))]);
    } finally {
      clearTimeout(timer);
      waiting = false;
    }
    return decided;
  }

  /**
   * Sends one subscription's claimed deliveries in order, `WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT` at a
   * time ({@link sendInSlots}), handing each decided attempt to `answered` without waiting for its
   * record. Stops taking more once the process is stopping or an answer removes the subscription;
   * what it did not send goes back to `pending` (only claims still `lockedUntil`: the removal's
   * abandonment, if first, keeps them abandoned).
   * @resolves once every answer it sent is recorded and followed
   */
  private async sendQueue(
    queue: ClaimedDelivery[],
    lockedUntil: number,
    bodies: Map<string, string>,
    answered: (x: DecidedAttempt) => Promise<void>,
  ): Promise<void> {
    const recorded: Array<Promise<void>> = [];
    let gone = false;
    const taken = await sendInSlots(
      queue,
      this.config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT,
      () => !gone && !this.http.stopping,
      async (d) => {
        const x = await this.attempt(d, bodies);
        if (x.decision.disable) gone = true;
        const done = answered(x);
        done.catch(() => undefined); // awaited below; handled now so a failed record is not an unhandled rejection meanwhile
        recorded.push(done);
      },
    );
    const unsent = queue.slice(taken);
    if (unsent.length)
      await this.deliveries.releaseUnattempted(
        unsent[0].companyId,
        unsent.map((d) => d.id),
        lockedUntil,
      );
    await Promise.all(recorded);
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

/** A claim's deliveries by subscription, each list in the claim's order (oldest due first). */
function bySubscription(batch: readonly ClaimedDelivery[]): Map<string, ClaimedDelivery[]> {
  return groupBy(batch, (d) => d.targetId);
}
