/**
 * Spherical k-means on 3-D unit vectors (see sphere.ts): greedy k-means++ seeding, Lloyd iterations
 * and first-variation moves. Internal to `clusterPoints`; everything here works on the packed vectors
 * `v` (length 3n) and on centres packed the same way (length 3k), and measures a point's cost to a
 * centre as the squared chord |u − c|² = 2 (1 − u·c) on the unit sphere (× R² it is m²; for a
 * Croatia-sized region it is within 0.02 % of the squared great-circle distance).
 */

/** Squared chord between point `p` of `v` and centre `j` of `c`, unit sphere. */
export function chord2(v: Float64Array, p: number, c: Float64Array, j: number): number {
  const dx = v[3 * p] - c[3 * j];
  const dy = v[3 * p + 1] - c[3 * j + 1];
  const dz = v[3 * p + 2] - c[3 * j + 2];
  return dx * dx + dy * dy + dz * dz;
}

/**
 * k-means++ seeding (D. Arthur & S. Vassilvitskii, "k-means++: The Advantages of Careful Seeding",
 * SODA 2007), in its greedy form (ibid. §6, and scikit-learn's `kmeans_plusplus`): the first centre is a
 * uniformly drawn point; each further one is the best — the one lowering the potential Σ D² most — of
 * 2 + ⌊ln k⌋ candidates drawn with probability ∝ D², the squared chord to the nearest centre so far.
 * When every point already coincides with a centre (D² all 0: duplicates), a point is drawn uniformly.
 *
 * @returns k centres (copies of points), packed, length 3k.
 */
export function seedKMeansPlusPlus(v: Float64Array, n: number, k: number, random: () => number): Float64Array {
  const centres = new Float64Array(3 * k);
  const d2 = new Float64Array(n);
  const trial = new Float64Array(n);
  const best = new Float64Array(n);
  const tries = 2 + Math.floor(Math.log(k));
  const first = Math.floor(random() * n);
  centres.set(v.subarray(3 * first, 3 * first + 3), 0);
  let potential = 0;
  for (let p = 0; p < n; p++) potential += d2[p] = chord2(v, p, centres, 0);
  for (let j = 1; j < k; j++) {
    let bestPotential = Infinity;
    let bestPoint = -1;
    for (let t = 0; t < tries; t++) {
      const cand = potential > 0 ? sampleByWeight(d2, potential, random) : Math.floor(random() * n);
      let pot = 0;
      const cx = v[3 * cand];
      const cy = v[3 * cand + 1];
      const cz = v[3 * cand + 2];
      for (let p = 0; p < n; p++) {
        const dx = v[3 * p] - cx;
        const dy = v[3 * p + 1] - cy;
        const dz = v[3 * p + 2] - cz;
        const d = Math.min(d2[p], dx * dx + dy * dy + dz * dz);
        trial[p] = d;
        pot += d;
      }
      if (pot < bestPotential) {
        bestPotential = pot;
        bestPoint = cand;
        best.set(trial);
      }
    }
    centres.set(v.subarray(3 * bestPoint, 3 * bestPoint + 3), 3 * j);
    d2.set(best);
    potential = bestPotential;
  }
  return centres;
}

/** An index drawn with probability weight[i] / total. */
function sampleByWeight(weight: Float64Array, total: number, random: () => number): number {
  let r = random() * total;
  let last = 0;
  for (let i = 0; i < weight.length; i++) {
    if (weight[i] <= 0) continue;
    last = i;
    r -= weight[i];
    if (r < 0) return i;
  }
  return last; // rounding left r ≥ 0 after the last positive weight
}

/** Assigns every point to its nearest centre (largest dot product; on a tie a point stays, else the lower index wins). @returns whether anything changed. */
export function assignNearest(v: Float64Array, n: number, k: number, centres: Float64Array, assignment: Int32Array): boolean {
  let changed = false;
  for (let p = 0; p < n; p++) {
    const x = v[3 * p];
    const y = v[3 * p + 1];
    const z = v[3 * p + 2];
    // ties keep the current cluster: no flip-flopping between equal centres (duplicates)
    let best = assignment[p];
    let bestDot = best >= 0 ? x * centres[3 * best] + y * centres[3 * best + 1] + z * centres[3 * best + 2] : -Infinity;
    for (let j = 0; j < k; j++) {
      const dot = x * centres[3 * j] + y * centres[3 * j + 1] + z * centres[3 * j + 2];
      if (dot > bestDot) {
        bestDot = dot;
        best = j;
      }
    }
    if (assignment[p] !== best) {
      assignment[p] = best;
      changed = true;
    }
  }
  return changed;
}

