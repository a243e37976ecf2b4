import { GeoPoint } from '../types';
import { AssignSearch, sphericalMean } from './assign-search';
import { PairSearch } from './pair-search';
import { improvePath } from './path-route';
import { imbalance } from './size-balance';
import { SphereMetric } from './sphere-metric';

/**
 * The local search between workers of `assignJobs`: each worker with the `neighbours` workers whose
 * routes' centres are nearest; a queue of such pairs, each searched for its best improving relocate or
 * exchange ({@link PairSearch}: Savelsbergh 1992; Toth & Vigo 2014, ch. 5). An applied move re-optimises
 * both routes by 2-opt/Or-opt and queues the pairs of those two workers again, until no queued pair
 * improves or the deadline. Under `size` a move that gives room to a worker two jobs short of the
 * busiest one ({@link imbalance} grows) is undone.
 */
export class PairDescent {
  /** worker → its neighbouring workers (symmetric) */
  private readonly nb: Array<Set<number>>;
  private readonly search: PairSearch;
  /** the pair keys in the queue */
  private readonly queued = new Set<number>();

  /**
   * @param neighbours workers each worker tries moves with (default 8)
   * @param deadline `performance.now()` past which {@link descend} stops
   */
  constructor(
    private readonly s: AssignSearch,
    neighbours: number | undefined,
    private readonly deadline: number,
  ) {
    const { W, routes, points } = s;
    // neighbouring worker pairs: each worker with the `neighbours` workers whose routes' centres are nearest
    const centres = routes.map((r) => {
      const pts: GeoPoint[] = [];
      if (r.start >= 0) pts.push(points[r.start]);
      for (const v of r.nodes) pts.push(points[v]);
      return sphericalMean(pts);
    });
    const cm = new SphereMetric(centres.map((c) => c ?? { lat: 0, lng: 0 }));
    const P = Math.min(W - 1, neighbours ?? 8);
    const nb: Array<Set<number>> = (this.nb = Array.from({ length: W }, () => new Set<number>()));
    const near = new Int32Array(Math.max(P, 0));
    const nearD = new Float64Array(Math.max(P, 0));
    for (let a = 0; a < W; a++) {
      if (!centres[a] || P <= 0) continue;
      // the P nearest other centres (insertion into a short sorted list; ties by index)
      let len = 0;
      for (let b = 0; b < W; b++) {
        if (b === a || !centres[b]) continue;
        const dist = cm.d(a, b);
        if (len === P && dist >= nearD[P - 1]) continue;
        let i = len < P ? len++ : P - 1;
        while (i > 0 && nearD[i - 1] > dist) {
          nearD[i] = nearD[i - 1];
          near[i] = near[i - 1];
          i--;
        }
        nearD[i] = dist;
        near[i] = b;
      }
      for (let i = 0; i < len; i++) {
        nb[a].add(near[i]);
        nb[near[i]].add(a);
      }
    }
    this.search = new PairSearch(s.m, s.isNew, s.nodeJob, s.pickNeed, s.dropNeed, s.allowed);
  }

  /** The key of the pair {a, b}. */
  private pairKey(a: number, b: number): number {
    const { W } = this.s;
    return a < b ? a * W + b : b * W + a;
  }

  /** Every neighbouring pair once, shuffled by `random` (Fisher–Yates): the first descent's queue. */
  initialPairs(random: () => number): number[] {
    const { nb } = this;
    const initial: number[] = [];
    for (let a = 0; a < this.s.W; a++) for (const b of nb[a]) if (a < b) initial.push(this.pairKey(a, b));
    for (let i = initial.length - 1; i > 0; i--) {
      const k = Math.floor(random() * (i + 1));
      const t = initial[i];
      initial[i] = initial[k];
      initial[k] = t;
    }
    return initial;
  }

  /** The pairs of each worker of `workers` with its neighbours, in that order. */
  pairsOf(workers: Iterable<number>): number[] {
    const keys: number[] = [];
    for (const w of workers) for (const o of this.nb[w]) keys.push(this.pairKey(w, o));
    return keys;
  }

  /** Pair local search from `keys` until no queued pair improves (true) or the deadline (false). Counts `s.moves`. */
  descend(keys: number[]): boolean {
    const { s, search, queued, nb, deadline } = this;
    const { W, routes, pickRoom, dropRoom, count, assignedTo, sizeMode, m, isNew, nodeJob } = s;
    const queue: number[] = [];
    for (const key of keys) {
      if (queued.has(key)) continue;
      queued.add(key);
      queue.push(key);
    }
    let head = 0;
    while (head < queue.length) {
      if (performance.now() > deadline) {
        queued.clear();
        return false;
      }
      const key = queue[head++];
      queued.delete(key);
      const a = Math.floor(key / W);
      const b = key % W;
      const move = search.best(routes[a], routes[b], a, b, pickRoom, dropRoom, count, sizeMode);
      if (!move) continue;
      if (sizeMode) {
        // an exchange or relocation keeps the counts but can give room to a worker two jobs short: undo it then
        const before = imbalance(s);
        const saved: [number[], number[], number, number, number, number, number, number] = [
          [...routes[a].nodes],
          [...routes[b].nodes],
          pickRoom[a],
          pickRoom[b],
          dropRoom[a],
          dropRoom[b],
          count[a],
          count[b],
        ];
        search.apply(move, routes[a], routes[b], a, b, pickRoom, dropRoom, count, assignedTo);
        if (imbalance(s) > before) {
          [routes[a].nodes, routes[b].nodes, pickRoom[a], pickRoom[b], dropRoom[a], dropRoom[b], count[a], count[b]] = saved;
          for (const v of routes[a].nodes) if (isNew(v)) assignedTo[nodeJob[v]] = a;
          for (const v of routes[b].nodes) if (isNew(v)) assignedTo[nodeJob[v]] = b;
          continue;
        }
      } else search.apply(move, routes[a], routes[b], a, b, pickRoom, dropRoom, count, assignedTo);
      s.moves++;
      improvePath(m, routes[a]);
      improvePath(m, routes[b]);
      for (const w of [a, b]) {
        for (const o of nb[w]) {
          const k2 = this.pairKey(w, o);
          if (!queued.has(k2)) {
            queued.add(k2);
            queue.push(k2);
          }
        }
      }
      if (head > 4096 && head * 2 > queue.length) {
        queue.splice(0, head);
        head = 0;
      }
    }
    return true;
  }
}
