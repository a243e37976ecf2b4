import { TrailingDebounce } from './trailing-debounce';

describe('TrailingDebounce', () => {
  let sent: string[][];
  let debounce: TrailingDebounce<string>;
  const offer = (...pairs: Array<[string, string]>) => debounce.offer(pairs.map(([key, item]) => ({ key, item })));
  // the fake timers' clock is Date.now, the debounce's default clock
  const advance = (ms: number) => jest.advanceTimersByTime(ms);

  beforeEach(() => {
    jest.useFakeTimers({ now: 1_000_000 });
    sent = [];
    debounce = new TrailingDebounce<string>(100, (items) => sent.push(items));
  });
  afterEach(() => {
    debounce.drain();
    jest.useRealTimers();
  });

  it('sends the first item of a key at once, holds the newest of the window and sends it when the window ends', () => {
    offer(['a', 'a1'], ['b', 'b1']);
    expect(sent).toEqual([['a1', 'b1']]);
    advance(10);
    offer(['a', 'a2']);
    advance(10);
    offer(['a', 'a3']);
    expect(sent).toEqual([['a1', 'b1']]);
    advance(80); // the window of a1 ends: a3 (the newest held) goes, b had nothing held
    expect(sent).toEqual([['a1', 'b1'], ['a3']]);
    // the trailing send opened a new window: a4 waits for it
    offer(['a', 'a4']);
    expect(sent).toHaveLength(2);
    advance(100);
    expect(sent).toEqual([['a1', 'b1'], ['a3'], ['a4']]);
  });

  it('sends at once again once a window ended with nothing held', () => {
    offer(['a', 'a1']);
    advance(150);
    offer(['a', 'a2']);
    expect(sent).toEqual([['a1'], ['a2']]);
  });

  it('never loses an item: every offered item is followed by a send of its key within the window', () => {
    const offered: Array<{ at: number; key: string; item: string }> = [];
    const sends: Array<{ at: number; items: string[] }> = [];
    debounce = new TrailingDebounce<string>(100, (items) => sends.push({ at: Date.now(), items }));
    let n = 0;
    for (let step = 0; step < 400; step++) {
      if (step % 3 !== 2) {
        const key = `k${(step * 7) % 5}`;
        const item = `${key}:${n++}`;
        offered.push({ at: Date.now(), key, item });
        debounce.offer([{ key, item }]);
      }
      advance(5 + (step % 11));
    }
    advance(200);
    for (const o of offered) {
      const covering = sends.find(
        (s) => s.at >= o.at && s.items.some((i) => i.startsWith(`${o.key}:`) && Number(i.split(':')[1]) >= Number(o.item.split(':')[1])),
      );
      expect(covering).toBeDefined();
      expect(covering!.at - o.at).toBeLessThanOrEqual(100 + 25); // the window, and the sweep's period
    }
    // fewer sends than items: the point of it
    expect(sends.reduce((a, s) => a + s.items.length, 0)).toBeLessThan(offered.length * 0.8);
  });

  it('drain sends what is held; a window of 0 sends every item', () => {
    offer(['a', 'a1']);
    offer(['a', 'a2']);
    debounce.drain();
    expect(sent).toEqual([['a1'], ['a2']]);
    const every: string[][] = [];
    const none = new TrailingDebounce<string>(0, (items) => every.push(items));
    none.offer([{ key: 'a', item: 'x' }]);
    none.offer([{ key: 'a', item: 'y' }]);
    expect(every).toEqual([['x'], ['y']]);
  });
});
