/**
 * Mulberry32, a 32-bit seeded pseudo-random generator (Tommy Ettinger, 2017; public domain, see
 * https://gist.github.com/tommyettinger/46a874533244883189143505d203312c). Fast and good enough for a
 * local search's kicks; NOT for anything secret. Returns a function yielding uniform integers in [0, bound).
 */
export function mulberry32(seed: number): (bound: number) => number {
  let s = seed >>> 0;
  return (bound: number) => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * bound);
  };
}
