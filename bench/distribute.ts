/**
 * distributejobs' clustering benchmark (`BENCH_ONLY=distribute npm run bench`; pure computation, no
 * database or HTTP): `clusterPoints` on 2,000 jobs around Croatia's towns, 20 regions, against the best
 * of 10 plain k-means++ runs of `skmeans` (a well-kept npm k-means library) fed the same 3-D unit
 * vectors. Both partitions are scored by the same function, `clusterSse`: Σ squared WGS84 geodesic
 * distances (m²) from each job to its cluster's spherical mean. See bench/README.md.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import skmeans from 'skmeans';
import { balancedCapacity, clusterCenters, clusterPoints, clusterSse, GeoPoint, mulberry32, renderClusterSvg } from '@app/dispatch/pure';
import { fmt, markdownTable, median } from './stats';

const TARGET_RATIO = 1.01;
const TARGET_MS = 150;
const TARGET_SIZE_RATIO = 1.2;
const SEED = 20_251_123;
/** Timed runs of ours per figure (after 2 warm-ups; 3 for the 5,000-job figure), and baseline rounds (each the best of 10 skmeans runs). */
const RUNS = Number(process.env.BENCH_DISTRIBUTE_RUNS ?? 7);

/**
 * Towns of Croatia with a share of the jobs and a spread (σ, km): a capital-heavy, coast-and-plain
 * pattern like a real service company's; 6 % of the jobs are scattered over the country's box.
 */
const TOWNS: { name: string; lat: number; lng: number; share: number; sigmaKm: number }[] = [
  { name: 'Zagreb', lat: 45.815, lng: 15.982, share: 0.34, sigmaKm: 7 },
  { name: 'Split', lat: 43.508, lng: 16.44, share: 0.13, sigmaKm: 5 },
  { name: 'Rijeka', lat: 45.327, lng: 14.442, share: 0.09, sigmaKm: 4 },
  { name: 'Osijek', lat: 45.551, lng: 18.694, share: 0.07, sigmaKm: 4 },
  { name: 'Zadar', lat: 44.119, lng: 15.231, share: 0.06, sigmaKm: 3.5 },
  { name: 'Pula', lat: 44.866, lng: 13.85, share: 0.04, sigmaKm: 3 },
  { name: 'Varaždin', lat: 46.305, lng: 16.336, share: 0.04, sigmaKm: 3 },
  { name: 'Slavonski Brod', lat: 45.16, lng: 18.016, share: 0.035, sigmaKm: 3 },
  { name: 'Karlovac', lat: 45.487, lng: 15.548, share: 0.03, sigmaKm: 3 },
  { name: 'Šibenik', lat: 43.735, lng: 15.895, share: 0.03, sigmaKm: 2.5 },
  { name: 'Dubrovnik', lat: 42.65, lng: 18.094, share: 0.03, sigmaKm: 2.5 },
  { name: 'Sisak', lat: 45.466, lng: 16.378, share: 0.025, sigmaKm: 2.5 },
  { name: 'Čakovec', lat: 46.384, lng: 16.434, share: 0.02, sigmaKm: 2 },
  { name: 'Vukovar', lat: 45.352, lng: 19.002, share: 0.015, sigmaKm: 2 },
];
const BOX = { minLat: 42.4, maxLat: 46.55, minLng: 13.5, maxLng: 19.45 };

/** n job positions (seeded): mostly Gaussian around the towns by their shares, the rest uniform over the box. */
/** What the distributejobs kind gives the clustering at the default DISPATCH_TIMEOUT_MS (30 s): `clusterBudgetMs`, half. */
const ACTION_BUDGET_MS = 15_000;

