/**
 * The local search behind `solveTour`: 2-opt and Or-opt on an array tour with a position array,
 * k-nearest neighbour lists and don't-look bits (a work queue of nodes whose bit is off), after
 * J. L. Bentley, "Fast algorithms for geometric traveling salesman problems", ORSA J. Computing 4(4),
 * 387–411, 1992, and D. S. Johnson and L. A. McGeoch, "The Traveling Salesman Problem: A Case Study in
 * Local Optimization", in Local Search in Combinatorial Optimization (Aarts & Lenstra eds.), Wiley,
 * 1997, §3. Every change of the tour is journalled so the iterated local search can undo a rejected
 * kick in time proportional to what changed (not to n).
 *
 * Distances are whatever the matrix holds (m for geodesic matrices); the matrix is row-major n×n.
 */
export class TourSearch {
  readonly tour: Int32Array;
  readonly pos: Int32Array;
  private readonly queue: Int32Array;
  private readonly queued: Uint8Array;
  private qHead = 0;
  private qSize = 0;
  private journal: Int32Array;
  private jSize = 0;
  private readonly seg = new Int32Array(3);
  private readonly kickBuf: Int32Array;
  /** Depth of the Lin–Kernighan chains ({@link linKernighan}); ≤ 2 turns them off. */
  lkDepth = 6;
  private fwd = true;
  private lkBest = 0;
  private lkBestMark = 0;
  private lkBestLevel = 0;
  private readonly lkNodes = new Int32Array(2 * 64);
  private readonly lkCand = new Int32Array(80);
  private readonly lkScore = new Float64Array(80);

  /**
   * @param d row-major n×n distances
   * @param n nodes
   * @param nbr neighbour lists, row-major n×k: the k nearest other nodes of each node, nearest first
   * @param k neighbours per node
   * @param eps smallest gain counted as an improvement (guards against float ties cycling)
   */
  constructor(
    readonly d: Float64Array,
    readonly n: number,
    readonly nbr: Int32Array,
    readonly k: number,
    readonly eps: number,
  ) {
    this.tour = new Int32Array(n);
    this.pos = new Int32Array(n);
    this.queue = new Int32Array(n);
    this.queued = new Uint8Array(n);
    this.journal = new Int32Array(Math.max(64, 4 * n));
    this.kickBuf = new Int32Array(n);
  }

  /** Replaces the tour (a permutation of 0..n-1) and empties the queue and the journal. */
  setTour(order: ArrayLike<number>): void {
    for (let i = 0; i < this.n; i++) {
      this.tour[i] = order[i];
      this.pos[order[i]] = i;
    }
    this.queued.fill(0);
    this.qHead = this.qSize = this.jSize = 0;
  }

  /** The closed tour's length. */
  length(): number {
    const { tour, d, n } = this;
    let s = d[tour[n - 1] * n + tour[0]];
    for (let i = 1; i < n; i++) s += d[tour[i - 1] * n + tour[i]];
    return s;
  }

  succ(a: number): number {
    const p = this.pos[a] + 1;
    return this.tour[p === this.n ? 0 : p];
  }

  pred(a: number): number {
    const p = this.pos[a];
    return this.tour[p === 0 ? this.n - 1 : p - 1];
  }

  /** Turns node `a`'s don't-look bit off (queues it). */
  push(a: number): void {
    if (this.queued[a]) return;
    this.queued[a] = 1;
    let at = this.qHead + this.qSize;
    if (at >= this.n) at -= this.n;
    this.queue[at] = a;
    this.qSize++;
  }

  /** Queues every node in tour order. */
  pushAll(): void {
    for (let i = 0; i < this.n; i++) this.push(this.tour[i]);
  }

  /** Forgets the journal: the current tour becomes the one {@link undo} returns to. */
  commit(): void {
    this.jSize = 0;
  }

  /** Restores the tour as it was at the last {@link commit} (or {@link setTour}). */
  undo(): void {
    this.undoTo(0);
  }

  /** Rolls the journal back to `mark` (an earlier `jSize`). */
  private undoTo(mark: number): void {
    const { journal, tour, pos } = this;
    for (let j = this.jSize - 2; j >= mark; j -= 2) {
      const i = journal[j];
      const node = journal[j + 1];
      tour[i] = node;
      pos[node] = i;
    }
    this.jSize = mark;
  }

