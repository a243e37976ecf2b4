import { Fix } from '../fix';
import { advanceLatest } from './latest-location';

const fix = (ts: number, lat = 46, lng = 14): Fix => ({ ts, lat, lng, acc: null, dir: null, spd: null, elv: null, bat: null });
const MIN = 60_000;

describe('advanceLatest', () => {
  it('takes the newest fix of a call sent in any order, with the newest one ≥ 2 min older as anchor', () => {
    const out = advanceLatest({ latest: null, anchor: null }, [fix(5 * MIN, 2), fix(1 * MIN, 1), fix(4 * MIN, 3), fix(2 * MIN, 4)]);
    expect(out?.latest?.ts).toBe(5 * MIN);
    expect(out?.latest?.lat).toBe(2);
    // the newest of 1, 2, 4 at least 2 min older than 5
    expect(out?.anchor).toEqual({ ts: 2 * MIN, lat: 4, lng: 14 });
  });

  it('takes the anchor from the call when it is newer than the stored latest and anchor', () => {
    const state = { latest: fix(10 * MIN, 5), anchor: { ts: 7 * MIN, lat: 1, lng: 1 } };
    expect(advanceLatest(state, [fix(11 * MIN, 6), fix(11.5 * MIN, 7), fix(14 * MIN)])?.anchor).toEqual({ ts: 11.5 * MIN, lat: 7, lng: 14 });
    // a late fix (older than the stored latest) is never an anchor
    expect(advanceLatest(state, [fix(9 * MIN, 8), fix(11.5 * MIN)])?.anchor).toEqual({ ts: 7 * MIN, lat: 1, lng: 1 });
  });

  it('never moves backwards: late fixes change nothing', () => {
    const state = { latest: fix(10 * MIN), anchor: { ts: 7 * MIN, lat: 1, lng: 1 } };
    expect(advanceLatest(state, [fix(9 * MIN), fix(10 * MIN)])).toBeNull();
  });

  it('makes the stored latest the anchor when it is at least 2 min older', () => {
    const state = { latest: fix(10 * MIN, 5), anchor: { ts: 7 * MIN, lat: 1, lng: 1 } };
    expect(advanceLatest(state, [fix(12 * MIN)])?.anchor).toEqual({ ts: 10 * MIN, lat: 5, lng: 14 });
    expect(advanceLatest(state, [fix(11 * MIN)])?.anchor).toEqual({ ts: 7 * MIN, lat: 1, lng: 1 });
  });

  it('ignores a duplicate ts within the call', () => {
    const out = advanceLatest({ latest: null, anchor: null }, [fix(3 * MIN, 1), fix(3 * MIN, 2)]);
    expect(out?.latest?.lat).toBe(1);
    expect(out?.anchor).toBeNull();
  });
});
