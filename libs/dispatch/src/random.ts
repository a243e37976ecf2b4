/**
 * A small seeded pseudo-random generator, so that the dispatch algorithms (route kicks, clustering seeds, assignment) are deterministic for a seed: Tommy
 * Ettinger's Mulberry32 (public domain, 2017; a 32-bit state stepped by a Weyl sequence and mixed
 * by multiply–xorshift, period 2³²). Plenty for sampling and kicks; not for cryptography.
 *
 * @param seed any number; its low 32 bits are the state.
 * @returns a function answering uniform numbers in [0, 1).
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of restart `r` of a run seeded with `seed`: distinct streams per restart (a 32-bit hash of both). */
export function restartSeed(seed: number, r: number): number {
  let h = Math.imul((seed >>> 0) ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13) ^ Math.imul(r + 1, 0xc2b2ae35), 0x27d4eb2f) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}
