import { MicroBatcher } from './micro-batcher';

/** A pass that records its batches and finishes when the test says so. */
function controlledPass() {
  const batches: number[][] = [];
  const finish: Array<(err?: Error) => void> = [];
  const pass = (items: number[]) =>
    new Promise<void>((resolve, reject) => {
      batches.push(items);
      finish.push((err) => (err ? reject(err) : resolve()));
    });
  return { batches, finish, pass };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('MicroBatcher', () => {
  it('starts an item at once when a slot is free, and gathers the items submitted while every slot is busy', async () => {
    const { batches, finish, pass } = controlledPass();
    const batcher = new MicroBatcher(pass, { maxSize: 10, maxInFlight: 1 });
    const first = batcher.submit(1);
    expect(batches).toEqual([[1]]);
    const later = [2, 3, 4].map((n) => batcher.submit(n));
    expect(batcher.pending).toBe(3);
    finish[0]();
    await first;
    await tick();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    finish[1]();
    await Promise.all(later);
    expect(batcher.pending).toBe(0);
  });

  it('never runs more than maxInFlight passes, nor more than maxSize items in one', async () => {
    const { batches, finish, pass } = controlledPass();
    const batcher = new MicroBatcher(pass, { maxSize: 2, maxInFlight: 2 });
    const all = [1, 2, 3, 4, 5, 6, 7].map((n) => batcher.submit(n));
    expect(batches).toEqual([[1], [2]]);
    finish[0]();
    await tick();
    expect(batches).toEqual([[1], [2], [3, 4]]);
    finish[1]();
    finish[2]();
    await tick();
    expect(batches).toEqual([[1], [2], [3, 4], [5, 6], [7]]);
    finish[3]();
    finish[4]();
    await Promise.all(all);
  });

  it('submitAll queues its items before any pass starts: they fill passes together, not one pass each', async () => {
    const { batches, finish, pass } = controlledPass();
    const batcher = new MicroBatcher(pass, { maxSize: 3, maxInFlight: 4 });
    const all = batcher.submitAll([1, 2, 3, 4, 5]);
    expect(all).toHaveLength(5);
    // one by one, four free slots would have started [1], [2], [3], [4]
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    finish[0]();
    finish[1](new Error('bad')); // a pass over several that fails: each alone
    await tick();
    expect(batches.slice(2)).toEqual([[4]]);
    finish[2]();
    await tick();
    expect(batches.slice(3)).toEqual([[5]]);
    finish[3](new Error('bad 5'));
    const outcomes = await Promise.allSettled(all);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
  });

  it('runs each item of a failed pass alone, so only the bad item fails', async () => {
    const seen: number[][] = [];
    const batcher = new MicroBatcher<number>(
      async (items) => {
        seen.push(items);
        if (items.includes(3)) throw new Error(`bad ${items.join(',')}`);
      },
      { maxSize: 10, maxInFlight: 1 },
    );
    const first = batcher.submit(1);
    const rest = [2, 3, 4].map((n) => batcher.submit(n));
    await first;
    const outcomes = await Promise.allSettled(rest);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe('bad 3');
    expect(seen).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  });

  it('with a key: one item per key in a pass, a busy key waits for its pass to finish, the others go ahead', async () => {
    const { batches, finish, pass } = controlledPass();
    const batcher = new MicroBatcher(pass, { maxSize: 10, maxInFlight: 2, key: (n: number) => String(n % 10) });
    const first = batcher.submit(1);
    // 11 and 21 share 1's key (busy): they wait; 2 finds a free slot and starts at once
    const rest = [11, 2, 21, 12, 3].map((n) => batcher.submit(n));
    expect(batches).toEqual([[1], [2]]);
    expect(batcher.pending).toBe(4);
    finish[1]();
    await tick();
    // a slot is free: 12 (its key free again) and 3 ride together, skipping 11 and 21 (still waiting for 1's pass)
    expect(batches).toEqual([[1], [2], [12, 3]]);
    finish[0]();
    await first;
    await tick();
    expect(batches).toEqual([[1], [2], [12, 3], [11]]);
    finish[2]();
    finish[3]();
    await tick();
    expect(batches).toEqual([[1], [2], [12, 3], [11], [21]]);
    finish[4]();
    await Promise.all(rest);
    expect(batcher.pending).toBe(0);
  });

  it('with a key: keeps maxSize, and a failed pass frees its keys after the items ran alone', async () => {
    const seen: string[][] = [];
    const batcher = new MicroBatcher<string>(
      async (items) => {
        seen.push(items);
        if (items.includes('b1')) throw new Error('bad');
      },
      { maxSize: 2, maxInFlight: 1, key: (s) => s[0] },
    );
    const all = ['a1', 'b1', 'c1', 'a2', 'b2'].map((s) => batcher.submit(s));
    const outcomes = await Promise.allSettled(all);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(seen).toEqual([['a1'], ['b1', 'c1'], ['b1'], ['c1'], ['a2', 'b2']]);
  });

  it('rejects options that are not positive integers', () => {
    expect(() => new MicroBatcher(async () => {}, { maxSize: 0, maxInFlight: 1 })).toThrow('maxSize must be a positive integer');
    expect(() => new MicroBatcher(async () => {}, { maxSize: 1, maxInFlight: 1.5 })).toThrow('maxInFlight must be a positive integer');
  });
});
