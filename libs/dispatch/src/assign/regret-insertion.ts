import { AssignSearch } from './assign-search';
import { cheapestInsertion, detour, nextAt, PathRoute, prevAt } from './path-route';
import { SphereMetric } from './sphere-metric';

const BIG = 1e9; // m: the missing k-th option of a job's regret

/**
 * The construction of `assignJobs`: regret-k insertion (Potvin & Rousseau 1993; the regret-k form of
 * Ropke & Pisinger 2006). Every pending job keeps its cheapest insertion (Rosenkrantz, Stearns & Lewis
 * 1977) into each of its candidate workers — the `candidates` nearest by anchor, plus every anchorless
 * one — and the job with the largest regret Σ_{i=2..k}(c_i − c_1) is inserted first (fewer than k
 * feasible workers count the missing ones as +1e9 m). Insertion costs are updated incrementally: only
 * the edge the last insertion replaced can invalidate a stored best position. Used by the construction
 * (all located jobs; `size`: within the quotas) and by ruin and recreate (the removed jobs).
 */
export class RegretInsertion {
  private readonly m: SphereMetric;
  private readonly routes: PathRoute[];
  private readonly W: number;
  /** candidate workers per job */
  private readonly K: number;
  /** regret order k (2 or 3) */
  private readonly kRegret: number;
  private readonly cand: number[][];
  private readonly candCost: number[][];
  private readonly candPrev: number[][];
  private readonly candNext: number[][];
  private readonly jobsOf: number[][];
  /** j * W + w: j is in jobsOf[w] */
  private readonly registered: Uint8Array;
  private readonly regretOf: Float64Array;
  private readonly bestCostOf: Float64Array;
  /** index into cand[j] of the cheapest feasible */
  private readonly bestSlot: Int32Array;
  private readonly feasibleCount: Int32Array;
  /** The jobs still to place: a dense list with O(1) removal (swap with the last). */
  private readonly pending: PendingSet;

  constructor(
    private readonly s: AssignSearch,
    options: { regret?: 2 | 3; candidates?: number },
  ) {
    const { n, W } = s;
    this.m = s.m;
    this.routes = s.routes;
    this.W = W;
    this.kRegret = options.regret ?? 3;
    this.K = Math.max(1, Math.min(W, options.candidates ?? 8));
    this.cand = new Array<number[]>(n);
    this.candCost = new Array<number[]>(n);
    this.candPrev = new Array<number[]>(n);
    this.candNext = new Array<number[]>(n);
    this.jobsOf = Array.from({ length: W }, () => []);
    this.registered = new Uint8Array(n * W);
    this.regretOf = new Float64Array(n);
    this.bestCostOf = new Float64Array(n);
    this.bestSlot = new Int32Array(n);
    this.feasibleCount = new Int32Array(n);
    this.pending = new PendingSet(n);
  }

  /**
   * Regret insertion of `jobs` (unplaced, located). A job whose candidates are all full gets a fresh
   * list (the nearest workers that still have room); one that has none left stays unplaced (rooms
   * only shrink).
   */
  insert(jobs: Iterable<number>): void {
    const { pending, feasibleCount, regretOf, bestCostOf, bestSlot, cand, candPrev } = this;
    for (const j of jobs) pending.add(j);
    for (let i = 0; i < pending.size; i++) {
      const j = pending.items[i];
      this.buildCandidates(j);
      this.scoreJob(j);
    }
    while (pending.size) {
      let pick = -1;
      for (let i = pending.size - 1; i >= 0; i--) {
        const j = pending.items[i];
        if (feasibleCount[j] === 0) {
          this.buildCandidates(j);
          this.scoreJob(j);
          if (feasibleCount[j] === 0) {
            pending.delete(j);
            continue;
          }
        }
        if (
          pick < 0 ||
          regretOf[j] > regretOf[pick] ||
          (regretOf[j] === regretOf[pick] && (bestCostOf[j] < bestCostOf[pick] || (bestCostOf[j] === bestCostOf[pick] && j < pick)))
        ) {
          pick = j;
        }
      }
      if (pick < 0) break;
      const c = bestSlot[pick];
      this.placeJob(pick, cand[pick][c], candPrev[pick][c]);
    }
    pending.clear();
  }

  /** The job's candidate workers: the K nearest feasible eligible ones by anchor, plus every feasible anchorless one. */
  private candidatesOf(j: number): number[] {
    const { s, K, m } = this;
    const { anchor } = s;
    const node = s.jobNode[j];
    const bestW: number[] = [];
    const bestD: number[] = [];
    const out: number[] = [];
    for (const w of s.eligibleOf(j)) {
      if (!s.fits(w, j)) continue;
      if (anchor[w] < 0) {
        out.push(w);
        continue;
      }
      const dist = m.d(node, anchor[w]);
      if (bestW.length < K || dist < bestD[bestD.length - 1]) {
        let i = bestW.length;
        if (bestW.length === K) {
          bestW.pop();
          bestD.pop();
          i = K - 1;
        }
        while (i > 0 && bestD[i - 1] > dist) i--;
        bestW.splice(i, 0, w);
        bestD.splice(i, 0, dist);
      }
    }
    return [...bestW, ...out];
  }

