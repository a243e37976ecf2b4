/**
 * `BENCH_ONLY=tsp npm run bench`: the route solver (`solveTour`, optimizeroute's algorithm) on the
 * TSPLIB instances of bench/data/tsplib (`TSPLIB_DIR` overrides), closed tours from city 1
 * under TSPLIB's own distance functions, against the proven optima (the baseline). Pure CPU: no
 * database. Budgets are wall clock, so a busy machine (see the load average) lowers the figures.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultTourBudgetMs, geodesicMatrix, solveTour } from '@app/dispatch/pure';
import { markdownTable } from './stats';
import { readTsplib, tsplibMatrix } from './tsplib';

const DIR = process.env.TSPLIB_DIR ?? path.resolve(__dirname, 'data/tsplib');
/** Proven optima (TSPLIB's README / Reinelt 1995). */
const OPTIMA: Record<string, number> = {
  ulysses22: 7013,
  eil51: 426,
  berlin52: 7542,
  st70: 675,
  kroA100: 21282,
  ch150: 6528,
  kroA200: 29368,
  a280: 2579,
  pr439: 107217,
  pr1002: 259045,
};
const SEEDS = [1, 2, 3];

interface Row {
  name: string;
  n: number;
  optimum: number;
  gaps: number[];
  used: number[];
  toBest: number[];
}

function run(budget: (name: string, n: number) => number | undefined, log: (line: string) => void): Row[] {
  const rows: Row[] = [];
  for (const name of Object.keys(OPTIMA)) {
    const file = path.join(DIR, `${name}.tsp`);
    if (!fs.existsSync(file)) {
      log(`tsp: ${file} missing, skipped`);
      continue;
    }
    const m = tsplibMatrix(readTsplib(file));
    const row: Row = { name, n: m.n, optimum: OPTIMA[name], gaps: [], used: [], toBest: [] };
    for (const seed of SEEDS) {
      const r = solveTour(m, { kind: 'closed', start: 0, budgetMs: budget(name, m.n), seed });
      row.gaps.push(((r.length - row.optimum) / row.optimum) * 100);
      row.used.push(r.elapsedMs);
      row.toBest.push(r.timeToBestMs);
    }
    log(`tsp: ${name} gaps ${row.gaps.map((g) => g.toFixed(2)).join(' / ')} %`);
    rows.push(row);
  }
  return rows;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const pct = (x: number) => `${x.toFixed(2)} %`;
const ms = (xs: number[]) => `${mean(xs).toFixed(0)} (max ${Math.max(...xs).toFixed(0)})`;

function table(rows: Row[], budgetLabel: (r: Row) => string): string {
  return markdownTable(
    [
      'instance',
      'n',
      'optimum (baseline)',
      'budget ms',
      'best gap',
      'mean gap',
      'worst gap',
      'runs optimal',
      'time used ms, mean (max)',
      'time to best ms, mean (max)',
    ],
    rows.map((r) => [
      r.name,
      String(r.n),
      String(r.optimum),
      budgetLabel(r),
      pct(Math.min(...r.gaps)),
      pct(mean(r.gaps)),
      pct(Math.max(...r.gaps)),
      `${r.gaps.filter((g) => g <= 1e-9).length}/${r.gaps.length}`,
      ms(r.used),
      ms(r.toBest),
    ]),
  );
}

/**
 * Runs both tables (fixed budgets, then the default budget) and the geodesic matrix timing, prints
 * them through `print`; answers the exit code (1 when a target is missed and BENCH_STRICT=1).
 */
export function benchTsp(log: (line: string) => void, print: (text: string) => void): number {
  const loadStart = os.loadavg()[0].toFixed(2);
  const fixed = run((name) => (name === 'pr1002' ? 2000 : 1000), log);
  const byDefault = run(() => undefined, log);
  // targets of issue #11
  const small = fixed.filter((r) => r.n <= 200);
  const smallRuns = small.flatMap((r) => r.gaps);
  const optimalShare = smallRuns.filter((g) => g <= 1e-9).length / Math.max(1, smallRuns.length);
  const checks: Array<[string, boolean]> = [
    [`1 s: optimal in ≥ 80 % of runs for n ≤ 200 (${(optimalShare * 100).toFixed(0)} %)`, optimalShare >= 0.8],
    [`1 s: never above 0.5 % for n ≤ 200 (worst ${pct(Math.max(...smallRuns))})`, Math.max(...smallRuns) <= 0.5],
    ...fixed
      .filter((r) => r.n <= 439)
      .map((r): [string, boolean] => [`1 s: mean gap ≤ 0.3 % on ${r.name} (${pct(mean(r.gaps))})`, mean(r.gaps) <= 0.3]),
    ...fixed
      .filter((r) => r.name === 'pr1002')
      .map((r): [string, boolean] => [`2 s: pr1002 ≤ 2.5 % (worst ${pct(Math.max(...r.gaps))})`, Math.max(...r.gaps) <= 2.5]),
    ...byDefault
      .filter((r) => r.n <= 250)
      .map((r): [string, boolean] => [
        `default budget: ≤ 0.5 % on ${r.name} (worst ${pct(Math.max(...r.gaps))})`,
        Math.max(...r.gaps) <= 0.5,
      ]),
  ];
  // geodesic matrix cost (n² inverse problems through geographiclib)
  const pts = Array.from({ length: 300 }, (_, i) => ({ lat: 48 + ((i * 7919) % 1000) / 1000, lng: 11 + ((i * 104729) % 1000) / 1000 }));
  const t = performance.now();
  geodesicMatrix(pts);
  const geoMs = performance.now() - t;
  const failed = checks.filter(([, ok]) => !ok).length;
  const text =
    `Fieldwork bench (tsp) — ${new Date().toISOString()} — node ${process.version}, ${os.cpus().length} CPUs, ` +
    `load average ${loadStart} at start / ${os.loadavg()[0].toFixed(2)} at end (1 min)\n\n` +
    `Closed tours from city 1, TSPLIB distances, seeds ${SEEDS.join(', ')}; gap = (length − optimum) / optimum.\n\n` +
    `1 s each (pr1002: 2 s):\n\n${table(fixed, (r) => (r.name === 'pr1002' ? '2000' : '1000'))}\n\n` +
    `The action's default budget (defaultTourBudgetMs(n); the search stops earlier when kicks stop improving):\n\n` +
    `${table(byDefault, (r) => String(defaultTourBudgetMs(r.n)))}\n\n` +
    `${markdownTable(
      ['target', 'pass/fail'],
      checks.map(([label, ok]) => [label, ok ? 'pass' : 'FAIL']),
    )}\n\n` +
    `geodesicMatrix, 300 points (44,850 inverse problems, geographiclib-geodesic): ${geoMs.toFixed(0)} ms\n`;
  print(text);
  return failed && process.env.BENCH_STRICT === '1' ? 1 : 0;
}
