import { detour, nextAt, PathRoute, prevAt, removalGain, top3Insertions } from './path-route';
import { SphereMetric } from './sphere-metric';

const EPS = 1e-6; // m

/** A move between two routes: relocate one job, or exchange two. Positions index the routes' `nodes`. */
export interface PairMove {
  delta: number;
  kind: 'relocate-ab' | 'relocate-ba' | 'swap';
  /** position in a (relocate-ab, swap) or in b (relocate-ba) of the job that moves */
  i: number;
  /** position in b of the job that moves to a (swap) */
  q: number;
  /** insertion position of the job moving into b (ab/swap) or into a (ba), in the route without the removed node */
  posInB: number;
  posInA: number;
}

/**
 * The relocate / exchange neighbourhood of one pair of routes (Savelsbergh 1992; Toth & Vigo 2014,
 * ch. 5), scored exactly: for every job of one route, its three cheapest insertions into the other
 * (so the cheapest insertion into the other route without any one of its nodes is known in O(1)).
 */
export class PairSearch {
  private costA = new Float64Array(0);
  private posA = new Int32Array(0);
  private costB = new Float64Array(0);
  private posB = new Int32Array(0);
  private gainA = new Float64Array(0);
  private gainB = new Float64Array(0);

  constructor(
    private readonly m: SphereMetric,
    private readonly isNew: (node: number) => boolean,
    private readonly nodeJob: number[],
    private readonly pickNeed: Float64Array,
    private readonly dropNeed: Float64Array,
    /** Whether the worker may take the job (its `eligible` list). */
    private readonly allowed: (job: number, worker: number) => boolean = () => true,
  ) {}

