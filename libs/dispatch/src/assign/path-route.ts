import { SphereMetric } from './sphere-metric';

/**
 * One worker's route as the assignment search sees it: an open path from `start` through `nodes`
 * to `end`, where an absent start or end is -1 — a dummy node at distance 0 from every node, so a free
 * start/end needs no special case in the insertion, removal, 2-opt and Or-opt formulas (the usual
 * reduction of an open path to a tour: Lawler, Lenstra, Rinnooy Kan & Shmoys, "The Traveling
 * Salesman Problem", Wiley 1985, ch. 1). Node numbers index a {@link SphereMetric}; lengths are metres.
 */
export interface PathRoute {
  start: number;
  end: number;
  nodes: number[];
}

/** The node before position `p` (p = 0 → `start`). */
export function prevAt(r: PathRoute, p: number): number {
  return p === 0 ? r.start : r.nodes[p - 1];
}

/** The node at position `p` (p = nodes.length → `end`). */
export function nextAt(r: PathRoute, p: number): number {
  return p === r.nodes.length ? r.end : r.nodes[p];
}

/** The extra length (m) of visiting `j` between `a` and `b` (either may be -1). */
export function detour(m: SphereMetric, a: number, j: number, b: number): number {
  return m.d(a, j) + m.d(j, b) - m.d(a, b);
}

/** The path's length in m. */
export function pathLength(m: SphereMetric, r: PathRoute): number {
  let s = 0;
  let prev = r.start;
  for (const v of r.nodes) {
    s += m.d(prev, v);
    prev = v;
  }
  return s + m.d(prev, r.end);
}

/** Cheapest insertion of `j` (Rosenkrantz, Stearns & Lewis 1977): position p (before `nodes[p]`) and its detour in m. */
export function cheapestInsertion(m: SphereMetric, r: PathRoute, j: number): { pos: number; cost: number } {
  let best = Infinity;
  let pos = 0;
  const len = r.nodes.length;
  let a = r.start;
  for (let p = 0; p <= len; p++) {
    const b = p === len ? r.end : r.nodes[p];
    const c = m.d(a, j) + m.d(j, b) - m.d(a, b);
    if (c < best) {
      best = c;
      pos = p;
    }
    a = b;
  }
  return { pos, cost: best };
}

/**
 * The three cheapest insertion positions of `j` in `r`, written into `cost[o..o+2]` and
 * `pos[o..o+2]` (missing ones: cost Infinity, pos -1). Three suffice to know the cheapest insertion
 * into the route without any one other node q: at most two positions (q's and the one after) touch q.
 */
export function top3Insertions(m: SphereMetric, r: PathRoute, j: number, cost: Float64Array, pos: Int32Array, o: number): void {
  let c0 = Infinity,
    c1 = Infinity,
    c2 = Infinity;
  let p0 = -1,
    p1 = -1,
    p2 = -1;
  const len = r.nodes.length;
  let a = r.start;
  for (let p = 0; p <= len; p++) {
    const b = p === len ? r.end : r.nodes[p];
    const c = m.d(a, j) + m.d(j, b) - m.d(a, b);
    if (c < c2) {
      if (c < c1) {
        c2 = c1;
        p2 = p1;
        if (c < c0) {
          c1 = c0;
          p1 = p0;
          c0 = c;
          p0 = p;
        } else {
          c1 = c;
          p1 = p;
        }
      } else {
        c2 = c;
        p2 = p;
      }
    }
    a = b;
  }
  cost[o] = c0;
  cost[o + 1] = c1;
  cost[o + 2] = c2;
  pos[o] = p0;
  pos[o + 1] = p1;
  pos[o + 2] = p2;
}

/** What removing the node at position p saves, in m. */
export function removalGain(m: SphereMetric, r: PathRoute, p: number): number {
  return detour(m, prevAt(r, p), r.nodes[p], nextAt(r, p + 1));
}

const EPS = 1e-7;

/**
 * Improves one route in place by 2-opt (Croes 1958) and Or-opt (Or 1976: moving segments of 1–3
 * nodes, both orientations) until neither finds an improving move (first improvement). The fixed
 * start and end stay in place; a free one is the zero-distance dummy, so reversing a prefix or a suffix
 * is an ordinary 2-opt move. Never lengthens the path. Returns the saving in m.
 */
export function improvePath(m: SphereMetric, r: PathRoute): number {
  const s = [r.start, ...r.nodes, r.end];
  const L = s.length;
  if (L <= 3) return 0;
  let saved = 0;
  let improved = true;
  while (improved) {
    improved = false;
    // 2-opt: reverse s[i+1..j]
    for (let i = 0; i < L - 3; i++) {
      const a = s[i];
      const b = s[i + 1];
      const dab = m.d(a, b);
      for (let j = i + 2; j < L - 1; j++) {
        const c = s[j];
        const e = s[j + 1];
        const delta = m.d(a, c) + m.d(b, e) - dab - m.d(c, e);
        if (delta < -EPS) {
          for (let x = i + 1, y = j; x < y; x++, y--) {
            const t = s[x];
            s[x] = s[y];
            s[y] = t;
          }
          saved -= delta;
          improved = true;
          break;
        }
      }
    }
    // Or-opt: move s[i..i+k-1] between s[p] and s[p+1]
    for (let k = 1; k <= 3; k++) {
      for (let i = 1; i + k - 1 <= L - 2; i++) {
        const first = s[i];
        const last = s[i + k - 1];
        const a = s[i - 1];
        const b = s[i + k];
        const gain = m.d(a, first) + m.d(last, b) - m.d(a, b);
        if (gain <= EPS) continue;
        let bestDelta = -EPS;
        let bestP = -1;
        let bestRev = false;
        for (let p = 0; p < L - 1; p++) {
          if (p >= i - 1 && p <= i + k - 1) continue;
          const u = s[p];
          const v = s[p + 1];
          const duv = m.d(u, v);
          const fwd = m.d(u, first) + m.d(last, v) - duv - gain;
          const rev = m.d(u, last) + m.d(first, v) - duv - gain;
          if (fwd < bestDelta) {
            bestDelta = fwd;
            bestP = p;
            bestRev = false;
          }
          if (rev < bestDelta) {
            bestDelta = rev;
            bestP = p;
            bestRev = true;
          }
        }
        if (bestP >= 0) {
          const seg = s.splice(i, k);
          if (bestRev) seg.reverse();
          const at = bestP < i ? bestP + 1 : bestP + 1 - k;
          s.splice(at, 0, ...seg);
          saved -= bestDelta;
          improved = true;
        }
      }
    }
  }
  r.nodes = s.slice(1, L - 1);
  return saved;
}
