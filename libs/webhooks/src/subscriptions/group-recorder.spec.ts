import { GroupRecorder } from './group-recorder';

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('GroupRecorder', () => {
  it('flushes a round once, when its last item is in', async () => {
    const groups: number[][] = [];
    const recorder = new GroupRecorder<number>(
      async (items) => {
        groups.push(items);
      },
      3,
      10_000,
    );
    const adds = [recorder.add(1), recorder.add(2)];
    await tick(5);
    expect(groups).toEqual([]);
    adds.push(recorder.add(3));
    await Promise.all(adds);
    expect(groups).toEqual([[1, 2, 3]]);
  });

  it('does not hold early items for a late one longer than gatherMs; the late one goes in a group of its own', async () => {
    const groups: string[][] = [];
    const recorder = new GroupRecorder<string>(
      async (items) => {
        groups.push(items);
      },
      3,
      20,
    );
    const early = Promise.all([recorder.add('a'), recorder.add('b')]);
    await early;
    expect(groups).toEqual([['a', 'b']]);
    await recorder.add('late');
    expect(groups).toEqual([['a', 'b'], ['late']]);
  });

  it('queues what arrives during a flush for the next one', async () => {
    const groups: number[][] = [];
    let release: () => void = () => undefined;
    const recorder = new GroupRecorder<number>(
      async (items) => {
        groups.push(items);
        if (groups.length === 1) await new Promise<void>((r) => (release = r));
      },
      2,
      1,
    );
    const first = recorder.add(1);
    await tick(10);
    const second = recorder.add(2);
    await tick(5);
    expect(groups).toEqual([[1]]);
    release();
    await Promise.all([first, second]);
    expect(groups).toEqual([[1], [2]]);
  });

  it('fails every add of a group whose flush failed, and goes on with the next group', async () => {
    let calls = 0;
    const recorder = new GroupRecorder<string>(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('database down');
      },
      3,
      10_000,
    );
    const a = recorder.add('a');
    const b = recorder.add('b');
    const c = recorder.add('c');
    await expect(a).rejects.toThrow('database down');
    await expect(b).rejects.toThrow('database down');
    await expect(c).rejects.toThrow('database down');
    await expect(recorder.add('d')).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });
});