  /**
   * Runs 2-opt, Or-opt and Lin–Kernighan chains from the queued nodes until none is left (every node's bit on); answers
   * the change of the tour's length (≤ 0).
   */
  run(): number {
    let total = 0;
    while (this.qSize > 0) {
      const a = this.queue[this.qHead];
      this.qHead = this.qHead + 1 === this.n ? 0 : this.qHead + 1;
      this.qSize--;
      this.queued[a] = 0;
      let delta = this.twoOpt(a);
      if (delta === 0) delta = this.orOpt(a);
      if (delta === 0 && this.lkDepth > 2) delta = this.linKernighan(a);
      if (delta !== 0) {
        total += delta;
        this.push(a);
      }
    }
    return total;
  }

  /**
   * The double-bridge kick of O. Martin, S. W. Otto and E. W. Felten ("Large-step Markov chains for
   * the traveling salesman problem", Complex Systems 5, 299–326, 1991) restricted to nearby segments:
   * the tour A B C D becomes A C B D, B and C being the `l1` and `l2` nodes after position `p`.
   * Queues the six end nodes; answers the change of length. Needs l1 + l2 ≤ n − 2.
   */
  doubleBridge(p: number, l1: number, l2: number): number {
    const { n, tour, d } = this;
    const at = (i: number) => tour[i % n];
    const a = at(p);
    const b0 = at(p + 1);
    const b1 = at(p + l1);
    const c0 = at(p + l1 + 1);
    const c1 = at(p + l1 + l2);
    const e = at(p + l1 + l2 + 1);
    const delta = d[a * n + c0] + d[c1 * n + b0] + d[b1 * n + e] - d[a * n + b0] - d[b1 * n + c0] - d[c1 * n + e];
    const buf = this.kickBuf;
    for (let i = 0; i < l2; i++) buf[i] = at(p + l1 + 1 + i);
    for (let i = 0; i < l1; i++) buf[l2 + i] = at(p + 1 + i);
    for (let i = 0; i < l1 + l2; i++) this.put((p + 1 + i) % n, buf[i]);
    this.push(a);
    this.push(b0);
    this.push(b1);
    this.push(c0);
    this.push(c1);
    this.push(e);
    return delta;
  }

  /** Writes `node` at position `i`, journalling what was there. */
  private put(i: number, node: number): void {
    if (this.jSize + 2 > this.journal.length) {
      const bigger = new Int32Array(this.journal.length * 2);
      bigger.set(this.journal);
      this.journal = bigger;
    }
    this.journal[this.jSize++] = i;
    this.journal[this.jSize++] = this.tour[i];
    this.tour[i] = node;
    this.pos[node] = i;
  }

  /** Reverses the tour between positions i and j inclusive (cyclic), or its complement when shorter. */
  private reverse(i: number, j: number): void {
    const n = this.n;
    let len = j - i;
    if (len < 0) len += n;
    len += 1;
    if (2 * len > n) {
      const i2 = j + 1 === n ? 0 : j + 1;
      j = i === 0 ? n - 1 : i - 1;
      i = i2;
      len = n - len;
    }
    const tour = this.tour;
    for (let s = len >> 1; s > 0; s--) {
      const a = tour[i];
      const b = tour[j];
      this.put(i, b);
      this.put(j, a);
      i = i + 1 === n ? 0 : i + 1;
      j = j === 0 ? n - 1 : j - 1;
    }
  }

  /** First improving 2-opt move from `a` (both tour neighbours, candidates from a's list). */
  private twoOpt(a: number): number {
    const { d, n, nbr, k, eps } = this;
    const row = a * n;
    for (let dir = 0; dir < 2; dir++) {
      const b = dir === 0 ? this.succ(a) : this.pred(a);
      const dab = d[row + b];
      for (let q = a * k, end = q + k; q < end; q++) {
        const c = nbr[q];
        const dac = d[row + c];
        if (dac >= dab - eps) break;
        const dd = dir === 0 ? this.succ(c) : this.pred(c);
        if (c === b || dd === a) continue;
        const delta = dac + d[b * n + dd] - dab - d[c * n + dd];
        if (delta < -eps) {
          // succ: a→b … c→dd becomes a→c … b→dd (reverse b..c); pred: dd→c … b→a becomes dd→b … c→a (reverse a..dd)
          if (dir === 0) this.reverse(this.pos[b], this.pos[c]);
          else this.reverse(this.pos[a], this.pos[dd]);
          this.push(b);
          this.push(c);
          this.push(dd);
          return delta;
        }
      }
    }
    return 0;
  }

