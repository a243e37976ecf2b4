/**
 * Start tours for the route solver. All work on a row-major n×n matrix `d` and answer closed tours
 * as permutations of 0..n-1.
 */

/**
 * The nearest-neighbour tour from `from`: always go to the closest unvisited node (ties: lowest
 * index). D. J. Rosenkrantz, R. E. Stearns and P. M. Lewis, "An analysis of several heuristics for the
 * traveling salesman problem", SIAM J. Computing 6(3), 563–581, 1977. O(n²).
 */
export function nearestNeighbourTour(d: Float64Array, n: number, from: number): Int32Array {
  const order = new Int32Array(n);
  if (n === 0) return order;
  const seen = new Uint8Array(n);
  let at = from;
  seen[at] = 1;
  order[0] = at;
  for (let i = 1; i < n; i++) {
    let best = -1;
    let bestD = Infinity;
    const row = at * n;
    for (let j = 0; j < n; j++) {
      if (!seen[j] && d[row + j] < bestD) {
        bestD = d[row + j];
        best = j;
      }
    }
    at = best;
    seen[at] = 1;
    order[i] = at;
  }
  return order;
}

/**
 * Plain 2-opt over the whole neighbourhood (every pair of edges, first improvement, passes until one
 * finds nothing): G. A. Croes, "A method for solving traveling-salesman problems", Operations Research
 * 6(6), 791–812, 1958. Changes `order` in place (position 0 stays first); O(n²) per pass.
 */
export function twoOptFull(d: Float64Array, n: number, order: Int32Array, eps: number): void {
  if (n < 4) return;
  let improved = true;
  while (improved) {
    improved = false;
    for (let i = 0; i < n - 2; i++) {
      const a = order[i];
      const b = order[i + 1];
      const dab = d[a * n + b];
      for (let j = i + 2; j < n; j++) {
        const c = order[j];
        const e = order[j + 1 === n ? 0 : j + 1];
        if (e === a) continue;
        const delta = d[a * n + c] + d[b * n + e] - dab - d[c * n + e];
        if (delta < -eps) {
          for (let x = i + 1, y = j; x < y; x++, y--) {
            const t = order[x];
            order[x] = order[y];
            order[y] = t;
          }
          improved = true;
          break;
        }
      }
    }
  }
}

/**
 * The greedy-edge tour (Johnson & McGeoch 1997, §2.2 "Greedy"): candidate edges from the neighbour
 * lists `nbr` (n×k) by increasing length, each taken when both ends have degree < 2 and it closes no
 * cycle (union–find); the fragments left are then chained nearest-endpoint first. O(n·k·log(n·k) + n·f)
 * for f fragments.
 */
export function greedyEdgeTour(d: Float64Array, n: number, nbr: Int32Array, k: number): Int32Array {
  const order = new Int32Array(n);
  if (n <= 3) {
    for (let i = 0; i < n; i++) order[i] = i;
    return order;
  }
  const edges: number[] = [];
  for (let i = 0; i < n; i++) for (let q = 0; q < k; q++) if (nbr[i * k + q] > i) edges.push(i * n + nbr[i * k + q]);
  for (let i = 0; i < n; i++) for (let q = 0; q < k; q++) if (nbr[i * k + q] < i) edges.push(nbr[i * k + q] * n + i);
  const uniq = Float64Array.from(new Set(edges));
  const lens = new Float64Array(uniq.length);
  const idx = Array.from({ length: uniq.length }, (_, x) => x);
  for (let x = 0; x < uniq.length; x++) lens[x] = d[uniq[x]];
  idx.sort((x, y) => lens[x] - lens[y] || uniq[x] - uniq[y]);
  const deg = new Uint8Array(n);
  const adj = new Int32Array(2 * n).fill(-1);
  const parent = Int32Array.from({ length: n }, (_, x) => x);
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  };
  const link = (a: number, b: number) => {
    adj[2 * a + deg[a]++] = b;
    adj[2 * b + deg[b]++] = a;
  };
  let added = 0;
  for (const x of idx) {
    const a = Math.floor(uniq[x] / n);
    const b = uniq[x] - a * n;
    if (deg[a] >= 2 || deg[b] >= 2) continue;
    const ra = find(a);
    const rb = find(b);
    if (ra === rb) continue;
    parent[ra] = rb;
    link(a, b);
    if (++added === n - 1) break;
  }
  // walk the fragments, chaining each one's far end to the nearest free end of another
  const seen = new Uint8Array(n);
  let start = 0;
  while (deg[start] === 2) start++;
  let at = start;
  let filled = 0;
  for (;;) {
    // walk the fragment that starts at `at` (an end: degree ≤ 1)
    let prev = -1;
    for (;;) {
      seen[at] = 1;
      order[filled++] = at;
      let next = -1;
      for (let s = 0; s < deg[at]; s++) if (adj[2 * at + s] !== prev && !seen[adj[2 * at + s]]) next = adj[2 * at + s];
      if (next < 0) break;
      prev = at;
      at = next;
    }
    if (filled === n) break;
    let best = -1;
    let bestD = Infinity;
    for (let j = 0; j < n; j++) {
      if (!seen[j] && deg[j] < 2 && d[at * n + j] < bestD) {
        bestD = d[at * n + j];
        best = j;
      }
    }
    at = best;
  }
  return order;
}
