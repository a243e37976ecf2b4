import { attemptOutcome, AttemptRules } from './attempt-outcome';
import { parseSchedule } from './retry';

const rules: AttemptRules = { scheduleMs: parseSchedule('5,300,1800'), disableAfterMs: 5 * 24 * 3600 * 1000 };
const NOW = 1_800_000_000_000;

describe('attemptOutcome', () => {
  it('delivers on any 2xx, keeping the failure count', () => {
    for (const status of [200, 201, 204, 299]) {
      expect(attemptOutcome({ status }, 2, NOW - 1000, NOW, rules)).toEqual({ outcome: 'delivered', state: 'delivered', failures: 2 });
    }
  });

  it('disables the endpoint on 410 whatever the history', () => {
    expect(attemptOutcome({ status: 410 }, 0, null, NOW, rules)).toEqual({
      outcome: 'disabled',
      state: 'abandoned',
      failures: 1,
      disable: '410 Gone',
    });
  });

  it('retries other failures on the schedule (with jitter), counting them', () => {
    expect(attemptOutcome({ status: 500 }, 0, null, NOW, rules, 0.5)).toEqual({
      outcome: 'retry',
      state: 'pending',
      nextAttemptAt: NOW + 5000,
      failures: 1,
    });
    expect(attemptOutcome({ status: null }, 1, NOW - 5000, NOW, rules, 0)).toEqual({
      outcome: 'retry',
      state: 'pending',
      nextAttemptAt: NOW + 240_000,
      failures: 2,
    });
    expect(attemptOutcome({ status: 302 }, 2, NOW - 5000, NOW, rules, 1).nextAttemptAt).toBe(NOW + 2_160_000);
  });

  it('abandons when the schedule is exhausted', () => {
    expect(attemptOutcome({ status: 503 }, 3, NOW - 60_000, NOW, rules)).toEqual({ outcome: 'abandoned', state: 'abandoned', failures: 4 });
  });

  it('reschedules a 429 after Retry-After without counting it, else after the current schedule step', () => {
    expect(attemptOutcome({ status: 429, retryAfter: '7' }, 1, NOW - 1000, NOW, rules)).toEqual({
      outcome: 'rescheduled',
      state: 'pending',
      nextAttemptAt: NOW + 7000,
      failures: 1,
    });
    expect(attemptOutcome({ status: 429 }, 0, null, NOW, rules, 0.5).nextAttemptAt).toBe(NOW + 5000);
    expect(attemptOutcome({ status: 429 }, 2, null, NOW, rules, 0.5).nextAttemptAt).toBe(NOW + 300_000);
    // past the schedule: a minute
    expect(attemptOutcome({ status: 429 }, 9, null, NOW, rules, 0.5).nextAttemptAt).toBe(NOW + 60_000);
  });

  it('disables after continuous failure for the configured time, not a moment before', () => {
    const since = NOW - rules.disableAfterMs;
    expect(attemptOutcome({ status: 500 }, 1, since, NOW, rules)).toMatchObject({ outcome: 'disabled', disable: 'failing continuously' });
    expect(attemptOutcome({ status: 429 }, 1, since, NOW, rules)).toMatchObject({ outcome: 'disabled' });
    expect(attemptOutcome({ status: 500 }, 1, since + 1, NOW, rules, 0.5)).toMatchObject({ outcome: 'retry' });
    // a success clears it whatever the history
    expect(attemptOutcome({ status: 200 }, 1, since, NOW, rules)).toMatchObject({ outcome: 'delivered' });
  });

  it('disables at the first failure when the allowance is 0', () => {
    expect(attemptOutcome({ status: 500 }, 0, null, NOW, { ...rules, disableAfterMs: 0 })).toMatchObject({ outcome: 'disabled' });
  });
});