  /**
   * First improving Or-opt move (I. Or, "Traveling salesman-type combinatorial problems and their
   * relation to the logistics of regional blood banking", PhD thesis, Northwestern University, 1976):
   * a segment of 1–3 nodes with `a` at one end moves, either way round, next to one of a's neighbours.
   */
  private orOpt(a: number): number {
    const { d, n, nbr, k, eps, tour, pos } = this;
    const row = a * n;
    for (let len = 1; len <= 3 && len + 3 <= n; len++) {
      for (let side = 0; side < (len === 1 ? 1 : 2); side++) {
        // side 0: a is the segment's first node (s1 = a); side 1: its last (s2 = a)
        let i = side === 0 ? pos[a] : pos[a] - len + 1;
        if (i < 0) i += n;
        const s1 = tour[i];
        const j = i + len - 1 >= n ? i + len - 1 - n : i + len - 1;
        const s2 = tour[j];
        const p = tour[i === 0 ? n - 1 : i - 1];
        const nx = tour[j + 1 === n ? 0 : j + 1];
        const gain = d[p * n + s1] + d[s2 * n + nx] - d[p * n + nx];
        if (gain <= eps) continue;
        const o = side === 0 ? s2 : s1; // the segment's other end
        for (let q = a * k, end = q + k; q < end; q++) {
          const c = nbr[q];
          const dac = d[row + c];
          if (dac >= gain - eps) break;
          let off = pos[c] - i;
          if (off < 0) off += n;
          if (off < len) continue; // c inside the segment
          // c → a … o → v (v = succ(c)), unless c is p
          if (c !== p) {
            const v = this.succ(c);
            const delta = dac + d[o * n + v] - d[c * n + v] - gain;
            if (delta < -eps) {
              this.moveSegment(i, len, c, a !== s1);
              this.pushMove(p, nx, s1, s2, c, v);
              return delta;
            }
          }
          // u → o … a → c (u = pred(c)), unless c is nx
          if (c !== nx) {
            const u = this.pred(c);
            const delta = d[u * n + o] + dac - d[u * n + c] - gain;
            if (delta < -eps) {
              this.moveSegment(i, len, u, o !== s1);
              this.pushMove(p, nx, s1, s2, u, c);
              return delta;
            }
          }
        }
      }
    }
    return 0;
  }

  /**
   * A Lin–Kernighan chain from `t1` (S. Lin and B. W. Kernighan, "An effective heuristic algorithm
   * for the traveling-salesman problem", Operations Research 21(2), 498–516, 1973), in the flip form of
   * Applegate, Bixby, Chvátal & Cook ("Chained Lin–Kernighan for large traveling salesman problems",
   * INFORMS J. Computing 15(1), 2003): each step removes (t1, t2), adds (t2, t3) for t3 among t2's
   * neighbours and removes (t4, t3), t4 = t3's predecessor, by reversing t2..t4; the chain goes on from
   * the new (t1, t4) while the partial gain stays positive, up to {@link lkDepth} steps, trying the 5
   * then 3 best candidates (by d(t3, t4) − d(t2, t3)) at the first two levels and the best one deeper;
   * edges added in the chain are never removed. The best closing point is kept, the rest undone.
   * Reaches the sequential 3-opt moves (Or-3opt) and deeper ones that 2-opt and Or-opt miss.
   */
  private linKernighan(t1: number): number {
    const mark = this.jSize;
    for (let dir = 0; dir < 2; dir++) {
      this.fwd = dir === 0;
      const t2 = this.fwd ? this.succ(t1) : this.pred(t1);
      this.lkBest = this.eps;
      this.lkBestMark = -1;
      this.lkNodes[0] = t1;
      this.lkNodes[1] = t2;
      this.lkStep(t1, t2, this.d[t1 * this.n + t2], 1);
      if (this.lkBestMark >= 0) {
        this.undoTo(this.lkBestMark);
        for (let i = 0; i < 2 * this.lkBestLevel + 2; i++) this.push(this.lkNodes[i]);
        return -this.lkBest;
      }
      this.undoTo(mark);
    }
    return 0;
  }

