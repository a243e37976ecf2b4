import { mulberry32 } from '../random';

/**
 * Uniform integers in [0, bound) from the dispatch lib's seeded Mulberry32 ({@link mulberry32}) —
 * the local search's kicks. NOT for anything secret.
 */
export function randomInt(seed: number): (bound: number) => number {
  const next = mulberry32(seed);
  return (bound: number) => Math.floor(next() * bound);
}