  best(
    ra: PathRoute,
    rb: PathRoute,
    a: number,
    b: number,
    pickRoom: Float64Array,
    dropRoom: Float64Array,
    count: Int32Array,
    sizeMode: boolean,
  ): PairMove | null {
    const { m } = this;
    const la = ra.nodes.length;
    const lb = rb.nodes.length;
    if (this.costA.length < 3 * la) {
      this.costA = new Float64Array(3 * la * 2);
      this.posA = new Int32Array(3 * la * 2);
    }
    if (this.costB.length < 3 * lb) {
      this.costB = new Float64Array(3 * lb * 2);
      this.posB = new Int32Array(3 * lb * 2);
    }
    // costA[3i..]: node i of a into b; costB[3q..]: node q of b into a
    for (let i = 0; i < la; i++) if (this.isNew(ra.nodes[i])) top3Insertions(m, rb, ra.nodes[i], this.costA, this.posA, 3 * i);
    for (let q = 0; q < lb; q++) if (this.isNew(rb.nodes[q])) top3Insertions(m, ra, rb.nodes[q], this.costB, this.posB, 3 * q);
    if (this.gainA.length < la) this.gainA = new Float64Array(2 * la);
    if (this.gainB.length < lb) this.gainB = new Float64Array(2 * lb);
    const { gainA, gainB } = this;
    for (let i = 0; i < la; i++) gainA[i] = removalGain(m, ra, i);
    for (let q = 0; q < lb; q++) gainB[q] = removalGain(m, rb, q);

    let best: PairMove | null = null;
    let bestDelta = -EPS;
    const relocOk = (from: number, to: number, job: number) =>
      pickRoom[to] >= this.pickNeed[job] &&
      dropRoom[to] >= this.dropNeed[job] &&
      (!sizeMode || count[from] === count[to] + 1) &&
      this.allowed(job, to);
    for (let i = 0; i < la; i++) {
      if (!this.isNew(ra.nodes[i])) continue;
      const d = this.costA[3 * i] - gainA[i];
      if (d < bestDelta && relocOk(a, b, this.nodeJob[ra.nodes[i]])) {
        bestDelta = d;
        best = { delta: d, kind: 'relocate-ab', i, q: -1, posInB: this.posA[3 * i], posInA: -1 };
      }
    }
    for (let q = 0; q < lb; q++) {
      if (!this.isNew(rb.nodes[q])) continue;
      const d = this.costB[3 * q] - gainB[q];
      if (d < bestDelta && relocOk(b, a, this.nodeJob[rb.nodes[q]])) {
        bestDelta = d;
        best = { delta: d, kind: 'relocate-ba', i: q, q: -1, posInB: -1, posInA: this.posB[3 * q] };
      }
    }
    // exchange
    for (let i = 0; i < la; i++) {
      const ni = ra.nodes[i];
      if (!this.isNew(ni)) continue;
      const ji = this.nodeJob[ni];
      if (!this.allowed(ji, b)) continue;
      const pa = prevAt(ra, i);
      const na = nextAt(ra, i + 1);
      for (let q = 0; q < lb; q++) {
        const nq = rb.nodes[q];
        if (!this.isNew(nq)) continue;
        // quick bound: the insertions cost at least 0 only if ... use exact values below
        const jq = this.nodeJob[nq];
        const dp = this.pickNeed[ji] - this.pickNeed[jq];
        const dd = this.dropNeed[ji] - this.dropNeed[jq];
        if (pickRoom[b] < dp || dropRoom[b] < dd || pickRoom[a] < -dp || dropRoom[a] < -dd || !this.allowed(jq, a)) continue;
        // ni into b without nq
        const pb = prevAt(rb, q);
        const nbq = nextAt(rb, q + 1);
        let inB = detour(m, pb, ni, nbq);
        let posInB = q;
        for (let t = 0; t < 3; t++) {
          const p = this.posA[3 * i + t];
          if (p < 0) break;
          if (p === q || p === q + 1) continue;
          if (this.costA[3 * i + t] < inB) {
            inB = this.costA[3 * i + t];
            posInB = p > q ? p - 1 : p;
          }
          break;
        }
        const partial = inB - gainA[i] - gainB[q];
        if (partial >= bestDelta) continue; // inserting nq into a costs ≥ 0 by the triangle inequality
        let inA = detour(m, pa, nq, na);
        let posInA = i;
        for (let t = 0; t < 3; t++) {
          const p = this.posB[3 * q + t];
          if (p < 0) break;
          if (p === i || p === i + 1) continue;
          if (this.costB[3 * q + t] < inA) {
            inA = this.costB[3 * q + t];
            posInA = p > i ? p - 1 : p;
          }
          break;
        }
        const d = partial + inA;
        if (d < bestDelta) {
          bestDelta = d;
          best = { delta: d, kind: 'swap', i, q, posInB, posInA };
        }
      }
    }
    return best;
  }

  apply(
    mv: PairMove,
    ra: PathRoute,
    rb: PathRoute,
    a: number,
    b: number,
    pickRoom: Float64Array,
    dropRoom: Float64Array,
    count: Int32Array,
    assignedTo: Int32Array,
  ): void {
    const move = (node: number, from: number, to: number) => {
      const j = this.nodeJob[node];
      pickRoom[from] += this.pickNeed[j];
      dropRoom[from] += this.dropNeed[j];
      pickRoom[to] -= this.pickNeed[j];
      dropRoom[to] -= this.dropNeed[j];
      count[from]--;
      count[to]++;
      assignedTo[j] = to;
    };
    if (mv.kind === 'relocate-ab') {
      const [node] = ra.nodes.splice(mv.i, 1);
      rb.nodes.splice(mv.posInB, 0, node);
      move(node, a, b);
    } else if (mv.kind === 'relocate-ba') {
      const [node] = rb.nodes.splice(mv.i, 1);
      ra.nodes.splice(mv.posInA, 0, node);
      move(node, b, a);
    } else {
      const [ni] = ra.nodes.splice(mv.i, 1);
      const [nq] = rb.nodes.splice(mv.q, 1);
      rb.nodes.splice(mv.posInB, 0, ni);
      ra.nodes.splice(mv.posInA, 0, nq);
      move(ni, a, b);
      move(nq, b, a);
    }
  }
}
