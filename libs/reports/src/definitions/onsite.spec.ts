import { onsiteInterval, onsiteSeconds, openVisitEnd, visitInSpan } from './onsite';

const H = 3_600_000;
/** A span of one day, [0 h, 24 h). */
const SPAN = { start: 100 * H, end: 124 * H };
const at = (h: number) => 100 * H + h * H;
const LATER = at(1000); // "now" long after the span

describe('the on-site rule', () => {
  it('a closed visit inside the span counts out − in', () => {
    const v = { inTs: at(9), outTs: at(9.5) };
    expect(visitInSpan(v, SPAN, LATER)).toBe(true);
    expect(onsiteInterval(v, SPAN, LATER)).toEqual({ start: at(9), end: at(9.5) });
    expect(onsiteSeconds(v, SPAN, LATER)).toBe(1800);
  });

  it('a visit over the span’s start or end counts only its part inside the span', () => {
    const overStart = { inTs: at(-2), outTs: at(1) };
    const overEnd = { inTs: at(22), outTs: at(27) };
    expect(visitInSpan(overStart, SPAN, LATER)).toBe(true);
    expect(onsiteSeconds(overStart, SPAN, LATER)).toBe(3600);
    expect(visitInSpan(overEnd, SPAN, LATER)).toBe(true);
    expect(onsiteSeconds(overEnd, SPAN, LATER)).toBe(2 * 3600);
  });

  it('a visit before or after the span does not belong to it (one ending at the span’s start neither)', () => {
    for (const v of [
      { inTs: at(-5), outTs: at(-1) },
      { inTs: at(-5), outTs: at(0) },
      { inTs: at(24), outTs: at(25) },
      { inTs: at(30), outTs: null },
    ]) {
      expect([v, visitInSpan(v, SPAN, LATER)]).toEqual([v, false]);
      expect(onsiteSeconds(v, SPAN, LATER)).toBe(0);
    }
  });

  it('a visit of 0 ms inside the span belongs to it with 0 s', () => {
    const v = { inTs: at(0), outTs: at(0) };
    expect(visitInSpan(v, SPAN, LATER)).toBe(true);
    expect(onsiteSeconds(v, SPAN, LATER)).toBe(0);
  });

  it('an open visit counts up to the span’s end when now is later', () => {
    const v = { inTs: at(20), outTs: null };
    expect(openVisitEnd(SPAN, LATER)).toBe(SPAN.end);
    expect(visitInSpan(v, SPAN, LATER)).toBe(true);
    expect(onsiteSeconds(v, SPAN, LATER)).toBe(4 * 3600);
  });

  it('an open visit counts up to now when the span reaches into the future', () => {
    const v = { inTs: at(8), outTs: null };
    expect(onsiteInterval(v, SPAN, at(10))).toEqual({ start: at(8), end: at(10) });
    expect(onsiteSeconds(v, SPAN, at(10))).toBe(2 * 3600);
  });

  it('an open visit begun before the span counts the whole span (up to now)', () => {
    const v = { inTs: at(-48), outTs: null };
    expect(visitInSpan(v, SPAN, LATER)).toBe(true);
    expect(onsiteSeconds(v, SPAN, LATER)).toBe(24 * 3600);
    expect(onsiteSeconds(v, SPAN, at(6))).toBe(6 * 3600);
    // a span wholly after now: the open visit has not reached it
    expect(visitInSpan(v, SPAN, at(-1))).toBe(false);
  });
});
