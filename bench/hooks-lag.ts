/**
 * REST hooks burst lag (`BENCH_ONLY=hookslag`, issue #29 item 5's "worker lag ≤ 2 s", measured alone):
 * the mixed load's REST hook traffic and nothing else — one company, 5 REST hook subscriptions to
 * `jobcreated` (one loopback `WebhookReceiver` each), a `createjobs` of 100 jobs (`makeJob`) at a
 * time, i.e. 100 deliveries per subscription at once through its 4 slots
 * (`WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT`, the app's default), through ONE built worker with the app's
 * defaults. A burst starts when the last one's 500 deliveries have all arrived and
 * `BENCH_HOOKSLAG_GAP_MS` (500) has passed.
 *
 * Measured as the mixed load does: a delivery's lag = its arrival at the receiver (`Date.now()` here)
 * − the event's `ts` in the body (the writing transaction's time, database clock on this machine);
 * per receiver and burst: `ts` → its last receipt, and its cycle (first → last receipt over the 24
 * cycles after the first: 100 deliveries through 4 slots were 25 cycles of claim → sign → POST →
 * record; since the hooks' claims are larger than the cap, 7 claims of up to 16 sent 4 at a time). Checked: at most 4 requests open at a receiver at once, each event once per receiver.
 * After each warm-up the webhook tables are analysed (on a fresh database the planner takes them for
 * empty and the claim's update scans every delivery of the company: 17 ms instead of 3).
 *
 * `BENCH_HOOKSLAG_WORKERS` (`new=dist/apps/worker/src/main.js`): `label=script,…`, other builds'
 * workers (a copy of an older `dist/` inside the repository, so its modules resolve) run in turns
 * with it, `BENCH_HOOKSLAG_ROUNDS` (3) turns of `BENCH_HOOKSLAG_BURSTS` (4) timed bursts after one
 * warm-up each: a before/after pair in one run, under the same load. `BENCH_HOOKSLAG_JITTER_MS` (0):
 * receivers answer after a uniformly random 0…jitter ms.
 */
import { readFileSync } from 'node:fs';
import { connector, createCompany, TestApi, TestCompany } from '../test/support/api';
import { Child } from '../test/support/proc-child';
import { WebhookReceiver } from '../test/support/webhook-receiver';
import { startWorker } from '../test/support/worker';
import { dayFromToday, makeJob } from './fixtures';
import { fmt, mean, percentile, printPart } from './stats';
import { PartContext } from './part';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return process.env[name] !== undefined && Number.isInteger(v) && v >= 0 ? v : fallback;
};

const C = {
  subscriptions: 5,
  jobs: envInt('BENCH_HOOKSLAG_JOBS', 100),
  slots: 4,
  rounds: envInt('BENCH_HOOKSLAG_ROUNDS', 3),
  bursts: envInt('BENCH_HOOKSLAG_BURSTS', 4),
  gapMs: envInt('BENCH_HOOKSLAG_GAP_MS', 500),
  jitterMs: envInt('BENCH_HOOKSLAG_JITTER_MS', 0),
};

/** `label=script` pairs: the workers compared, in turns. */
function workersCompared(): Array<{ label: string; script: string }> {
  const spec = process.env.BENCH_HOOKSLAG_WORKERS ?? 'new=dist/apps/worker/src/main.js';
  return spec.split(',').map((pair) => {
    const [label, script] = pair.split('=');
    if (!label || !script) throw new Error(`BENCH_HOOKSLAG_WORKERS: "${pair}" is not label=script`);
    return { label, script };
  });
}

/** One worker's figures over its timed bursts, ms. */
interface Figures {
  lags: number[];
  /** per receiver and burst: ts → last receipt */
  lastMs: number[];
  /** per burst: ts → the last receipt at any receiver */
  burstMs: number[];
  /** per receiver and burst: first → last receipt / (cycles − 1) */
  cycleMs: number[];
  /** per receiver and burst: ts → first receipt */
  firstMs: number[];
  duplicates: number;
  /** per timed burst: the worker's CPU (user + system) ms */
  cpuMs: number[];
}

