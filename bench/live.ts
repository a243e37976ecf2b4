/**
 * The live stream (`BENCH_ONLY=live`, docs/live.md), against baselines measured in the same run:
 *
 * 1. fan-out: `BENCH_LIVE_CLIENTS` (1,000) streams on one BUILT api process while 50 events/s are
 *    committed through the outbox (core's `OutboxService`, the production write): commit → received
 *    at every client, p50/p99, vs a bare `node:http` SSE broadcaster fed the same way (the same
 *    stamper's NOTIFY, the same outbox read by seq) with the same clients;
 * 2. memory per idle stream: the api's RSS growth (`/proc/<pid>/status`) ÷ clients;
 * 3. across instances: events committed through instance 1 (`createjobs`) → clients on instance 3,
 *    p99, vs clients on instance 1 (same instance);
 * 4. resume: 10,000 events while clients reconnect at random to the three instances with their last
 *    id: gaps and duplicates (must be 0 and 0);
 * 5. `pushlocations` requests/s on one instance with 200 streams of the company open vs none.
 *
 * "commit → received" is the receive time minus the event's `ts` (its writing transaction's
 * database clock, the same host's clock).
 */
import { request as httpRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { loadConfig, OutboxEventInput, OutboxRepository, OutboxService } from '@app/core';
import { dataSourceOptions } from '@app/database';
import { createCompany, createMember } from '../test/support/api';
import { ApiProcess, Child, childEnv, freePort, startApiProcess, waitFor } from '../test/support/proc-child';
import { fmt, markdownTable, percentile } from './stats';
import { PartContext } from './part';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

const CONFIG = {
  clients: envInt('BENCH_LIVE_CLIENTS', 1000),
  eventsPerSecond: envInt('BENCH_LIVE_RATE', 50),
  seconds: envInt('BENCH_LIVE_SECONDS', 15),
  resumeEvents: envInt('BENCH_LIVE_RESUME_EVENTS', 10_000),
  resumeClients: envInt('BENCH_LIVE_RESUME_CLIENTS', 20),
  pushStreams: envInt('BENCH_LIVE_PUSH_STREAMS', 200),
  pushSeconds: envInt('BENCH_LIVE_PUSH_SECONDS', 8),
};
/** Clients connected before memory is measured (and kept): the process is warm, its pools open. */
const WARM_CLIENTS = envInt('BENCH_LIVE_WARM_CLIENTS', 100);
const TARGETS = { p99Ms: 500, p99Ratio: 2, kbPerStream: 50, crossP99Ms: 1000, pushRatio: 0.9 };

/** The baseline: a bare node:http SSE broadcaster, woken by the stamper's NOTIFY, reading the outbox by seq, writing every frame to every client. */
const BASELINE_SERVER = `
const http = require('http');
const { Client } = require('pg');
const company = process.env.COMPANY;
let last = Number(process.env.START_SEQ);
const clients = new Set();
const db = new Client({ connectionString: process.env.DATABASE_URL });
const listener = new Client({ connectionString: process.env.DATABASE_URL });
let reading = false, again = false;
async function read() {
  if (reading) { again = true; return; }
  reading = true;
  do {
    again = false;
    const { rows } = await db.query('SELECT id, seq::float8 AS seq, action, created_at::float8 AS ts, payload FROM outbox_events WHERE company_id = $1 AND seq > $2 ORDER BY seq LIMIT 500', [company, last]);
    for (const e of rows) {
      const frame = 'event: ' + e.action + '\\nid: ' + e.seq + '\\ndata: {"id":"' + e.id + '","seq":' + e.seq + ',"action":"' + e.action + '","ts":' + e.ts + ',"data":' + e.payload + '}\\n\\n';
      for (const res of clients) res.write(frame);
      last = e.seq;
    }
    if (rows.length === 500) again = true;
  } while (again);
  reading = false;
}
(async () => {
  await db.connect();
  await listener.connect();
  listener.on('notification', (n) => { if ((n.payload || '').startsWith(company + ':')) read(); });
  await listener.query('LISTEN fieldwork_stream');
  http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write('retry: 3000\\n\\n');
    res.write('event: snapshot\\ndata: {}\\n\\n');
    clients.add(res);
    req.on('close', () => clients.delete(res));
  }).listen(Number(process.env.PORT), '127.0.0.1', () => console.log('baseline ready'));
})();
`;

/** Stream clients over raw node:http (one socket each): frames split on the blank line, the latency of each stamped event recorded. */
class StreamClients {
  readonly latencies: number[] = [];
  snapshots = 0;
  events = 0;
  positions = 0;
  recording = false;
  private readonly requests: Array<ReturnType<typeof httpRequest>> = [];

  /** Opens `n` streams of `url`; resolves when all have their snapshot. */
  async connect(url: string, headers: Record<string, string>, n: number): Promise<void> {
    const target = this.snapshots + n;
    for (let i = 0; i < n; i++) {
      const req = httpRequest(url, { agent: false, headers: { accept: 'text/event-stream', ...headers } }, (res) => {
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            this.frame(buffer.slice(0, cut));
            buffer = buffer.slice(cut + 2);
          }
        });
      });
      req.on('error', () => undefined);
      req.end();
      this.requests.push(req);
      if (i % 100 === 99) await new Promise((r) => setTimeout(r, 20)); // don't flood the accept queue
    }
    await waitFor(`${n} snapshots`, async () => this.snapshots >= target, { timeoutMs: 60_000, intervalMs: 50 });
  }

  private frame(frame: string): void {
    if (frame.startsWith('event: snapshot')) {
      this.snapshots++;
      return;
    }
    if (frame.startsWith('event: position')) {
      this.positions++;
      return;
    }
    const m = /"ts":(\d+),"data":/.exec(frame);
    if (!m) return;
    this.events++;
    if (this.recording) this.latencies.push(Date.now() - Number(m[1]));
  }

  close(): void {
    for (const req of this.requests) req.destroy();
    this.requests.length = 0;
  }
}

