/**
 * What one HTTP attempt means for its delivery (CONTRACTS.md, "Delivery"): a pure function, so the
 * rules are tested apart from SQL and HTTP.
 */
import { retryAfterMs, retryDelayMs } from './retry';
import { SendResult } from './webhook-sender.client';

/** The attempt's outcome as logged in `webhook_attempts.outcome`. */
export type AttemptOutcomeName = 'delivered' | 'retry' | 'rescheduled' | 'abandoned' | 'disabled';

/** The new state of a delivery after one attempt, and whether its endpoint must be disabled. */
export interface AttemptOutcome {
  outcome: AttemptOutcomeName;
  state: 'pending' | 'delivered' | 'abandoned';
  /** ms; set when the delivery stays pending */
  nextAttemptAt?: number;
  /** failed attempts counted against the retry schedule (a 429 is not counted) */
  failures: number;
  /** the reason to disable the endpoint with, when this attempt disables it */
  disable?: string;
}

/** The rules' settings: the retry schedule (ms) and how long continuous failure may last (ms). */
export interface AttemptRules {
  scheduleMs: number[];
  disableAfterMs: number;
}

/**
 * Decides what an attempt's result means:
 * - 2xx → delivered;
 * - 410 → the endpoint is disabled (`410 Gone`), the delivery abandoned;
 * - any other failure while the endpoint has failed continuously since `failingSince` (ms; null:
 *   this is the first failure) for `disableAfterMs` or more → disabled (`failing continuously`);
 * - 429 → pending again after `Retry-After` (clamped 1 s…24 h), else after the schedule's step for
 *   the failures so far (at least the first), not counted as a failure;
 * - else → pending after the schedule's next step (±20 % jitter from `random`), or abandoned when the
 *   schedule is exhausted.
 * @param failures failed attempts before this one
 * @param now ms
 */
export function attemptOutcome(
  result: Pick<SendResult, 'status' | 'retryAfter'>,
  failures: number,
  failingSince: number | null,
  now: number,
  rules: AttemptRules,
  random: number = Math.random(),
): AttemptOutcome {
  const status = result.status;
  if (status !== null && status >= 200 && status < 300) return { outcome: 'delivered', state: 'delivered', failures };
  if (status === 410) return { outcome: 'disabled', state: 'abandoned', failures: failures + 1, disable: '410 Gone' };
  if (now - (failingSince ?? now) >= rules.disableAfterMs)
    return { outcome: 'disabled', state: 'abandoned', failures: failures + 1, disable: 'failing continuously' };
  if (status === 429) {
    const delay = retryAfterMs(result.retryAfter, now) ?? retryDelayMs(Math.max(1, failures), rules.scheduleMs, random) ?? 60_000;
    return { outcome: 'rescheduled', state: 'pending', nextAttemptAt: now + delay, failures };
  }
  const delay = retryDelayMs(failures + 1, rules.scheduleMs, random);
  if (delay === null) return { outcome: 'abandoned', state: 'abandoned', failures: failures + 1 };
  return { outcome: 'retry', state: 'pending', nextAttemptAt: now + delay, failures: failures + 1 };
}
