import { PhaseWatch } from './phase-watch';

describe('PhaseWatch', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const logger = () => {
    const lines: string[] = [];
    return { lines, warn: (line: string) => lines.push(line) };
  };

  it('says nothing while the work stays within afterMs', () => {
    const log = logger();
    const watch = new PhaseWatch(log, 'drain of endpoint e1', 10_000, 5_000);
    watch.enter('sending 4 deliveries (HTTP)');
    jest.advanceTimersByTime(9_999);
    watch.end();
    jest.advanceTimersByTime(60_000);
    expect(log.lines).toEqual([]);
  });

  it('past afterMs names the phase the work is in and how long it has run, then again every everyMs until end()', () => {
    const log = logger();
    const watch = new PhaseWatch(log, 'drain of endpoint e1', 10_000, 5_000);
    watch.enter('recording and claiming (PostgreSQL)');
    jest.advanceTimersByTime(10_000);
    watch.enter('enqueueing the hand-on (Redis)');
    jest.advanceTimersByTime(10_000);
    watch.end();
    jest.advanceTimersByTime(30_000);
    expect(log.lines).toEqual([
      'drain of endpoint e1: still recording and claiming (PostgreSQL) after 10 s',
      'drain of endpoint e1: still enqueueing the hand-on (Redis) after 15 s',
      'drain of endpoint e1: still enqueueing the hand-on (Redis) after 20 s',
    ]);
  });

  it('never keeps the process alive: its timers are unref’d', () => {
    jest.useRealTimers();
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const watch = new PhaseWatch(logger(), 'x', 60_000);
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(before);
    watch.end();
  });
});
