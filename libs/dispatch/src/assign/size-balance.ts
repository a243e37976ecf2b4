import { AssignSearch } from './assign-search';
import { cheapestInsertion, detour, nextAt, prevAt } from './path-route';
import { RegretInsertion } from './regret-insertion';

/**
 * `size`'s construction: water-filling quotas ({@link setQuotas}), raised while jobs remain that some
 * eligible worker has room for, with the regret insertion placing the located jobs within them; then
 * each job without coordinates goes to the eligible worker with the fewest jobs that has room; then
 * {@link rebalance}.
 */
export function constructEvenly(s: AssignSearch, insertion: RegretInsertion): void {
  let remaining = s.locatedJobs.filter((j) => s.workable(j));
  for (let round = 0; round < 50 && remaining.length; round++) {
    setQuotas(s, remaining);
    insertion.insert(remaining);
    const left = remaining.filter((j) => s.assignedTo[j] < 0 && s.workable(j));
    if (left.length === remaining.length) break;
    remaining = left;
  }
  s.quota.fill(Infinity);
  for (const j of s.unlocatedJobs) {
    let best = -1;
    for (const w of s.eligibleOf(j)) if (s.fitsItems(w, j) && (best < 0 || s.count[w] < s.count[best])) best = w;
    if (best < 0) continue;
    s.take(j, best);
  }
  rebalance(s);
}

/**
 * `size`'s rule broken how often: workers that have room for the smallest job yet two jobs fewer
 * than the busiest worker that got new ones.
 */
export function imbalance(s: AssignSearch): number {
  const { W, count, baseCount, pickRoom, dropRoom, minPickAll, minDropAll } = s;
  let maxNew = -1;
  for (let w = 0; w < W; w++) if (count[w] > baseCount[w] && count[w] > maxNew) maxNew = count[w];
  let bad = 0;
  for (let w = 0; w < W; w++) if (count[w] <= maxNew - 2 && pickRoom[w] >= minPickAll && dropRoom[w] >= minDropAll) bad++;
  return bad;
}

/**
 * `size`: while a worker A has two jobs more than a worker B that may take one of A's new jobs
 * (eligible, with room), move the one whose move lengthens the routes least — the quotas are
 * estimates when item counts differ, and a job that needs capacity can leave a slot to one that
 * needs none. Ends: Σ count² falls with every move.
 */
export function rebalance(s: AssignSearch): void {
  const { W, n, count, assignedTo, jobNode, routes, m, pickRoom, dropRoom, pickNeed, dropNeed } = s;
  const order = Array.from({ length: W }, (_, w) => w);
  for (;;) {
    order.sort((x, y) => count[y] - count[x] || x - y);
    let moved = false;
    for (let ia = 0; ia < W && !moved; ia++) {
      const a = order[ia];
      for (let ib = W - 1; ib > ia && !moved; ib--) {
        const b = order[ib];
        if (count[a] <= count[b] + 1) break;
        let bestJob = -1;
        let bestDelta = Infinity;
        let bestPos = -1;
        for (let j = 0; j < n; j++) {
          if (assignedTo[j] !== a || !s.allowed(j, b) || !s.fitsItems(b, j)) continue;
          let delta = 0;
          let pos = -1;
          if (jobNode[j] >= 0) {
            const ra = routes[a];
            const at = ra.nodes.indexOf(jobNode[j]);
            const ins = cheapestInsertion(m, routes[b], jobNode[j]);
            delta = ins.cost - detour(m, prevAt(ra, at), jobNode[j], nextAt(ra, at + 1));
            pos = ins.pos;
          }
          if (delta < bestDelta) {
            bestDelta = delta;
            bestJob = j;
            bestPos = pos;
          }
        }
        if (bestJob < 0) continue;
        if (jobNode[bestJob] >= 0) {
          const ra = routes[a];
          ra.nodes.splice(ra.nodes.indexOf(jobNode[bestJob]), 1);
          routes[b].nodes.splice(bestPos, 0, jobNode[bestJob]);
        }
        assignedTo[bestJob] = b;
        count[a]--;
        count[b]++;
        pickRoom[a] += pickNeed[bestJob];
        dropRoom[a] += dropNeed[bestJob];
        pickRoom[b] -= pickNeed[bestJob];
        dropRoom[b] -= dropNeed[bestJob];
        moved = true;
      }
    }
    if (!moved) return;
  }
}

/** quota[w] = the worker's total after water-filling `jobList.length` slots over the workers with room. */
export function setQuotas(s: AssignSearch, jobList: number[]): void {
  const { W, pickNeed, dropNeed, pickRoom, dropRoom, count, quota } = s;
  const minPos = (need: Float64Array) => {
    let v = Infinity;
    for (const j of jobList) if (need[j] > 0 && need[j] < v) v = need[j];
    return v;
  };
  const minPick = minPos(pickNeed);
  const minDrop = minPos(dropNeed);
  let free = 0; // jobs that need no capacity at all: any worker can take them all
  for (const j of jobList) if (pickNeed[j] === 0 && dropNeed[j] === 0) free++;
  const useful = new Uint8Array(W);
  for (const j of jobList) for (const w of s.eligibleOf(j)) if (s.fitsItems(w, j)) useful[w] = 1;
  const cap = new Float64Array(W);
  for (let w = 0; w < W; w++) {
    const byPick = minPick === Infinity ? Infinity : Math.floor(pickRoom[w] / minPick);
    const byDrop = minDrop === Infinity ? Infinity : Math.floor(dropRoom[w] / minDrop);
    cap[w] = useful[w] ? free + Math.max(0, Math.min(byPick, byDrop)) : 0;
    quota[w] = count[w];
  }
  for (let slot = 0; slot < jobList.length; slot++) {
    let best = -1;
    for (let w = 0; w < W; w++) if (quota[w] - count[w] < cap[w] && (best < 0 || quota[w] < quota[best])) best = w;
    if (best < 0) break;
    quota[best]++;
  }
}
