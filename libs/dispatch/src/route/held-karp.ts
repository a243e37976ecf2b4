/**
 * The exact shortest closed tour through all `n` nodes of the row-major matrix `d` (n ≤ 16), by the
 * Held–Karp dynamic programme (M. Held and R. M. Karp, "A dynamic programming approach to sequencing
 * problems", J. SIAM 10(1), 196–210, 1962): O(2ⁿ·n²) time, O(2ⁿ·n) memory. The tour starts at node 0.
 */
export function heldKarpTour(d: Float64Array, n: number): { order: number[]; length: number } {
  if (n > 16) throw new RangeError(`heldKarpTour: n = ${n} > 16`);
  if (n <= 3) {
    const order = Array.from({ length: n }, (_, i) => i);
    let length = 0;
    for (let i = 0; i < n && n > 1; i++) length += d[order[i] * n + order[(i + 1) % n]];
    return { order, length };
  }
  // dp[mask * m + j]: shortest path from node 0 through the nodes of `mask` (over nodes 1..n-1, bit j-1) ending at node j
  const m = n - 1;
  const full = 1 << m;
  const dp = new Float64Array(full * m).fill(Infinity);
  const parent = new Int8Array(full * m).fill(-1);
  for (let j = 0; j < m; j++) dp[(1 << j) * m + j] = d[j + 1];
  for (let mask = 1; mask < full; mask++) {
    for (let j = 0; j < m; j++) {
      if (!(mask & (1 << j))) continue;
      const here = dp[mask * m + j];
      if (here === Infinity) continue;
      const row = (j + 1) * n + 1;
      for (let k = 0; k < m; k++) {
        if (mask & (1 << k)) continue;
        const next = mask | (1 << k);
        const v = here + d[row + k];
        if (v < dp[next * m + k]) {
          dp[next * m + k] = v;
          parent[next * m + k] = j;
        }
      }
    }
  }
  let length = Infinity;
  let last = 0;
  for (let j = 0; j < m; j++) {
    const v = dp[(full - 1) * m + j] + d[(j + 1) * n];
    if (v < length) {
      length = v;
      last = j;
    }
  }
  const rev: number[] = [];
  let mask = full - 1;
  let j = last;
  while (j >= 0) {
    rev.push(j + 1);
    const p = parent[mask * m + j];
    mask &= ~(1 << j);
    j = p;
  }
  return { order: [0, ...rev.reverse()], length };
}
