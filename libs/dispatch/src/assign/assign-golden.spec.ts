import { createHash } from 'node:crypto';
import { mulberry32 } from '../random';
import { GeoPoint } from '../types';
import { AssignInput, assignJobs, AssignJob, AssignWorker } from './assign-jobs';

/**
 * A golden check of the search's exact path: seeded instances (every method; capacities, existing
 * jobs, fixed ends, eligibility, jobs without coordinates), solved without a deadline so the result
 * depends on the seed only, fingerprinted (assignment, route orders, objectives, move and ruin counts).
 * A change of the random stream, the order of moves or a tie-break changes a fingerprint: update the
 * hashes only for a change meant to alter the search (and say so).
 */
function goldenInstance(seed: number, n: number, w: number, method: AssignInput['method']): AssignInput {
  const rnd = mulberry32(seed);
  const around = (): GeoPoint => ({ lat: 46 + (rnd() - 0.5) * 0.6, lng: 14.5 + (rnd() - 0.5) * 0.9 });
  const workers: AssignWorker[] = Array.from({ length: w }, (_, i) => ({
    id: `w${i}`,
    start: rnd() < 0.75 ? around() : null,
    end: rnd() < 0.3 ? around() : null,
    pickupCapacity: rnd() < 0.5 ? null : 5 + Math.floor(rnd() * 30),
    dropoffCapacity: rnd() < 0.5 ? null : 5 + Math.floor(rnd() * 30),
    existing: Array.from({ length: Math.floor(rnd() * 4) }, () => ({
      point: rnd() < 0.8 ? around() : null,
      pickup: Math.floor(rnd() * 3),
      dropoff: Math.floor(rnd() * 3),
    })),
  }));
  const jobs: AssignJob[] = Array.from({ length: n }, (_, i) => ({
    id: `j${i}`,
    point: rnd() < 0.93 ? around() : null,
    pickup: Math.floor(rnd() * 3),
    dropoff: Math.floor(rnd() * 3),
    eligible: method === 'zones' || rnd() < 0.1 ? workers.filter(() => rnd() < 0.5).map((x) => x.id) : null,
  }));
  return { jobs, workers, method, seed: seed * 7 + 1, budgetMs: 1e9 };
}

/** What must not change: everything but the clock's readings. */
function fingerprint(input: AssignInput): string {
  const out = assignJobs(input);
  const kept = {
    assigned: out.assigned,
    unassigned: out.unassigned,
    routes: out.routes,
    objectiveM: out.objectiveM,
    constructionObjectiveM: out.constructionObjectiveM,
    moves: out.moves,
    ruins: out.ruins,
    converged: out.converged,
  };
  return createHash('sha256').update(JSON.stringify(kept)).digest('hex').slice(0, 16);
}

const CASES: Array<[number, number, number, AssignInput['method'], string]> = [
  [1, 50, 4, 'distance', '157b70d5e8b4fef9'],
  [2, 90, 9, 'distance', '84a0e1da9fb52e8e'],
  [3, 120, 7, 'size', 'db714c3cd8084945'],
  [4, 40, 12, 'size', 'dec217a62405e76b'],
  [5, 70, 6, 'zones', '1ebe426bb2cfcec6'],
  [6, 110, 15, 'distance', '91f15c3db61993dc'],
];

describe('assignJobs: golden fingerprints (the exact search path on fixed seeds)', () => {
  it.each(CASES)('seed %i, %i jobs, %i workers, %s', (seed, n, w, method, hash) => {
    expect(fingerprint(goldenInstance(seed, n, w, method))).toBe(hash);
  });
});
