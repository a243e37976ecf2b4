import { hasReplayed, isReplicaReadFailure, lsnBytes, ReplicaRouter, routedRead } from './read-routing';

describe('lsnBytes / hasReplayed', () => {
  it('reads pg_lsn text as bytes: high and low 32 bits in hex', () => {
    expect(lsnBytes('0/0')).toBe(0n);
    expect(lsnBytes('0/3000060')).toBe(0x3000060n);
    expect(lsnBytes('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
  });

  it('refuses text that is not an LSN, naming it', () => {
    expect(() => lsnBytes('3000060')).toThrow('not a WAL position (pg_lsn): "3000060"');
  });

  it('compares numerically, not as text (1/0 is past 0/FFFFFFFF)', () => {
    expect(hasReplayed('1/0', '0/FFFFFFFF')).toBe(true);
    expect(hasReplayed('0/A', '0/9')).toBe(true);
    expect(hasReplayed('0/9', '0/A')).toBe(false);
    expect(hasReplayed('0/3000060', '0/3000060')).toBe(true);
  });
});

describe('isReplicaReadFailure', () => {
  it.each([
    [{ code: 'ECONNREFUSED' }, true],
    [{ code: '57P01' }, true],
    [{ code: '57P02' }, true],
    [{ driverError: { code: '40001' } }, true],
    [new Error('Connection terminated unexpectedly'), true],
    [{ code: '42P01' }, false],
    [new Error('boom'), false],
  ])('%p → %p', (err, expected) => expect(isReplicaReadFailure(err)).toBe(expected));
});

describe('ReplicaRouter', () => {
  let now = 0;
  const clock = { now: () => now };
  beforeEach(() => (now = 1000));

  it('no position → the primary, without probing', async () => {
    const probe = jest.fn(async () => '0/100');
    const router = new ReplicaRouter(probe, clock);
    expect(await router.choose(null)).toBe('primary');
    expect(probe).not.toHaveBeenCalled();
  });

  it('replayed at or past the position → the replica; behind → the primary', async () => {
    let replay = '0/100';
    const router = new ReplicaRouter(async () => replay, clock);
    expect(await router.choose('0/100')).toBe('replica');
    expect(await router.choose('0/101')).toBe('primary');
    replay = '0/200';
    now += 50; // within cacheMs: behind is not asked again
    expect(await router.choose('0/101')).toBe('primary');
    now += 60; // past cacheMs: asked again
    expect(await router.choose('0/101')).toBe('replica');
  });

  it('a cached position already past the needed one answers without a probe', async () => {
    const probe = jest.fn(async () => '0/500');
    const router = new ReplicaRouter(probe, clock);
    await router.choose('0/100');
    now += 10_000;
    expect(await router.choose('0/400')).toBe('replica');
    expect(probe).toHaveBeenCalledTimes(1);
  });

  it('concurrent reads share one probe', async () => {
    let resolve!: (v: string) => void;
    const probe = jest.fn(() => new Promise<string>((r) => (resolve = r)));
    const router = new ReplicaRouter(probe, clock);
    const picks = [router.choose('0/1'), router.choose('0/1'), router.choose('0/1')];
    resolve('0/2');
    expect(await Promise.all(picks)).toEqual(['replica', 'replica', 'replica']);
    expect(probe).toHaveBeenCalledTimes(1);
  });

  it('a failing probe marks it down for downMs: the primary meanwhile, probed again after', async () => {
    let fail = true;
    const probe = jest.fn(async () => {
      if (fail) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5433'), { code: 'ECONNREFUSED' });
      return '0/9';
    });
    const router = new ReplicaRouter(probe, { ...clock, downMs: 5000 });
    expect(await router.choose('0/1')).toBe('primary');
    expect(router.state()).toMatchObject({ state: 'down', downForMs: 5000, reason: 'connect ECONNREFUSED 127.0.0.1:5433' });
    fail = false;
    now += 4999;
    expect(await router.choose('0/1')).toBe('primary');
    expect(probe).toHaveBeenCalledTimes(1);
    now += 1;
    expect(await router.choose('0/1')).toBe('replica');
    expect(router.state()).toEqual({ state: 'up', replayLsn: '0/9', downForMs: 0 });
  });

  it('a server not in recovery (null) counts as down', async () => {
    const router = new ReplicaRouter(async () => null, clock);
    expect(await router.choose('0/1')).toBe('primary');
    expect(router.state()).toMatchObject({ state: 'down', reason: 'not in recovery (not a standby)' });
  });

  it('a probe with no answer within probeTimeoutMs counts as down', async () => {
    const router = new ReplicaRouter(() => new Promise<string>(() => undefined), { probeTimeoutMs: 20 });
    expect(await router.choose('0/1')).toBe('primary');
    expect(router.state()).toMatchObject({ state: 'down', reason: 'no answer within 20 ms' });
  });
});

describe('routedRead', () => {
  const now = { now: () => 0 };

  it('without a router: the primary', async () => {
    expect(await routedRead(undefined, '0/1', async (s) => s)).toEqual({ value: 'primary', server: 'primary' });
  });

  it('a replica read that fails for the connection runs again on the primary and marks the replica down', async () => {
    const router = new ReplicaRouter(async () => '0/9', now);
    const read = jest.fn(async (s: string) => {
      if (s === 'replica') throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
      return 'rows';
    });
    expect(await routedRead(router, '0/1', read)).toEqual({ value: 'rows', server: 'primary' });
    expect(read.mock.calls.map((c) => c[0])).toEqual(['replica', 'primary']);
    expect(router.state().state).toBe('down');
  });

  it('a recovery conflict runs again on the primary without marking the replica down', async () => {
    const router = new ReplicaRouter(async () => '0/9', now);
    const read = async (s: string) => {
      if (s === 'replica') throw Object.assign(new Error('canceling statement due to conflict with recovery'), { code: '40001' });
      return 'rows';
    };
    expect(await routedRead(router, '0/1', read)).toEqual({ value: 'rows', server: 'primary' });
    expect(router.state().state).toBe('up');
  });

  it("another error is the read's own: thrown as it is", async () => {
    const router = new ReplicaRouter(async () => '0/9', now);
    await expect(routedRead(router, '0/1', async () => Promise.reject(new Error('syntax error')))).rejects.toThrow('syntax error');
  });
});