/** A process's CPU time so far (user + system), ms, from /proc (Linux). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

/** Sends one burst and waits for its deliveries; adds the figures to `f` when `timed`. */
async function burst(
  api: TestApi,
  company: TestCompany,
  receivers: WebhookReceiver[],
  n: number,
  f: Figures,
  timed: boolean,
): Promise<void> {
  const marks = receivers.map((r, i) => r.at(`/hook${i}`).length);
  const jobs = Array.from({ length: C.jobs }, (_, i) => makeJob(n * C.jobs + i, dayFromToday(1)));
  const res = await fetch(`${api.url}/api/createjobs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'api-key': company.key },
    body: JSON.stringify({ data: { jobs } }),
  });
  if (!res.ok) throw new Error(`createjobs answered ${res.status}`);
  const got = await Promise.all(receivers.map((r, i) => r.waitFor(`/hook${i}`, marks[i] + C.jobs, 60_000)));
  if (!timed) return;
  let commit = Infinity;
  let last = 0;
  for (const [i, all] of got.entries()) {
    const mine = all.slice(marks[i]);
    const ts = mine.map((x) => Number((JSON.parse(x.body) as { ts: number }).ts));
    const first = Math.min(...mine.map((x) => x.at));
    const end = Math.max(...mine.map((x) => x.at));
    const t0 = Math.min(...ts);
    mine.forEach((x, k) => f.lags.push(x.at - ts[k]));
    f.lastMs.push(end - t0);
    f.firstMs.push(first - t0);
    f.cycleMs.push((end - first) / (Math.ceil(C.jobs / C.slots) - 1));
    f.duplicates += mine.length - new Set(mine.map((x) => String(x.headers['webhook-id']))).size;
    commit = Math.min(commit, t0);
    last = Math.max(last, end);
  }
  f.burstMs.push(last - commit);
}

/** `BENCH_ONLY=hookslag`: this part alone with the run's header. @returns the exit code */
export async function runHooksLagOnly(opts: PartContext): Promise<number> {
  const { api, pool, log } = opts;
  const compared = workersCompared();
  const receivers: WebhookReceiver[] = [];
  let worker: Child | undefined;
  try {
    const company = await createCompany(api);
    for (let i = 0; i < C.subscriptions; i++) {
      const r = await new WebhookReceiver().start();
      r.reply = () => ({ status: 200, delayMs: C.jitterMs ? Math.random() * C.jitterMs : undefined });
      receivers.push(r);
      const res = await connector(api, 'POST', '/v1/hooks', company.key, { event: 'jobcreated', url: `${r.url}/hook${i}` });
      if (res.http !== 201) throw new Error(`POST /v1/hooks answered ${res.http}`);
    }
    const figures = new Map(compared.map((w) => [w.label, { lags: [], lastMs: [], burstMs: [], cycleMs: [], firstMs: [], duplicates: 0, cpuMs: [] } as Figures]));
    let n = 0;
    for (let round = 0; round < C.rounds; round++) {
      for (const w of compared) {
        worker = await startWorker(`bench hooks-lag worker ${w.label}`, { NODE_ENV: 'production' }, (sql, params) => pool.query(sql, params), process.env.BENCH_HOOKSLAG_NODE_ARGS?.split(' ').filter(Boolean) ?? [], w.script);
        for (let b = 0; b <= C.bursts; b++) {
          const cpu = cpuMsOf(worker.pid);
          await burst(api, company, receivers, n++, figures.get(w.label)!, b > 0);
          if (b > 0) figures.get(w.label)!.cpuMs.push(cpuMsOf(worker.pid) - cpu);
          // a fresh database's statistics say the tables are empty: the claims' plans then scan the company's deliveries
          if (b === 0) await pool.query('ANALYZE webhook_deliveries, webhook_attempts, outbox_events, webhook_subscriptions');
          await new Promise((r) => setTimeout(r, C.gapMs));
        }
        await worker.stop('SIGTERM', 10_000);
        worker = undefined;
        log(`hooks-lag: round ${round + 1}, ${w.label} done (load ${(await import('node:os')).loadavg()[0].toFixed(2)})`);
      }
    }
    const maxOpen = Math.max(...receivers.map((r, i) => r.maxOpen(`/hook${i}`)));
    const rows = [...figures].flatMap(([label, f]) => [
      [
        `${label}: lag (ts → receipt) p50 / p99 / max ms`,
        `${fmt(percentile(f.lags, 50))} / ${fmt(percentile(f.lags, 99))} / ${fmt(Math.max(...f.lags))}`,
        '—',
        '—',
        'p99 ≤ 2000 (mixed)',
        'info',
      ],
      [
        `${label}: ts → a receiver's last receipt p50 / max ms; a burst's last p50`,
        `${fmt(percentile(f.lastMs, 50))} / ${fmt(Math.max(...f.lastMs))}; ${fmt(percentile(f.burstMs, 50))}`,
        '—',
        '—',
        '—',
        'info',
      ],
      [
        `${label}: ts → a receiver's first receipt p50 ms; cycle mean / p50 ms`,
        `${fmt(percentile(f.firstMs, 50))}; ${fmt(mean(f.cycleMs), 2)} / ${fmt(percentile(f.cycleMs, 50), 2)}`,
        '—',
        '—',
        '—',
        'info',
      ],
      [
        `${label}: the worker's CPU per burst (${C.jobs * C.subscriptions} deliveries) mean / p50 ms`,
        `${fmt(mean(f.cpuMs))} / ${fmt(percentile(f.cpuMs, 50))}`,
        '—',
        '—',
        '—',
        'info',
      ],
    ]);
    const duplicates = [...figures.values()].reduce((s, f) => s + f.duplicates, 0);
    return printPart(
      'hookslag',
      {
        rows: [...rows, ['most requests open at one receiver; duplicates', `${maxOpen}; ${duplicates}`, '—', '—', `≤ ${C.slots}; 0`, maxOpen <= C.slots && duplicates === 0 ? 'pass' : 'FAIL']],
        notes: [
          `hooks-lag: ${C.subscriptions} subscriptions × createjobs of ${C.jobs}; workers ${compared.map((w) => `${w.label}=${w.script}`).join(', ')} ` +
            `in ${C.rounds} turns of ${C.bursts} timed bursts (+1 warm-up each), ${C.gapMs} ms between bursts, receivers answering after 0…${C.jitterMs} ms.`,
        ],
        failed: maxOpen <= C.slots && duplicates === 0 ? 0 : 1,
      },
      opts,
    );
  } finally {
    await worker?.stop('SIGTERM', 10_000).catch(() => undefined);
    await Promise.all(receivers.map((r) => r.close().catch(() => undefined)));
  }
}
