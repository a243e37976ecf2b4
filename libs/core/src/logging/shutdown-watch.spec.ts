import { describeActiveResources, watchShutdown } from './shutdown-watch';

describe('describeActiveResources', () => {
  it('counts each kind, the most frequent first, ties by name', () => {
    expect(describeActiveResources(['Timeout', 'TCPSocketWrap', 'TCPSocketWrap', 'FSReqCallback', 'Timeout', 'TCPSocketWrap'])).toBe(
      'TCPSocketWrap ×3, Timeout ×2, FSReqCallback',
    );
  });

  it('says nothing is open for an empty list', () => {
    expect(describeActiveResources([])).toBe('nothing');
  });
});

describe('watchShutdown', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('warns every interval with the time since the call and what is open, until stopped', () => {
    const lines: string[] = [];
    const stop = watchShutdown({ warn: (m) => lines.push(m) }, 5_000, () => ['TCPSocketWrap', 'Timeout', 'TCPSocketWrap']);
    jest.advanceTimersByTime(4_999);
    expect(lines).toEqual([]);
    jest.advanceTimersByTime(1);
    jest.advanceTimersByTime(5_000);
    expect(lines).toEqual([
      'shutdown: still stopping after 5 s; open: TCPSocketWrap ×2, Timeout',
      'shutdown: still stopping after 10 s; open: TCPSocketWrap ×2, Timeout',
    ]);
    stop();
    jest.advanceTimersByTime(20_000);
    expect(lines).toHaveLength(2);
  });

  it('does not keep the process alive (its timer is unref\'d)', () => {
    jest.useRealTimers();
    const setIntervalSpy = jest.spyOn(global, 'setInterval');
    const stop = watchShutdown({ warn: () => undefined });
    try {
      const timer = setIntervalSpy.mock.results[0].value as NodeJS.Timeout;
      expect(timer.hasRef()).toBe(false);
    } finally {
      stop();
      setIntervalSpy.mockRestore();
    }
  });
});