/** Per-cluster vector sums (length 3k) and counts of an assignment. */
export function clusterSums(v: Float64Array, n: number, k: number, assignment: Int32Array): { sums: Float64Array; counts: Int32Array } {
  const sums = new Float64Array(3 * k);
  const counts = new Int32Array(k);
  for (let p = 0; p < n; p++) {
    const a = assignment[p];
    counts[a]++;
    sums[3 * a] += v[3 * p];
    sums[3 * a + 1] += v[3 * p + 1];
    sums[3 * a + 2] += v[3 * p + 2];
  }
  return { sums, counts };
}

/**
 * Makes every cluster non-empty: each empty cluster takes the point farthest from its own centre among
 * clusters of two or more points (the usual k-means re-seed), moved in `assignment`, `sums`, `counts`
 * and made the empty cluster's centre. Possible whenever n ≥ k. @returns how many clusters were re-seeded.
 */
export function reseedEmpty(
  v: Float64Array,
  n: number,
  k: number,
  centres: Float64Array,
  assignment: Int32Array,
  sums: Float64Array,
  counts: Int32Array,
): number {
  let reseeded = 0;
  for (let e = 0; e < k; e++) {
    if (counts[e] > 0) continue;
    let far = -1;
    let farCost = -1;
    for (let p = 0; p < n; p++) {
      const a = assignment[p];
      if (counts[a] < 2) continue;
      const c = chord2(v, p, centres, a);
      if (c > farCost) {
        farCost = c;
        far = p;
      }
    }
    const from = assignment[far];
    movePoint(v, far, from, e, assignment, sums, counts);
    centres.set(v.subarray(3 * far, 3 * far + 3), 3 * e);
    normaliseInto(sums, from, centres, v, assignment, n);
    reseeded++;
  }
  return reseeded;
}

/** Moves point p from cluster `from` to `to`, keeping sums and counts. */
export function movePoint(
  v: Float64Array,
  p: number,
  from: number,
  to: number,
  assignment: Int32Array,
  sums: Float64Array,
  counts: Int32Array,
): void {
  assignment[p] = to;
  counts[from]--;
  counts[to]++;
  for (let d = 0; d < 3; d++) {
    sums[3 * from + d] -= v[3 * p + d];
    sums[3 * to + d] += v[3 * p + d];
  }
}

/**
 * Centre j := its cluster's normalised vector sum (the spherical mean). A sum of (nearly) zero length
 * — points that cancel out — has no direction: then the cluster's first point is its centre.
 */
export function normaliseInto(
  sums: Float64Array,
  j: number,
  centres: Float64Array,
  v: Float64Array,
  assignment: Int32Array,
  n: number,
): void {
  const x = sums[3 * j];
  const y = sums[3 * j + 1];
  const z = sums[3 * j + 2];
  const r = Math.sqrt(x * x + y * y + z * z);
  if (r > 1e-12) {
    centres[3 * j] = x / r;
    centres[3 * j + 1] = y / r;
    centres[3 * j + 2] = z / r;
    return;
  }
  for (let p = 0; p < n; p++)
    if (assignment[p] === j) {
      centres.set(v.subarray(3 * p, 3 * p + 3), 3 * j);
      return;
    }
}

/**
 * First-variation moves for spherical k-means (I. S. Dhillon, Y. Guan & J. Kogan, "Iterative
 * Clustering of High Dimensional Text Data Augmented by Local Search", IEEE ICDM 2002; the spherical
 * form of Hartigan's single-point moves). With centres the normalised sums S_c, the objective
 * Σ_c Σ_{u∈c} (1 − u·c) equals n − Σ_c |S_c|, so moving u from A to B gains exactly
 * |S_A − u| + |S_B + u| − |S_A| − |S_B| — found in O(k) per point with no centre recomputation. Moves
 * every point with a positive gain (never emptying a cluster), pass after pass, until none gains.
 * Lloyd's step stops at such points' doorstep; these moves get past it.
 *
 * @returns the number of moves made; `assignment`, `sums`, `counts` updated (centres are not).
 */