  private lkStep(t1: number, t2: number, g: number, level: number): void {
    const { d, n, nbr, k } = this;
    const breadth = level === 1 ? 5 : level === 2 ? 3 : 1;
    const base = level === 1 ? 0 : level === 2 ? 5 : 8 + level; // candidate slots of this level
    let count = 0;
    for (let q = t2 * k, end = q + k; q < end; q++) {
      const t3 = nbr[q];
      const g1 = g - d[t2 * n + t3];
      if (g1 <= this.eps) break;
      if (t3 === t1) continue;
      const t4 = this.fwd ? this.pred(t3) : this.succ(t3);
      if (t4 === t2 || this.added(t3, t4, level)) continue;
      const score = d[t3 * n + t4] - d[t2 * n + t3];
      // keep the top `breadth` by score, best first
      let at: number;
      if (count < breadth) at = count++;
      else if (score <= this.lkScore[base + breadth - 1]) continue;
      else at = breadth - 1;
      while (at > 0 && this.lkScore[base + at - 1] < score) {
        this.lkScore[base + at] = this.lkScore[base + at - 1];
        this.lkCand[base + at] = this.lkCand[base + at - 1];
        at--;
      }
      this.lkScore[base + at] = score;
      this.lkCand[base + at] = t3;
    }
    for (let c = 0; c < count; c++) {
      const t3 = this.lkCand[base + c];
      const t4 = this.fwd ? this.pred(t3) : this.succ(t3);
      const mark = this.jSize;
      const fwd = this.fwd;
      // reverse t2..t4 (in the current orientation): t1 t4 … t2 t3
      if (fwd) this.reverse(this.pos[t2], this.pos[t4]);
      else this.reverse(this.pos[t4], this.pos[t2]);
      this.fwd = this.succ(t1) === t4;
      this.lkNodes[2 * level] = t3;
      this.lkNodes[2 * level + 1] = t4;
      const g2 = g - d[t2 * n + t3] + d[t3 * n + t4];
      const close = g2 - d[t4 * n + t1];
      if (close > this.lkBest) {
        this.lkBest = close;
        this.lkBestMark = this.jSize;
        this.lkBestLevel = level;
      }
      if (level < this.lkDepth) this.lkStep(t1, t4, g2, level + 1);
      if (this.lkBestMark >= 0) return;
      this.undoTo(mark);
      this.fwd = fwd;
    }
  }

  /** Whether edge (a, b) was added by the chain's steps before `level`. */
  private added(a: number, b: number, level: number): boolean {
    const nodes = this.lkNodes;
    for (let l = 1; l < level; l++) {
      // step l added (t2 of step l, t3 of step l): t2 of step l is nodes[2l−1], t3 is nodes[2l]
      const x = nodes[2 * l - 1];
      const y = nodes[2 * l];
      if ((x === a && y === b) || (x === b && y === a)) return true;
    }
    return false;
  }

  private pushMove(a: number, b: number, c: number, e: number, f: number, g: number): void {
    this.push(a);
    this.push(b);
    this.push(c);
    this.push(e);
    this.push(f);
    this.push(g);
  }

  /**
   * Moves the `len` nodes from position i to between node u and its successor, reversed when asked,
   * shifting the shorter stretch of the tour in between.
   */
  private moveSegment(i: number, len: number, u: number, reversed: boolean): void {
    const { n, tour, seg } = this;
    for (let s = 0; s < len; s++) seg[reversed ? len - 1 - s : s] = tour[(i + s) % n];
    const pu = this.pos[u];
    const pv = pu + 1 === n ? 0 : pu + 1;
    const d1 = (((pu - (i + len - 1)) % n) + n) % n; // positions after the segment up to u
    const d2 = (((i - pv) % n) + n) % n; // positions from v up to before the segment
    if (d1 <= d2) {
      for (let s = 0; s < d1; s++) this.put((i + s) % n, tour[(i + len + s) % n]);
      for (let s = 0; s < len; s++) this.put((i + d1 + s) % n, seg[s]);
    } else {
      for (let s = d2 - 1; s >= 0; s--) this.put((pv + s + len) % n, tour[(pv + s) % n]);
      for (let s = 0; s < len; s++) this.put((pv + s) % n, seg[s]);
    }
  }
}

/**
 * The `k` nearest other nodes of every node (ties by index), row-major n×k, for the candidate lists of
 * {@link TourSearch}. O(n²·k).
 */
export function neighbourLists(d: Float64Array, n: number, k: number): Int32Array {
  const out = new Int32Array(n * k);
  const dist = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    let size = 0;
    const base = i * k;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const v = d[i * n + j];
      if (size === k && v >= dist[k - 1]) continue;
      let at = size < k ? size++ : k - 1;
      while (at > 0 && dist[at - 1] > v) {
        dist[at] = dist[at - 1];
        out[base + at] = out[base + at - 1];
        at--;
      }
      dist[at] = v;
      out[base + at] = j;
    }
  }
  return out;
}
