import { Cluster } from 'ioredis';
import { readyMaster } from './redis-probe.service';

/** A stand-in for a Cluster client: its status and master nodes, changed by the test as time passes. */
function fakeCluster(state: { status: string; masters: Array<{ status: string }> }): Cluster {
  return {
    get status() {
      return state.status;
    },
    nodes: () => state.masters,
  } as unknown as Cluster;
}

describe('readyMaster (the Redis Cluster readiness probe)', () => {
  it('answers a ready master at once', async () => {
    const master = { status: 'ready' };
    expect(await readyMaster(fakeCluster({ status: 'ready', masters: [{ status: 'wait' }, master] }), 1_000)).toBe(master);
  });

  it('waits for a master while the client is still connecting (its ready check pending), within the timeout', async () => {
    const state = { status: 'connect', masters: [{ status: 'connect' }] };
    setTimeout(() => {
      state.status = 'ready';
      state.masters[0].status = 'ready';
    }, 100);
    const started = Date.now();
    expect(await readyMaster(fakeCluster(state), 1_000)).toBe(state.masters[0]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
  });

  it('gives up at the timeout when the client stays connecting', async () => {
    const started = Date.now();
    expect(await readyMaster(fakeCluster({ status: 'connecting', masters: [] }), 200)).toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('does not wait while the client is down (reconnecting): the probe answers at once during an outage', async () => {
    const started = Date.now();
    expect(await readyMaster(fakeCluster({ status: 'reconnecting', masters: [] }), 1_000)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(50);
  });
});
