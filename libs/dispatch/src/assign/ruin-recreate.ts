import { AssignSearch } from './assign-search';
import { PairDescent } from './pair-descent';
import { improvePath } from './path-route';
import { RegretInsertion } from './regret-insertion';

/**
 * Ruin and recreate (`distance`, `zones`; Schrimpf, Schneider, Stamm-Wilbrandt & Dueck 2000; the
 * related removal of Shaw 1998): `rounds` times, remove the 8–24 placed jobs nearest a random one,
 * re-insert them by the regret insertion, run the pair search from the touched workers, and keep the
 * result only if every job found a place and the routes got shorter (else restore, `s.moves`
 * included). The objective never increases.
 * @param deadline `performance.now()` past which no new round starts
 * @returns the rounds kept, and whether it ended without hitting the deadline (`converged`)
 */
export function ruinAndRecreate(
  s: AssignSearch,
  insertion: RegretInsertion,
  descent: PairDescent,
  rounds: number,
  random: () => number,
  deadline: number,
): { ruins: number; converged: boolean } {
  const { n, W, routes, locatedJobs, assignedTo, jobNode, m, count, pickRoom, dropRoom, pickNeed, dropNeed } = s;
  let ruins = 0;
  let converged = true;
  let best = s.totalLength();
  const placed: number[] = [];
  const dist = new Float64Array(n);
  for (let round = 0; round < rounds; round++) {
    if (performance.now() > deadline) {
      converged = false;
      break;
    }
    placed.length = 0;
    for (const j of locatedJobs) if (assignedTo[j] >= 0) placed.push(j);
    if (placed.length < 2) break;
    const q = Math.min(placed.length, 8 + Math.floor(random() * 17)); // 8..24 jobs
    const seedJob = placed[Math.floor(random() * placed.length)];
    for (const j of placed) dist[j] = m.d(jobNode[seedJob], jobNode[j]);
    placed.sort((x, y) => dist[x] - dist[y] || x - y);
    const removed = placed.slice(0, q);
    const saved = {
      nodes: routes.map((r) => [...r.nodes]),
      pickRoom: Float64Array.from(pickRoom),
      dropRoom: Float64Array.from(dropRoom),
      count: Int32Array.from(count),
      assignedTo: Int32Array.from(assignedTo),
      moves: s.moves,
    };
    const touched = new Set<number>();
    for (const j of removed) {
      const w = assignedTo[j];
      touched.add(w);
      const r = routes[w];
      r.nodes.splice(r.nodes.indexOf(jobNode[j]), 1);
      assignedTo[j] = -1;
      count[w]--;
      pickRoom[w] += pickNeed[j];
      dropRoom[w] += dropNeed[j];
    }
    insertion.insert(removed);
    let complete = true;
    for (const j of removed) {
      if (assignedTo[j] < 0) complete = false;
      else touched.add(assignedTo[j]);
    }
    if (complete) {
      for (const w of touched) improvePath(m, routes[w]);
      if (!descent.descend(descent.pairsOf(touched))) converged = false;
    }
    const now = s.totalLength();
    if (complete && now < best - 1e-6) {
      best = now;
      ruins++;
    } else {
      for (let w = 0; w < W; w++) routes[w].nodes = saved.nodes[w];
      pickRoom.set(saved.pickRoom);
      dropRoom.set(saved.dropRoom);
      count.set(saved.count);
      assignedTo.set(saved.assignedTo);
      s.moves = saved.moves;
    }
    if (!converged) break;
  }
  return { ruins, converged };
}
