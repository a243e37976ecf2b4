import { RedisCutAtShutdown } from './redis-cut-at-shutdown';

/** A probe that answers `answers` in turn (the last one for ever after) and counts its calls. */
function probe(...answers: Array<boolean | Error>) {
  let calls = 0;
  const reachable = () => {
    const answer = answers[Math.min(calls++, answers.length - 1)];
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  };
  return { reachable, calls: () => calls };
}

// fake timers: the probes' spacing is the clock's, whatever the machine's load
const tick = (ms: number) => jest.advanceTimersByTimeAsync(ms);
const quiet = { warn: jest.fn() };

describe('RedisCutAtShutdown', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('cuts once, after the given number of failed probes in a row, and then stops probing', async () => {
    const p = probe(false);
    const cut = jest.fn();
    const logger = { warn: jest.fn() };
    new RedisCutAtShutdown(p.reachable, cut, logger, 5, 3).start();
    await tick(60);
    expect(cut).toHaveBeenCalledTimes(1);
    expect(p.calls()).toBe(3);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/^shutdown: Redis unreachable \(3 probes in a row\); cutting/));
    await tick(100);
    expect(p.calls()).toBe(3);
    expect(cut).toHaveBeenCalledTimes(1);
  });

  it('never cuts while Redis answers, and a success resets the count', async () => {
    const cut = jest.fn();
    // two failures, a success, two failures, then successes: never three in a row
    const p = probe(false, false, true, false, false, true);
    const watch = new RedisCutAtShutdown(p.reachable, cut, quiet, 5, 3);
    watch.start();
    await tick(80);
    watch.stop();
    expect(p.calls()).toBeGreaterThan(6);
    expect(cut).not.toHaveBeenCalled();
  });

  it('counts a probe that rejects as a failure', async () => {
    const cut = jest.fn();
    new RedisCutAtShutdown(probe(new Error('boom')).reachable, cut, quiet, 5, 2).start();
    await tick(40);
    expect(cut).toHaveBeenCalledTimes(1);
  });

  it('does not cut after stop(), even when a probe in flight then fails', async () => {
    let answer!: (ok: boolean) => void;
    const cut = jest.fn();
    const watch = new RedisCutAtShutdown(() => new Promise<boolean>((r) => (answer = r)), cut, quiet, 5, 1);
    watch.start();
    await tick(10);
    watch.stop();
    answer(false);
    await tick(20);
    expect(cut).not.toHaveBeenCalled();
  });

  it('start() is idempotent: one probe at a time', async () => {
    let inFlight = 0;
    let most = 0;
    const reachable = async () => {
      most = Math.max(most, ++inFlight);
      await tick(5);
      inFlight--;
      return true;
    };
    const watch = new RedisCutAtShutdown(reachable, jest.fn(), quiet, 1, 3);
    watch.start();
    watch.start();
    watch.start();
    await tick(50);
    watch.stop();
    expect(most).toBe(1);
  });

  it('logs a cut that throws, without rejecting anywhere', async () => {
    const logger = { warn: jest.fn() };
    new RedisCutAtShutdown(probe(false).reachable, () => Promise.reject(new Error('no')), logger, 5, 1).start();
    await tick(30);
    expect(logger.warn).toHaveBeenLastCalledWith('shutdown: cutting the queue connections failed: no');
  });
});