export function croatiaJobs(n: number, seed: number): GeoPoint[] {
  const random = mulberry32(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const jobs: GeoPoint[] = [];
  for (let i = 0; i < n; i++) {
    let r = random();
    const town = TOWNS.find((t) => (r -= t.share) < 0);
    if (!town) {
      jobs.push({ lat: BOX.minLat + random() * (BOX.maxLat - BOX.minLat), lng: BOX.minLng + random() * (BOX.maxLng - BOX.minLng) });
      continue;
    }
    const dLat = (gauss() * town.sigmaKm) / 111.2;
    const dLng = (gauss() * town.sigmaKm) / (111.2 * Math.cos((town.lat * Math.PI) / 180));
    jobs.push({ lat: town.lat + dLat, lng: town.lng + dLng });
  }
  return jobs;
}

/** The same unit vectors clusterPoints uses (lat/lng on the unit sphere). */
function unitVectors(points: GeoPoint[]): number[][] {
  const d = Math.PI / 180;
  return points.map((p) => [Math.cos(p.lat * d) * Math.cos(p.lng * d), Math.cos(p.lat * d) * Math.sin(p.lng * d), Math.sin(p.lat * d)]);
}

/** Best of 10 skmeans k-means++ runs, scored by clusterSse with each cluster's spherical mean; empty clusters score nothing. */
function baseline(points: GeoPoint[], vectors: number[][], k: number): { sse: number; ms: number; clusters: number } {
  let best = { sse: Infinity, clusters: 0 };
  let ms = 0;
  for (let r = 0; r < 10; r++) {
    const t0 = performance.now();
    const res = skmeans(vectors, k, 'kmpp');
    ms += performance.now() - t0;
    const assignment = res.idxs.slice();
    const centers = clusterCenters(points, assignment, k);
    const sse = clusterSse(points, assignment, centers);
    if (sse < best.sse) best = { sse, clusters: new Set(assignment).size };
  }
  return { ...best, ms };
}

function timeRuns<T>(fn: () => T, runs = RUNS): { ms: number; value: T } {
  fn(); // warm-up (the first also JIT-compiles)
  const times: number[] = [];
  let value: T = fn();
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    value = fn();
    times.push(performance.now() - t0);
  }
  return { ms: median(times), value };
}

const sci = (x: number) => x.toExponential(4);

