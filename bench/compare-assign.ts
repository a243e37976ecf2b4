/**
 * `assignJobs` of this tree against another tree's, in ONE process, calls alternating (A B, B A, …) on
 * the autoassign bench's instance (2,000 jobs × 100 workers, `bench/autoassign.ts`): both meet the same
 * moment's machine, so the ratio survives this VM's load swings (separate processes drawn minutes apart
 * differ by up to 1.7× with no code change — see bench/RESULTS.md "autoassign").
 *
 *   COMPARE_ASSIGN_FROM=/path/to/other/libs/dispatch/src/assign/assign-jobs.ts \
 *     TS_NODE_PROJECT=tsconfig.json TS_NODE_TRANSPILE_ONLY=true \
 *     node -r ts-node/register -r tsconfig-paths/register bench/compare-assign.ts
 *
 * The other file must import only relative paths (true of `assign-jobs.ts` before and after the
 * AssignSearch split). Env: `COMPARE_ROUNDS` (30; the first 2 are warm-up), `COMPARE_BUDGET_MS` (unset
 * = the default budget, as the bench; 5000 = run to convergence, same work on both sides). Prints the
 * p50 of each side's `elapsedMs` (ms) and the p50 of the paired ratios ours / theirs, and any seed on
 * which the two searches differ in moves or objective (they should not when both converge).
 */
import { assignJobs, AssignInput, AssignOutput } from '@app/dispatch/pure';
import { autoassignInstance } from './autoassign';

type Assign = (input: AssignInput) => AssignOutput;

const from = process.env.COMPARE_ASSIGN_FROM;
if (!from) {
  process.stderr.write('COMPARE_ASSIGN_FROM: the path of the other tree’s assign-jobs.ts is required\n');
  process.exit(2);
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a file of another checkout, chosen at run time
const theirs = (require(from) as { assignJobs: Assign }).assignJobs;
const ours: Assign = assignJobs;
const rounds = Number(process.env.COMPARE_ROUNDS ?? 30);
const budgetMs = process.env.COMPARE_BUDGET_MS ? Number(process.env.COMPARE_BUDGET_MS) : undefined;
const { jobs, workers } = autoassignInstance();

const oursMs: number[] = [];
const theirsMs: number[] = [];
const ratios: number[] = [];
for (let round = 0; round < rounds; round++) {
  const seed = (round % 6) + 1;
  const run = (f: Assign) => f({ jobs, workers, method: 'distance', seed, budgetMs });
  const [a, b] = round % 2 ? [run(ours), run(theirs)] : (([t, o]) => [o, t])([run(theirs), run(ours)]);
  if (a.converged && b.converged && (a.moves !== b.moves || Math.abs(a.objectiveM - b.objectiveM) > 1e-6)) {
    process.stdout.write(`seed ${seed}: ours ${a.moves} moves ${a.objectiveM.toFixed(0)} m, theirs ${b.moves} moves ${b.objectiveM.toFixed(0)} m\n`);
  }
  if (round < 2) continue; // warm-up: both sides' code compiled by the JIT
  oursMs.push(a.elapsedMs);
  theirsMs.push(b.elapsedMs);
  ratios.push(a.elapsedMs / b.elapsedMs);
}
const p50 = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)];
process.stdout.write(
  `assignJobs p50: ours ${p50(oursMs).toFixed(0)} ms, theirs ${p50(theirsMs).toFixed(0)} ms; paired ratio p50 ${p50(ratios).toFixed(3)}× (${ratios.length} pairs, budget ${budgetMs ?? 'default'})\n`,
);
