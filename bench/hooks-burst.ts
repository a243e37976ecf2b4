/**
 * REST hooks under bursts (`BENCH_ONLY=hooksburst`, issue #29 item 5's webhook part, alone): the
 * mixed load's webhook traffic without the rest of the mixed load — one company, 5 REST hook
 * subscriptions to `jobcreated` (one `WebhookReceiver` each on loopback), `createjobs` of 100 jobs
 * (`makeJob`) every `BENCH_BURST_EVERY_MS` (2,000 ms), `BENCH_BURST_COUNT` (10) bursts after 2
 * warm-ups, through ONE built worker with the app's defaults (`WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT`
 * 4: 100 deliveries per subscription go through 4 slots). `BENCH_BURST_JITTER_MS` (0): each
 * receiver answers after a uniformly random 0…jitter ms (a real receiver's spread). Measured as the
 * mixed load does: a delivery's lag = its arrival at the receiver − the event's `ts` in the body
 * (the writing transaction's commit clock); p50 / p99 / max over the timed bursts, and each burst's
 * commit → last receipt. Informational: the mixed load's target is webhook lag p99 ≤ 2 s.
 */
import pg from 'pg';
import { connector, createCompany, TestApi } from '../test/support/api';
import { Child } from '../test/support/proc-child';
import { WebhookReceiver } from '../test/support/webhook-receiver';
import { startWorker } from '../test/support/worker';
import { dayFromToday, makeJob } from './fixtures';
import { fmt, percentile, printPart } from './stats';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v >= 0 ? v : fallback;
};

const C = {
  subscriptions: 5,
  jobs: envInt('BENCH_BURST_JOBS', 100),
  everyMs: envInt('BENCH_BURST_EVERY_MS', 2_000),
  bursts: envInt('BENCH_BURST_COUNT', 10),
  warmups: 2,
  jitterMs: envInt('BENCH_BURST_JITTER_MS', 0),
};

/** `BENCH_ONLY=hooksburst`: this part alone with the run's header. @returns the exit code */
export async function runHooksBurstOnly(opts: {
  api: TestApi;
  pool: pg.Pool;
  serverVersion: string;
  loadAtStart: string;
  log: (line: string) => void;
}): Promise<number> {
  const { api, pool, log } = opts;
  let worker: Child | undefined;
  const receivers: WebhookReceiver[] = [];
  try {
    worker = await startWorker('bench hooks-burst worker', { NODE_ENV: 'production' }, (sql, params) => pool.query(sql, params));
    const company = await createCompany(api);
    for (let i = 0; i < C.subscriptions; i++) {
      const r = await new WebhookReceiver().start();
      r.reply = () => ({ status: 200, delayMs: C.jitterMs ? Math.random() * C.jitterMs : undefined });
      receivers.push(r);
      const res = await connector(api, 'POST', '/v1/hooks', company.key, { event: 'jobcreated', url: `${r.url}/hook${i}` });
      if (res.http !== 201) throw new Error(`POST /v1/hooks answered ${res.http}`);
    }
    const lags: number[] = [];
    const lastMs: number[] = [];
    for (let b = 0; b < C.warmups + C.bursts; b++) {
      const marks = receivers.map((r) => r.received.length);
      const started = Date.now();
      const jobs = Array.from({ length: C.jobs }, (_, i) => makeJob(b * C.jobs + i, dayFromToday(1)));
      const res = await fetch(`${api.url}/api/createjobs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'api-key': company.key },
        body: JSON.stringify({ data: { jobs } }),
      });
      if (!res.ok) throw new Error(`createjobs answered ${res.status}`);
      await Promise.all(receivers.map((r, i) => r.waitFor(`/hook${i}`, marks[i] + C.jobs, 60_000)));
      if (b >= C.warmups) {
        let last = 0;
        let commit = Infinity;
        receivers.forEach((r, i) => {
          for (const x of r.received.slice(marks[i])) {
            const ts = Number((JSON.parse(x.body) as { ts: number }).ts);
            lags.push(x.at - ts);
            last = Math.max(last, x.at);
            commit = Math.min(commit, ts);
          }
        });
        lastMs.push(last - commit);
      }
      const wait = started + C.everyMs - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    log(`hooks-burst: ${C.bursts} timed bursts`);
    return printPart(
      'hooksburst',
      {
        rows: [
          [
            `REST hooks, bursts of ${C.jobs} jobcreated × ${C.subscriptions} subscriptions: commit → receipt p50 / p99 / max ms`,
            `${fmt(percentile(lags, 50))} / ${fmt(percentile(lags, 99))} / ${fmt(Math.max(...lags))}`,
            '—',
            '—',
            '—',
            'info',
          ],
          [
            'REST hooks, one burst: first commit → last receipt, p50 / max ms',
            `${fmt(percentile(lastMs, 50))} / ${fmt(Math.max(...lastMs))}`,
            '—',
            '—',
            '—',
            'info',
          ],
        ],
        notes: [
          `hooks-burst: ${C.bursts} timed bursts (after ${C.warmups} warm-ups), one createjobs of ${C.jobs} every ${C.everyMs} ms (or when the last burst's ` +
            `${C.jobs * C.subscriptions} deliveries had all arrived), ONE built worker (app defaults), receivers answering 200 after 0…${C.jitterMs} ms.`,
        ],
        failed: 0,
      },
      opts,
    );
  } finally {
    await worker?.stop('SIGTERM', 10_000).catch(() => undefined);
    await Promise.all(receivers.map((r) => r.close().catch(() => undefined)));
  }
}
