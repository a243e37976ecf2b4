import { GroupRecorder } from './group-recorder';

describe('GroupRecorder', () => {
  it('flushes what arrives together in one group, and what arrives during a flush in the next', async () => {
    const groups: number[][] = [];
    let release: () => void = () => undefined;
    const recorder = new GroupRecorder<number>(async (items) => {
      groups.push(items);
      if (groups.length === 1) await new Promise<void>((r) => (release = r));
    });
    const first = [1, 2, 3].map((n) => recorder.add(n));
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(groups).toEqual([[1, 2, 3]]);
    const later = [4, 5].map((n) => recorder.add(n));
    release();
    await Promise.all([...first, ...later]);
    expect(groups).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('fails every add of a group whose flush failed, and goes on with the next group', async () => {
    let calls = 0;
    const recorder = new GroupRecorder<string>(async () => {
      calls += 1;
      if (calls === 1) throw new Error('database down');
    });
    const a = recorder.add('a');
    const b = recorder.add('b');
    await expect(a).rejects.toThrow('database down');
    await expect(b).rejects.toThrow('database down');
    await expect(recorder.add('c')).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });
});
