import { closeWorkers, isClosedConnectionError } from './queue.module';

describe('isClosedConnectionError', () => {
  it('knows the closed connection on one server and as a Cluster wraps it', () => {
    expect(isClosedConnectionError(new Error('Connection is closed.'))).toBe(true);
    expect(isClosedConnectionError(new Error('Too many Cluster redirections. Last error: Error: Connection is closed.'))).toBe(true);
  });

  it('does not take other errors for it', () => {
    expect(isClosedConnectionError(new Error('Too many Cluster redirections. Last error: ReplyError: MOVED 3112 127.0.0.1:12244'))).toBe(
      false,
    );
    expect(isClosedConnectionError(new Error('NOSCRIPT No matching script. Please use EVAL.'))).toBe(false);
    expect(isClosedConnectionError(new Error('connect ECONNREFUSED 127.0.0.1:6379'))).toBe(false);
  });
});

describe('closeWorkers', () => {
  afterEach(() => jest.useRealTimers());

  /** A worker whose close resolves (or rejects) when the test says. */
  function worker(name: string) {
    let settle!: (ok: boolean) => void;
    const closed = new Promise<void>((resolve, reject) => (settle = (ok) => (ok ? resolve() : reject(new Error('boom')))));
    return { name, close: jest.fn(() => closed), settle };
  }

  it('names every 5 s the workers still closing, and only those, until all have closed', async () => {
    jest.useFakeTimers();
    const warn = jest.fn();
    const a = worker('dispatch');
    const b = worker('reports');
    const done = closeWorkers([a, b], { warn });
    await jest.advanceTimersByTimeAsync(4_999);
    expect(warn).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(warn).toHaveBeenLastCalledWith(expect.stringContaining('BullMQ workers of dispatch, reports'));
    // with what each waits on (workerCloseState: a stand-in has none of BullMQ's fields)
    expect(warn).toHaveBeenLastCalledWith(expect.stringContaining('dispatch [loop: ? pending; blocking: none; main: none]'));
    a.settle(true);
    await jest.advanceTimersByTimeAsync(5_000);
    expect(warn).toHaveBeenLastCalledWith(expect.stringContaining('BullMQ workers of reports (tasks'));
    b.settle(false); // a close that fails still ends the wait
    await done;
    warn.mockClear();
    await jest.advanceTimersByTimeAsync(20_000);
    expect(warn).not.toHaveBeenCalled();
    expect(a.close).toHaveBeenCalledTimes(1);
    expect(b.close).toHaveBeenCalledTimes(1);
  });
});