/** Runs the figures and answers the table (markdown) and the number of missed targets. */
export function benchDistribute(log: (line: string) => void): { text: string; failed: number } {
  const n = 2000;
  const k = 20;
  const points = croatiaJobs(n, SEED);
  const vectors = unitVectors(points);
  log(`distribute: ${n} jobs, ${k} regions; baseline rounds (best of 10 skmeans runs each)`);
  const base: { sse: number; ms: number; clusters: number }[] = [];
  for (let r = 0; r < RUNS; r++) base.push(baseline(points, vectors, k));
  const baseSse = median(base.map((b) => b.sse));
  const baseBest = Math.min(...base.map((b) => b.sse));
  log('distribute: ours (distance, size)');
  const dist = timeRuns(() => clusterPoints(points, { k, method: 'distance', seed: SEED }));
  const size = timeRuns(() => clusterPoints(points, { k, method: 'size', seed: SEED }));
  const bound = balancedCapacity(n, k);
  const sizes = (a: number[]) => {
    const c = new Array<number>(k).fill(0);
    for (const x of a) c[x]++;
    return c;
  };
  const distSizes = sizes(dist.value.assignment);
  const sizeSizes = sizes(size.value.assignment);
  const ratio = dist.value.sse / baseSse;
  const sizeRatio = size.value.sse / dist.value.sse;
  const okDist = ratio <= TARGET_RATIO && dist.ms <= TARGET_MS;
  const okSize = sizeRatio <= TARGET_SIZE_RATIO && Math.max(...sizeSizes) <= bound;

  // the contract's largest call (5,000 jobs, 100 regions): time only
  const big = croatiaJobs(5000, SEED + 1);
  log('distribute: 5,000 jobs, 100 regions');
  const bigDist = timeRuns(() => clusterPoints(big, { k: 100, method: 'distance', seed: SEED }), 3);
  // size as the action runs it: with the budget clusterBudgetMs gives at the default 30 s deadline
  const bigSize = timeRuns(() => clusterPoints(big, { k: 100, method: 'size', seed: SEED, budgetMs: ACTION_BUDGET_MS }), 3);

  const svgT0 = performance.now();
  const svg = renderClusterSvg({ points, assignment: size.value.assignment, centers: size.value.centers });
  const svgMs = performance.now() - svgT0;
  const svgPath = path.join(os.tmpdir(), `fieldwork-bench-distribute-${process.pid}.svg`);
  writeFileSync(svgPath, svg);

  const rows = [
    [
      `distributejobs distance, ${n} jobs, ${k} regions: SSE m² (baseline: median of ${RUNS} × best-of-10 skmeans)`,
      sci(dist.value.sse),
      sci(baseSse),
      `${ratio.toFixed(4)}×`,
      `≤ ${TARGET_RATIO}×`,
      ratio <= TARGET_RATIO ? 'PASS' : 'FAIL',
    ],
    [
      `  same, against the best baseline of all ${RUNS * 10} skmeans runs`,
      sci(dist.value.sse),
      sci(baseBest),
      `${(dist.value.sse / baseBest).toFixed(4)}×`,
      '—',
      'info',
    ],
    [
      `distributejobs distance: time ms p50 (baseline: 10 skmeans runs, ms p50)`,
      fmt(dist.ms),
      fmt(median(base.map((b) => b.ms))),
      '—',
      `≤ ${TARGET_MS} ms`,
      dist.ms <= TARGET_MS ? 'PASS' : 'FAIL',
    ],
    [
      `distributejobs size: SSE m² (baseline: ours, distance)`,
      sci(size.value.sse),
      sci(dist.value.sse),
      `${sizeRatio.toFixed(4)}×`,
      `≤ ${TARGET_SIZE_RATIO}×`,
      sizeRatio <= TARGET_SIZE_RATIO ? 'PASS' : 'FAIL',
    ],
    [
      `distributejobs size: largest cluster (baseline: distance's) vs bound ⌈1.1·n/k⌉ = ${bound}`,
      String(Math.max(...sizeSizes)),
      String(Math.max(...distSizes)),
      '—',
      `≤ ${bound}`,
      Math.max(...sizeSizes) <= bound ? 'PASS' : 'FAIL',
    ],
    [`distributejobs size: time ms p50`, fmt(size.ms), '—', '—', '—', 'info'],
    [
      `distributejobs, 5,000 jobs, 100 regions: distance / size (budget ${ACTION_BUDGET_MS} ms, as the action) ms p50`,
      `${fmt(bigDist.ms)} / ${fmt(bigSize.ms)}`,
      '—',
      '—',
      '—',
      'info',
    ],
    [
      `distributejobs, 5,000 jobs, 100 regions: size SSE (baseline: distance)`,
      sci(bigSize.value.sse),
      sci(bigDist.value.sse),
      `${(bigSize.value.sse / bigDist.value.sse).toFixed(2)}×`,
      '—',
      'info',
    ],
    [`cluster SVG (${n} points): render ms, bytes`, `${fmt(svgMs, 2)} ms, ${svg.length} B`, '—', '—', '—', 'info'],
  ];
  const notes = [
    `distribute: jobs around ${TOWNS.length} Croatian towns (Zagreb ${TOWNS[0].share * 100} %, 6 % scattered), seed ${SEED}; ours seed ${SEED}, ` +
      `default restarts; ${RUNS} timed runs after 2 warm-ups (5,000 jobs: 3). Baseline best-of-10 SSEs over the rounds: ${base.map((b) => sci(b.sse)).join(', ')} ` +
      `(non-empty clusters of each round's best: ${base.map((b) => b.clusters).join(', ')}). ` +
      `Cluster sizes — distance: ${distSizes.join(' ')}; size: ${sizeSizes.join(' ')}. SVG of the size clusters: ${svgPath}`,
  ];
  const header =
    `Fieldwork bench (distribute) — ${new Date().toISOString()} — node ${process.version}, ${os.cpus().length} CPUs, ` +
    `load average ${os.loadavg()[0].toFixed(2)} (1 min)`;
  return {
    text: `${header}\n\n${markdownTable(['benchmark', 'ours', 'baseline', 'ratio', 'target', 'pass/fail'], rows)}\n\n${notes.join('\n')}\n`,
    failed: (okDist ? 0 : 1) + (okSize ? 0 : 1),
  };
}

/** `BENCH_ONLY=distribute`: prints the table; exit code 1 on a missed target only with BENCH_STRICT=1. */
export function distributeOnly(log: (line: string) => void): number {
  const { text, failed } = benchDistribute(log);
  process.stdout.write(`\n${text}`);
  return failed && process.env.BENCH_STRICT === '1' ? 1 : 0;
}
