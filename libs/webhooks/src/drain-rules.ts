import { AppConfig, newId } from '@app/core';
import { AttemptOutcome, AttemptOutcomeName, AttemptRules } from './attempt-outcome';
import { parseSchedule } from './retry';
import { AttemptRecord, ClaimedDelivery } from './webhook-deliveries.repository';
import { SendResult } from './webhook-sender.client';

/**
 * What the two drains share (a nine-key endpoint's, {@link WebhookDrain}; a company's REST hook
 * subscriptions', {@link WebhookHooksDrain}): their timings, the outcome a task reports, the record
 * of one attempt, and how a claim larger than the cap is sent.
 */

/** ms a claim outlives the HTTP timeout before the reconciler takes it as lost. */
export const CLAIM_MARGIN_MS = 5_000;

/** ms one drain task keeps claiming before it hands its target to a fresh task (fairness). */
export const DRAIN_BUDGET_MS = 2_000;

/** ms before a drain handed on by a stopping process may start (elsewhere, or here if it is still up). */
export const STOPPING_HANDOFF_MS = 1_000;

/** What one drain task did: batches claimed, and its attempts by outcome. */
export interface DrainOutcome {
  outcome: 'drained' | 'idle';
  batches: number;
  attempts: Partial<Record<AttemptOutcomeName, number>>;
  /** true when the task stopped at its time budget (or for shutdown) with work possibly left: the caller enqueues another */
  more: boolean;
  /** ms the caller waits before that next task (1 s while this process stops, so it does not take the task back at once) */
  moreAfterMs?: number;
}

/** A delivery after its HTTP attempt: its result and what it means. */
export interface DecidedAttempt {
  d: ClaimedDelivery;
  /** ms */
  startedAt: number;
  result: SendResult;
  decision: AttemptOutcome;
}

/** The attempt rules from the environment: the retry schedule and how long failure may last. */
export function attemptRules(config: AppConfig): AttemptRules {
  return { scheduleMs: parseSchedule(config.WEBHOOK_RETRY_SCHEDULE), disableAfterMs: config.WEBHOOK_DISABLE_AFTER_MS };
}

/** One element of a record call's `p_record`: the delivery's new state and its attempt row. */
export function attemptRecord({ d, startedAt, result, decision }: DecidedAttempt): AttemptRecord {
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

/** Counts `decided` into a task's outcome. */
export function countAttempts(outcome: DrainOutcome, decided: readonly DecidedAttempt[]): void {
  for (const x of decided) outcome.attempts[x.decision.outcome] = (outcome.attempts[x.decision.outcome] ?? 0) + 1;
}

/**
 * Sends a claim's deliveries in order, `slots` at a time (a target's in-flight cap): each slot takes
 * the next delivery as its previous request ends, until none is left or `more()` — asked before each
 * take — says stop (the process is stopping, an answer disabled the target).
 * @returns how many were taken: `claim.slice(taken)` were never sent (the caller puts them back)
 */
export async function sendInSlots(
  claim: readonly ClaimedDelivery[],
  slots: number,
  more: () => boolean,
  send: (d: ClaimedDelivery) => Promise<void>,
): Promise<number> {
  let taken = 0;
  const slot = async (): Promise<void> => {
    while (taken < claim.length && more()) await send(claim[taken++]);
  };
  await Promise.all(Array.from({ length: Math.min(slots, claim.length) }, slot));
  return taken;
}