export function firstVariation(
  v: Float64Array,
  n: number,
  k: number,
  assignment: Int32Array,
  sums: Float64Array,
  counts: Int32Array,
  maxPasses = 20,
): number {
  const norms = new Float64Array(k);
  for (let j = 0; j < k; j++) norms[j] = Math.hypot(sums[3 * j], sums[3 * j + 1], sums[3 * j + 2]);
  let moves = 0;
  for (let pass = 0; pass < maxPasses; pass++) {
    let movedThisPass = 0;
    for (let p = 0; p < n; p++) {
      const a = assignment[p];
      if (counts[a] < 2) continue;
      const x = v[3 * p];
      const y = v[3 * p + 1];
      const z = v[3 * p + 2];
      const ax = sums[3 * a] - x;
      const ay = sums[3 * a + 1] - y;
      const az = sums[3 * a + 2] - z;
      const removeGain = Math.sqrt(ax * ax + ay * ay + az * az) - norms[a];
      // a move must beat rounding (|S| up to n, unit-sphere units): never cycle on noise
      let bestGain = 1e-12 * (1 + norms[a]);
      let best = -1;
      for (let b = 0; b < k; b++) {
        if (b === a) continue;
        const bx = sums[3 * b] + x;
        const by = sums[3 * b + 1] + y;
        const bz = sums[3 * b + 2] + z;
        const gain = removeGain + Math.sqrt(bx * bx + by * by + bz * bz) - norms[b];
        if (gain > bestGain) {
          bestGain = gain;
          best = b;
        }
      }
      if (best < 0) continue;
      movePoint(v, p, a, best, assignment, sums, counts);
      norms[a] = Math.hypot(sums[3 * a], sums[3 * a + 1], sums[3 * a + 2]);
      norms[best] = Math.hypot(sums[3 * best], sums[3 * best + 1], sums[3 * best + 2]);
      movedThisPass++;
    }
    moves += movedThisPass;
    if (movedThisPass === 0) break;
  }
  return moves;
}

/**
 * Spherical k-means from the given centres (Dhillon & Modha 2001): Lloyd's iterations — assign to
 * the nearest centre, centre := normalised sum — re-seeding empty clusters, then first-variation moves,
 * repeated until neither changes anything (or the iteration caps). Always ends with k non-empty
 * clusters (n ≥ k) and centres = their spherical means.
 *
 * @param centres packed start centres (length 3k), overwritten with the final ones.
 * @returns the assignment and its cost Σ |u − c|² (unit sphere).
 */
export function sphericalKMeans(
  v: Float64Array,
  n: number,
  k: number,
  centres: Float64Array,
  maxIterations = 100,
): { assignment: Int32Array; cost: number } {
  const assignment = new Int32Array(n).fill(-1);
  assignNearest(v, n, k, centres, assignment);
  for (let round = 0; round < 10; round++) {
    let sums: Float64Array;
    let counts: Int32Array;
    for (let it = 0; ; it++) {
      ({ sums, counts } = clusterSums(v, n, k, assignment));
      for (let j = 0; j < k; j++) if (counts[j] > 0) normaliseInto(sums, j, centres, v, assignment, n);
      const reseeded = reseedEmpty(v, n, k, centres, assignment, sums, counts);
      if (it >= maxIterations) break;
      if (!assignNearest(v, n, k, centres, assignment) && reseeded === 0) break;
    }
    const moves = firstVariation(v, n, k, assignment, sums, counts);
    for (let j = 0; j < k; j++) normaliseInto(sums, j, centres, v, assignment, n);
    if (moves === 0) break;
  }
  return { assignment, cost: partitionCost(v, n, centres, assignment) };
}

/** Σ |u − c|² over all points to their cluster's centre (unit sphere; × R² for m²). */
export function partitionCost(v: Float64Array, n: number, centres: Float64Array, assignment: Int32Array): number {
  let cost = 0;
  for (let p = 0; p < n; p++) cost += chord2(v, p, centres, assignment[p]);
  return cost;
}
