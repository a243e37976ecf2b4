import { groupBy } from './group-by';

describe('groupBy', () => {
  it('keys in the order first seen, each group in input order', () => {
    const rows = [
      { c: 'b', n: 1 },
      { c: 'a', n: 2 },
      { c: 'b', n: 3 },
      { c: 'c', n: 4 },
      { c: 'a', n: 5 },
    ];
    const groups = groupBy(rows, (r) => r.c);
    expect([...groups.keys()]).toEqual(['b', 'a', 'c']);
    expect(groups.get('b')!.map((r) => r.n)).toEqual([1, 3]);
    expect(groups.get('a')!.map((r) => r.n)).toEqual([2, 5]);
    expect(groups.get('c')!.map((r) => r.n)).toEqual([4]);
  });

  it('takes any iterable and any key type; nothing in, no groups', () => {
    expect(groupBy(new Set([1, 2, 3, 4]), (n) => n % 2 === 0)).toEqual(
      new Map([
        [false, [1, 3]],
        [true, [2, 4]],
      ]),
    );
    expect(groupBy([], () => 'x').size).toBe(0);
  });
});