/** ms between now and each of `count` calls of `fn`, paced at `perSecond`. */
async function paced(perSecond: number, seconds: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  const interval = 1000 / perSecond;
  const start = performance.now();
  const pending: Array<Promise<unknown>> = [];
  for (let i = 0; i < perSecond * seconds; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(fn(i));
  }
  await Promise.all(pending);
}

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

const opened: { children: Child[]; procs: ApiProcess[]; clients: StreamClients[]; ds?: DataSource } = {
  children: [],
  procs: [],
  clients: [],
};

/** Stops what the part started. Safe to call twice. */
export async function closeLive(): Promise<void> {
  for (const c of opened.clients.splice(0)) c.close();
  await Promise.all(opened.children.splice(0).map((c) => c.stop('SIGTERM', 10_000).catch(() => undefined)));
  await Promise.all(opened.procs.splice(0).map((p) => p.child.stop('SIGTERM', 10_000).catch(() => undefined)));
  if (opened.ds?.isInitialized) await opened.ds.destroy();
}

interface LatencyFigures {
  p50: number;
  p99: number;
  samples: number;
}

const figures = (xs: number[]): LatencyFigures => ({ p50: percentile(xs, 50), p99: percentile(xs, 99), samples: xs.length });

/** Runs the part and prints its table. @returns the process exit code (1 only with BENCH_STRICT=1 and a missed target). */
export async function runLiveOnly(opts: PartContext): Promise<number> {
  const { api, pool, log } = opts;
  try {
    // set-up through the in-process api, which is then closed: only the measured processes stamp and stream
    const company = await createCompany(api, { name: 'Bench live' });
    const pushers = await Promise.all(Array.from({ length: 8 }, () => createMember(api, company)));
    await api.close();
    const env = { LOG_LEVEL: 'error', STREAM_HEARTBEAT_MS: '15000' };
    const procs = await Promise.all([startApiProcess(env), startApiProcess(env), startApiProcess(env)]);
    opened.procs.push(...procs);
    const [one, , three] = procs;
    const ds = new DataSource(dataSourceOptions(loadConfig()));
    opened.ds = ds;
    await ds.initialize();
    const outbox = new OutboxService(new OutboxRepository(ds));
    const event = (i: number): OutboxEventInput =>
      ({
        companyId: company.companyUid,
        eventKey: 'job_created',
        action: 'jobcreated',
        formId: `bench-${i}`,
        data: [{ id: `bench-${i}`, n: i }],
      }) as unknown as OutboxEventInput;
    const write = (i: number) => ds.transaction((m) => outbox.appendMany(m, [event(i)]));
    const headers = { 'api-key': company.key };
    await write(0);
    await waitFor(
      'stamped',
      async () =>
        (await pool.query(`SELECT 1 FROM outbox_events WHERE company_id = $1 AND seq IS NULL`, [company.companyUid])).rowCount === 0,
      { timeoutMs: 10_000, intervalMs: 50 },
    );

    // 1 + 2: fan-out on instance 1, memory per idle stream
    log(`fan-out: ${CONFIG.clients} clients on one api, ${CONFIG.eventsPerSecond} events/s for ${CONFIG.seconds} s`);
    // memory: the growth from a warm process (WARM clients connected, its pools, caches and heap grown)
    // to the same with CONFIG.clients more; the warm clients stay, and receive the events too
    const warm = new StreamClients();
    opened.clients.push(warm);
    await warm.connect(`${one.url}/v1/stream`, headers, WARM_CLIENTS);
    await new Promise((r) => setTimeout(r, 2000));
    const rssBefore = rssKb(one.child.pid);
    const ours = new StreamClients();
    opened.clients.push(ours);
    await ours.connect(`${one.url}/v1/stream`, headers, CONFIG.clients);
    await new Promise((r) => setTimeout(r, 2000));
    const kbPerStream = (rssKb(one.child.pid) - rssBefore) / CONFIG.clients;
    ours.recording = true;
    await paced(CONFIG.eventsPerSecond, CONFIG.seconds, (i) => write(i + 1));
    await new Promise((r) => setTimeout(r, 1500));
    ours.recording = false;
    ours.close();
    warm.close();
    const oursFanout = figures(ours.latencies);
    const expected = CONFIG.clients * CONFIG.eventsPerSecond * CONFIG.seconds;
    log(`ours: ${ours.latencies.length}/${expected} deliveries, p50 ${fmt(oursFanout.p50)} ms, p99 ${fmt(oursFanout.p99)} ms`);

    const [{ last }] = (
      await pool.query(`SELECT last_seq::float8 AS last FROM outbox_sequences WHERE company_id = $1`, [company.companyUid])
    ).rows;
    const port = await freePort();
    const baseline = new Child(
      'live baseline',
      process.execPath,
      ['-e', BASELINE_SERVER],
      childEnv({ PORT: String(port), COMPANY: company.companyUid, START_SEQ: String(last) }),
    );
    opened.children.push(baseline);
    await waitFor('baseline ready', async () => baseline.stdout.includes('baseline ready'), { timeoutMs: 10_000, intervalMs: 50 });
    const bareWarm = new StreamClients();
    opened.clients.push(bareWarm);
    await bareWarm.connect(`http://127.0.0.1:${port}/`, {}, WARM_CLIENTS);
    await new Promise((r) => setTimeout(r, 2000));
    const bareRssBefore = rssKb(baseline.pid);
    const bare = new StreamClients();
    opened.clients.push(bare);
    await bare.connect(`http://127.0.0.1:${port}/`, {}, CONFIG.clients);
    await new Promise((r) => setTimeout(r, 2000));
    const bareKbPerStream = (rssKb(baseline.pid) - bareRssBefore) / CONFIG.clients;
    bare.recording = true;
    await paced(CONFIG.eventsPerSecond, CONFIG.seconds, (i) => write(100_000 + i));
    await new Promise((r) => setTimeout(r, 1500));
    bare.recording = false;
    bare.close();
    bareWarm.close();
    await baseline.stop('SIGTERM');
    const bareFanout = figures(bare.latencies);
    log(`baseline: ${bare.latencies.length}/${expected} deliveries, p50 ${fmt(bareFanout.p50)} ms, p99 ${fmt(bareFanout.p99)} ms`);

    // 3: commit on instance 1 → clients on instance 3 (and on instance 1)
    log('across instances: createjobs through instance 1, 20 clients on instance 3 and 20 on instance 1');
    const far = new StreamClients();
    const near = new StreamClients();
    opened.clients.push(far, near);
    await far.connect(`${three.url}/v1/stream`, headers, 20);
    await near.connect(`${one.url}/v1/stream`, headers, 20);
    far.recording = near.recording = true;
    await paced(20, 10, (i) =>
      fetch(`${one.url}/api/createjobs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ data: { jobs: [{ destinationName: `cross ${i}` }] } }),
      }).then((r) => r.text()),
    );
    await new Promise((r) => setTimeout(r, 1500));
    far.close();
    near.close();
    const cross = figures(far.latencies);
    const same = figures(near.latencies);

    // 4: resume while reconnecting at random
    log(`resume: ${CONFIG.resumeEvents} events, ${CONFIG.resumeClients} clients reconnecting at random`);
    const resume = await resumeRun(procs, headers, (i) => write(200_000 + i), company.companyUid, pool);

    // 5: pushlocations with 200 streams vs none
    log(
      `pushlocations: ${pushers.length} phones on instance 1 for ${CONFIG.pushSeconds} s, with ${CONFIG.pushStreams} streams and without`,
    );
    const pushNone1 = await pushRate(
      one.url,
      pushers.map((p) => p.key),
      CONFIG.pushSeconds,
    );
    const watchers = new StreamClients();
    opened.clients.push(watchers);
    await watchers.connect(`${one.url}/v1/stream`, headers, CONFIG.pushStreams);
    const pushWith = await pushRate(
      one.url,
      pushers.map((p) => p.key),
      CONFIG.pushSeconds,
    );
    const positionsSeen = watchers.positions;
    watchers.close();
    await new Promise((r) => setTimeout(r, 1000));
    const pushNone2 = await pushRate(
      one.url,
      pushers.map((p) => p.key),
      CONFIG.pushSeconds,
    );
    const pushNone = (pushNone1 + pushNone2) / 2;

    const rows: string[][] = [];
    let failed = 0;
    const row = (name: string, oursV: string, baseV: string, ratio: string, target: string, ok: boolean) => {
      rows.push([name, oursV, baseV, ratio, target, ok ? 'pass' : 'FAIL']);
      if (!ok) failed++;
    };
    const fanRatio = oursFanout.p99 / bareFanout.p99;
    row(
      `${CONFIG.clients} streams, ${CONFIG.eventsPerSecond} events/s: commit → received p50 / p99 (ms)`,
      `${fmt(oursFanout.p50)} / ${fmt(oursFanout.p99)}`,
      `${fmt(bareFanout.p50)} / ${fmt(bareFanout.p99)}`,
      `${fmt(fanRatio, 2)}× (p99)`,
      `p99 ≤ ${TARGETS.p99Ms} ms and ≤ ${TARGETS.p99Ratio}×`,
      oursFanout.p99 <= TARGETS.p99Ms && fanRatio <= TARGETS.p99Ratio && ours.latencies.length === expected,
    );
    row(
      `memory per idle stream (api RSS growth ÷ clients, ${CONFIG.clients} on top of ${WARM_CLIENTS})`,
      `${fmt(kbPerStream)} KB`,
      `${fmt(bareKbPerStream)} KB (bare)`,
      `${fmt(kbPerStream / bareKbPerStream, 2)}×`,
      `≤ ${TARGETS.kbPerStream} KB`,
      kbPerStream <= TARGETS.kbPerStream,
    );
    row(
      'commit on instance 1 → client on instance 3, p99 (ms)',
      fmt(cross.p99),
      `${fmt(same.p99)} (same instance)`,
      `${fmt(cross.p99 / same.p99, 2)}×`,
      `≤ ${TARGETS.crossP99Ms} ms`,
      cross.p99 <= TARGETS.crossP99Ms && cross.samples === 20 * 200,
    );
    row(
      `resume: ${CONFIG.resumeEvents} events, ${CONFIG.resumeClients} clients reconnecting at random (${resume.reconnects} reconnects)`,
      `${resume.gaps} gaps, ${resume.duplicates} duplicates`,
      '—',
      '—',
      '0 gaps, 0 duplicates',
      resume.gaps === 0 && resume.duplicates === 0 && resume.complete,
    );
    row(
      `pushlocations with ${CONFIG.pushStreams} streams open vs none (requests/s)`,
      fmt(pushWith),
      fmt(pushNone),
      `${fmt(pushWith / pushNone, 2)}×`,
      `≥ ${TARGETS.pushRatio}×`,
      pushWith / pushNone >= TARGETS.pushRatio,
    );
    const header =
      `Fieldwork bench (live) — ${new Date().toISOString()} — node ${process.version}, PostgreSQL ${opts.serverVersion}, ` +
      `${os.cpus().length} CPUs, load average ${opts.loadAtStart} at start / ${os.loadavg()[0].toFixed(2)} at end (1 min)`;
    const notes = [
      `- fan-out: ${ours.latencies.length} of ${expected} deliveries recorded (ours), ${bare.latencies.length} (baseline), at the ${CONFIG.clients} measured clients; ${WARM_CLIENTS} more were connected to each (the memory row's warm-up). The baseline writes each frame to every client with no audience, filter or flow control.`,
      `- across instances: ${cross.samples} deliveries on instance 3, ${same.samples} on instance 1 (createjobs through instance 1, 20 jobs/s for 10 s).`,
      `- pushlocations without streams: ${fmt(pushNone1)} and ${fmt(pushNone2)} requests/s (before and after); with streams the ${CONFIG.pushStreams} clients received ${positionsSeen} position events.`,
    ];
    process.stdout.write(
      `\n${header}\n\n${markdownTable(['benchmark', 'ours', 'baseline', 'ratio', 'target', 'pass/fail'], rows)}\n\n${notes.join('\n')}\n`,
    );
    return failed && process.env.BENCH_STRICT === '1' ? 1 : 0;
  } finally {
    await closeLive();
  }
}

/**
 * Writes `resumeEvents` events (transactions of 10, as fast as they go) while `resumeClients`
 * clients each stay connected for a random 100–800 ms, then reconnect to a random instance with
 * their last id, until each has seen the last event.
 */
async function resumeRun(
  procs: ApiProcess[],
  headers: Record<string, string>,
  write: (i: number) => Promise<unknown>,
  companyId: string,
  pool: pg.Pool,
): Promise<{ gaps: number; duplicates: number; reconnects: number; complete: boolean }> {
  const [{ start }] = (await pool.query(`SELECT last_seq::float8 AS start FROM outbox_sequences WHERE company_id = $1`, [companyId])).rows;
  const end = start + CONFIG.resumeEvents;
  let reconnects = 0;
  const client = async (): Promise<number[]> => {
    const seen: number[] = [];
    let lastId = String(start);
    const deadline = Date.now() + 120_000;
    while ((seen.length ? seen[seen.length - 1] : start) < end && Date.now() < deadline) {
      const base = procs[Math.floor(Math.random() * procs.length)].url;
      await new Promise<void>((resolve) => {
        const req = httpRequest(`${base}/v1/stream`, { agent: false, headers: { ...headers, 'last-event-id': lastId } }, (res) => {
          res.setEncoding('utf8');
          let buffer = '';
          res.on('data', (chunk: string) => {
            buffer += chunk;
            let cut: number;
            while ((cut = buffer.indexOf('\n\n')) >= 0) {
              const frame = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              const id = /^id: (\d+)$/m.exec(frame);
              if (id && !frame.startsWith('event: snapshot')) {
                seen.push(Number(id[1]));
                lastId = id[1];
              }
            }
            if (seen.length && seen[seen.length - 1] >= end) req.destroy();
          });
          res.on('close', resolve);
        });
        req.on('error', () => resolve());
        req.end();
        setTimeout(() => req.destroy(), 100 + Math.random() * 700);
      });
      reconnects++;
    }
    return seen;
  };
  const clients = Array.from({ length: CONFIG.resumeClients }, client);
  for (let i = 0; i < CONFIG.resumeEvents; i += 10) await Promise.all(Array.from({ length: 10 }, (_, k) => write(i + k)));
  const results = await Promise.all(clients);
  let gaps = 0;
  let duplicates = 0;
  let complete = true;
  for (const seen of results) {
    let prev = start;
    for (const s of seen) {
      if (s <= prev) duplicates++;
      else if (s > prev + 1) gaps += s - prev - 1;
      prev = Math.max(prev, s);
    }
    if (prev !== end) complete = false;
  }
  return { gaps, duplicates, reconnects, complete };
}

/** pushlocations requests/s from each key in a loop (one fix a call, ts rising) for `seconds`. */
async function pushRate(base: string, keys: string[], seconds: number): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  let ts = Date.now() - 60_000;
  await Promise.all(
    keys.map(async (key, k) => {
      while (performance.now() < until) {
        ts += 1;
        const res = await fetch(`${base}/api/pushlocations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'api-key': key },
          body: JSON.stringify({ data: { locations: [{ lat: 46 + k / 100 + (ts % 1000) / 1e6, lng: 14.5, ts, acc: 5 }] } }),
        });
        await res.text();
        if (res.status === 200) done++;
      }
    }),
  );
  return done / seconds;
}