  private setInsertion(j: number, c: number): void {
    const r = this.routes[this.cand[j][c]];
    const { pos, cost } = cheapestInsertion(this.m, r, this.s.jobNode[j]);
    this.candCost[j][c] = cost;
    this.candPrev[j][c] = prevAt(r, pos);
    this.candNext[j][c] = nextAt(r, pos);
  }

  private buildCandidates(j: number): void {
    const { W, registered, jobsOf } = this;
    const list = this.candidatesOf(j);
    this.cand[j] = list;
    this.candCost[j] = new Array<number>(list.length);
    this.candPrev[j] = new Array<number>(list.length);
    this.candNext[j] = new Array<number>(list.length);
    for (let c = 0; c < list.length; c++) {
      const w = list[c];
      if (!registered[j * W + w]) {
        registered[j * W + w] = 1;
        jobsOf[w].push(j);
      }
      this.setInsertion(j, c);
    }
  }

  private scoreJob(j: number): void {
    const { s } = this;
    let c1 = Infinity,
      c2 = Infinity,
      c3 = Infinity;
    let slot = -1;
    let feasible = 0;
    const list = this.cand[j];
    const costs = this.candCost[j];
    for (let c = 0; c < list.length; c++) {
      if (!s.fits(list[c], j)) continue;
      feasible++;
      const v = costs[c];
      if (v < c1 || (v === c1 && list[c] < list[slot])) {
        c3 = c2;
        c2 = c1;
        c1 = v;
        slot = c;
      } else if (v < c2) {
        c3 = c2;
        c2 = v;
      } else if (v < c3) c3 = v;
    }
    this.feasibleCount[j] = feasible;
    this.bestSlot[j] = slot;
    this.bestCostOf[j] = c1;
    const r2 = feasible >= 2 ? c2 - c1 : BIG;
    const r3 = this.kRegret >= 3 ? (feasible >= 3 ? c3 - c1 : BIG) : 0;
    this.regretOf[j] = r2 + r3;
  }

  /** Inserts job `j` into worker `w`'s route after node `prev`, and updates the stored insertions into `w`. */
  private placeJob(j: number, w: number, prev: number): void {
    const { s, m, W, pending, registered, cand, candCost, candPrev, candNext } = this;
    const { jobNode } = s;
    const r = this.routes[w];
    const pos = prev === r.start ? 0 : r.nodes.indexOf(prev) + 1;
    const next = nextAt(r, pos);
    const node = jobNode[j];
    r.nodes.splice(pos, 0, node);
    s.take(j, w);
    pending.delete(j);
    // update the stored insertions into w of the jobs that have w as a candidate (dropping placed ones)
    const list = this.jobsOf[w];
    let kept = 0;
    for (let x = 0; x < list.length; x++) {
      const u = list[x];
      if (!pending.has(u)) {
        registered[u * W + w] = 0;
        continue;
      }
      list[kept++] = u;
      const c = cand[u].indexOf(w);
      if (c < 0) continue;
      if (candPrev[u][c] === prev && candNext[u][c] === next) this.setInsertion(u, c);
      else {
        const un = jobNode[u];
        const a = detour(m, prev, un, node);
        const b = detour(m, node, un, next);
        if (a < candCost[u][c]) {
          candCost[u][c] = a;
          candPrev[u][c] = prev;
          candNext[u][c] = node;
        }
        if (b < candCost[u][c]) {
          candCost[u][c] = b;
          candPrev[u][c] = node;
          candNext[u][c] = next;
        }
      }
      this.scoreJob(u);
    }
    list.length = kept;
  }
}

/** A set of job indices 0..n-1 with O(1) add, delete and membership, iterable as `items[0..size)`. */
class PendingSet {
  readonly items: Int32Array;
  private readonly at: Int32Array;
  size = 0;

  constructor(n: number) {
    this.items = new Int32Array(n);
    this.at = new Int32Array(n).fill(-1);
  }

  has(j: number): boolean {
    return this.at[j] >= 0;
  }

  add(j: number): void {
    if (this.at[j] >= 0) return;
    this.at[j] = this.size;
    this.items[this.size++] = j;
  }

  delete(j: number): void {
    const i = this.at[j];
    if (i < 0) return;
    const last = this.items[--this.size];
    this.items[i] = last;
    this.at[last] = i;
    this.at[j] = -1;
  }

  clear(): void {
    for (let i = 0; i < this.size; i++) this.at[this.items[i]] = -1;
    this.size = 0;
  }
}
