/**
 * REST hooks fan-out (`BENCH_ONLY=hooks`, issue #28 item 2): an event with 50 REST-hook subscriptions
 * and its nine-key endpoint — an `editjobs` commit → the receipt at all 51 receivers — against the same
 * edit with ONE subscription, in the same run, through the same ONE built worker (the app's defaults:
 * `WEBHOOK_CONCURRENCY` 32, `WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT` 4). Target: fan-out p99 ≤ 2× single p99.
 */
import http from 'node:http';
import { AddressInfo } from 'node:net';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { Agent, request } from 'undici';
import { action, connector, createCompany, TestApi, TestCompany } from '../test/support/api';
import { Child } from '../test/support/proc-child';
import { verifySignature } from '../test/support/webhook-receiver';
import { startWorker } from '../test/support/worker';
import { fmt, percentile, printPart } from './stats';
import { PartContext } from './part';

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

export const REST_HOOKS_CONFIG = {
  /** timed edits per side (one subscription, 50 + the key) */
  edits: envInt('BENCH_HOOKS_EDITS', 200),
  warmups: envInt('BENCH_HOOKS_WARMUPS', 20),
  /** REST hook subscriptions of the fan-out company (at most 50: the per-company limit) */
  subscriptions: Math.min(envInt('BENCH_HOOKS_SUBSCRIPTIONS', 50), 50),
  targetRatio: 2,
};

/** One request a receiver got: when its body had arrived (performance.now()), its marker, and for checks its body and headers. */
interface Receipt {
  at: number;
  marker: string;
  body: string;
  headers: http.IncomingHttpHeaders;
  target: string;
}

const MARKER = /hk-\d+-\d+/;

/** Loopback receivers (one server each, answering 200 at once) feeding one log that wakes whoever waits for a marker. */
class Receivers {
  private readonly servers: http.Server[] = [];
  private readonly waiting = new Map<string, { expected: number; got: Receipt[]; done: (r: Receipt[]) => void }>();

  async start(target: string): Promise<string> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const at = performance.now();
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        const body = Buffer.concat(chunks).toString('utf8');
        const marker = MARKER.exec(body)?.[0] ?? '';
        const receipt = { at, marker, body, headers: req.headers, target };
        const w = this.waiting.get(marker);
        if (!w) return; // a warm-up's late duplicate, or another event
        w.got.push(receipt);
        if (w.got.length === w.expected) {
          this.waiting.delete(marker);
          w.done(w.got);
        }
      });
    });
    server.keepAliveTimeout = 60_000;
    this.servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** Resolves with the `expected` receipts carrying `marker` (registered before the edit is sent). */
  expect(marker: string, expected: number, timeoutMs = 30_000): Promise<Receipt[]> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const w = this.waiting.get(marker);
        this.waiting.delete(marker);
        reject(new Error(`${w?.got.length ?? 0} of ${expected} deliveries of ${marker} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(marker, {
        expected,
        got: [],
        done: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
      });
    });
  }

  async close(): Promise<void> {
    for (const s of this.servers.splice(0)) {
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
  }
}

/** One side's figures, ms. */
export interface HookSide {
  /** commit (editjobs answered) → the last receipt */
  p50: number;
  p99: number;
  max: number;
  /** the edit's call start → the last receipt */
  fromCallP99: number;
  /** first → last receipt of one event */
  spreadP50: number;
  spreadP99: number;
  /** commit → the first receipt */
  firstP50: number;
  /** commit → the key endpoint's receipt, and → the last REST hook's (fan-out side; NaN for single) */
  keyP50: number;
  lastHookP50: number;
}

export interface RestHookFigures {
  single: HookSide;
  fanout: HookSide;
  /** the floor: the same receivers POSTed by a bare undici loop in this process (first POST → last receipt), ms */
  floor: { single: { p50: number; p99: number }; fanout: { p50: number; p99: number } };
  receivers: number;
  /** signatures checked (every 50th event of each side, all its receipts) */
  verified: number;
}

const opened: { worker?: Child; receivers?: Receivers } = {};

/** Stops the worker child and the receivers. Safe to call twice. */
export async function closeRestHooks(): Promise<void> {
  const { worker, receivers } = opened;
  opened.worker = undefined;
  opened.receivers = undefined;
  await worker?.stop('SIGTERM', 10_000).catch(() => undefined);
  await receivers?.close().catch(() => undefined);
}

interface Side {
  company: TestCompany;
  jobId: string;
  /** receipts per event */
  expected: number;
  /** subscription secrets by receiver name; the key endpoint's is the company's */
  secrets: Map<string, string>;
  /** every receiver URL of the side */
  urls: string[];
  commitMs: number[];
  callMs: number[];
  spreadMs: number[];
  firstMs: number[];
  keyMs: number[];
  lastHookMs: number[];
}

/**
 * The floor of the fan-out on this machine, in the same run: the same receivers POSTed by a bare
 * undici loop in this process (an `Agent` with the sender's 64 connections per origin, a JSON body of
 * the size of a hook's, no signing, database, queue or worker), all at once; timed from the first
 * POST to the last receipt, alternating one receiver and all of the fan-out's.
 */
async function floorOf(
  receivers: Receivers,
  single: string[],
  fanout: string[],
  rounds: number,
  warmups: number,
  marker: () => string,
): Promise<RestHookFigures['floor']> {
  const agent = new Agent({ connections: 64 });
  const round = async (urls: string[]) => {
    const m = marker();
    const body = JSON.stringify({ id: `msg_${m}`, action: 'jobupdated', ts: Date.now(), data: { notes: m, title: 'x'.repeat(300) } });
    const arrived = receivers.expect(m, urls.length);
    const t0 = performance.now();
    await Promise.all(
      urls.map(async (url) =>
        (await request(url, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json' }, body })).body.dump(),
      ),
    );
    return Math.max(...(await arrived).map((r) => r.at)) - t0;
  };
  try {
    for (let i = 0; i < warmups; i++) {
      await round(single);
      await round(fanout);
    }
    const one: number[] = [];
    const all: number[] = [];
    for (let i = 0; i < rounds; i++) {
      one.push(await round(single));
      all.push(await round(fanout));
    }
    return {
      single: { p50: percentile(one, 50), p99: percentile(one, 99) },
      fanout: { p50: percentile(all, 50), p99: percentile(all, 99) },
    };
  } finally {
    await agent.close();
  }
}

export async function benchRestHooks(opts: { api: TestApi; pool: pg.Pool; log: (line: string) => void }): Promise<RestHookFigures> {
  const { api, pool, log } = opts;
  const cfg = REST_HOOKS_CONFIG;
  // node flags for experiments, e.g. BENCH_HOOKS_WORKER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"
  const nodeArgs = process.env.BENCH_HOOKS_WORKER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  opened.worker = await startWorker(
    'bench rest-hooks worker',
    { NODE_ENV: 'production' },
    (sql, params) => pool.query(sql, params),
    nodeArgs,
  );
  const receivers = new Receivers();
  opened.receivers = receivers;

  const side = async (name: string, subscriptions: number, withKey: boolean): Promise<Side> => {
    const company = await createCompany(api, { name: `Bench hooks ${name}` });
    const secrets = new Map<string, string>();
    const urls: string[] = [];
    for (let i = 0; i < subscriptions; i++) {
      const target = `${name}-sub-${i}`;
      urls.push(`${await receivers.start(target)}/${target}`);
      const res = await connector(api, 'POST', '/v1/hooks', company.key, { event: 'jobupdated', url: urls[urls.length - 1] });
      if (res.http !== 201) throw new Error(`POST /v1/hooks: ${JSON.stringify(res.body)}`);
      secrets.set(target, res.body.data.secret);
    }
    if (withKey) {
      const target = `${name}-key`;
      urls.push(`${await receivers.start(target)}/${target}`);
      const set = await action(api, 'setwebhooks', { job_updated: { url: urls[urls.length - 1] } }, { key: company.key });
      if (set.body.status !== 0) throw new Error(`setwebhooks: ${JSON.stringify(set.body)}`);
      secrets.set(target, (await action<{ secret: string }>(api, 'getwebhooks', {}, { key: company.key })).body.secret);
    }
    const created = await action<{ jobs: Array<{ id: string }> }>(
      api,
      'createjobs',
      { jobs: [{ destinationName: `Hooks ${name}` }] },
      { key: company.key },
    );
    if (created.body.status !== 0) throw new Error(`createjobs: ${JSON.stringify(created.body)}`);
    return {
      company,
      jobId: created.body.jobs[0].id,
      expected: secrets.size,
      secrets,
      urls,
      commitMs: [],
      callMs: [],
      spreadMs: [],
      firstMs: [],
      keyMs: [],
      lastHookMs: [],
    };
  };
  const single = await side('single', 1, false);
  const fanout = await side('fanout', cfg.subscriptions, true);
  log(`rest-hooks: ${fanout.expected} receivers for the fan-out company, 1 for the single one`);

  let seq = 0;
  let verified = 0;
  /** One edit of `s`'s job → every receipt; timed unless a warm-up. */
  const probe = async (s: Side, timed: boolean) => {
    const marker = `hk-${++seq}-${Date.now()}`;
    const arrived = receivers.expect(marker, s.expected);
    const t0 = performance.now();
    const res = await action(api, 'editjobs', { jobs: { [s.jobId]: { textDispatcher: marker } } }, { key: s.company.key });
    const committed = performance.now();
    if (res.body.status !== 0) throw new Error(`editjobs: ${JSON.stringify(res.body)}`);
    const got = await arrived;
    const last = Math.max(...got.map((r) => r.at));
    if (timed) {
      s.commitMs.push(last - committed);
      s.callMs.push(last - t0);
      const first = Math.min(...got.map((r) => r.at));
      s.spreadMs.push(last - first);
      s.firstMs.push(first - committed);
      const key = got.find((r) => r.target.endsWith('-key'));
      if (key) s.keyMs.push(key.at - committed);
      s.lastHookMs.push(Math.max(...got.filter((r) => !r.target.endsWith('-key')).map((r) => r.at)) - committed);
    }
    if (seq % 50 === 0) verified += check(s, got);
  };
  /** Every receipt verifies: REST hooks with the library and their own secret, the key's form with the company's. @returns how many */
  const check = (s: Side, got: Receipt[]): number => {
    for (const r of got) {
      const secret = s.secrets.get(r.target)!;
      if (r.target.endsWith('-key')) {
        if (r.headers['content-type'] !== 'application/x-www-form-urlencoded')
          throw new Error('the key endpoint got another body than its form');
        if (!verifySignature(secret, { path: '', headers: r.headers, body: r.body, form: {}, at: 0 }))
          throw new Error(`bad signature at ${r.target}`);
      } else {
        new Webhook(secret).verify(r.body, {
          'webhook-id': String(r.headers['webhook-id']),
          'webhook-timestamp': String(r.headers['webhook-timestamp']),
          'webhook-signature': String(r.headers['webhook-signature']),
        });
      }
    }
    return got.length;
  };

  for (let i = 0; i < cfg.warmups; i++) {
    await probe(single, false);
    await probe(fanout, false);
  }
  // alternating, so both sides meet the same machine
  for (let i = 0; i < cfg.edits; i++) {
    await probe(single, true);
    await probe(fanout, true);
  }
  log(`rest-hooks: ${cfg.edits} timed edits per side`);
  const floor = await floorOf(receivers, single.urls, fanout.urls, cfg.edits, cfg.warmups, () => `hk-${++seq}-${Date.now()}`);
  await closeRestHooks();
  const figures = (s: Side): HookSide => ({
    p50: percentile(s.commitMs, 50),
    p99: percentile(s.commitMs, 99),
    max: Math.max(...s.commitMs),
    fromCallP99: percentile(s.callMs, 99),
    spreadP50: percentile(s.spreadMs, 50),
    spreadP99: percentile(s.spreadMs, 99),
    firstP50: percentile(s.firstMs, 50),
    keyP50: s.keyMs.length ? percentile(s.keyMs, 50) : NaN,
    lastHookP50: percentile(s.lastHookMs, 50),
  });
  return { single: figures(single), fanout: figures(fanout), floor, receivers: fanout.expected, verified };
}

/** The table rows and notes of the figures. */
export function restHooksReport(f: RestHookFigures): { rows: string[][]; notes: string[]; failed: number } {
  const ratio = f.fanout.p99 / f.single.p99;
  const ok = ratio <= REST_HOOKS_CONFIG.targetRatio;
  return {
    rows: [
      [
        `REST hooks: editjobs commit → all ${f.receivers} receivers (${f.receivers - 1} subscriptions + the key endpoint): p99 ms`,
        fmt(f.fanout.p99),
        fmt(f.single.p99),
        `${fmt(ratio, 2)}×`,
        `≤ ${REST_HOOKS_CONFIG.targetRatio}×`,
        ok ? 'PASS' : 'FAIL',
      ],
      [
        'REST hooks: editjobs commit → all receivers: p50 ms',
        fmt(f.fanout.p50),
        fmt(f.single.p50),
        `${fmt(f.fanout.p50 / f.single.p50, 2)}×`,
        '—',
        'info',
      ],
      [
        `floor: the same ${f.receivers} receivers from a bare undici loop (no worker, database or queue): p50 / p99 ms`,
        `${fmt(f.floor.fanout.p50, 2)} / ${fmt(f.floor.fanout.p99, 2)}`,
        `${fmt(f.floor.single.p50, 2)} / ${fmt(f.floor.single.p99, 2)}`,
        `${fmt(f.floor.fanout.p50 / f.floor.single.p50, 2)}× / ${fmt(f.floor.fanout.p99 / f.floor.single.p99, 2)}×`,
        '—',
        'info',
      ],
      [
        'REST hooks: editjobs call start → all receivers: p99 ms',
        fmt(f.fanout.fromCallP99),
        fmt(f.single.fromCallP99),
        `${fmt(f.fanout.fromCallP99 / f.single.fromCallP99, 2)}×`,
        '—',
        'info',
      ],
    ],
    notes: [
      `rest-hooks: ${REST_HOOKS_CONFIG.edits} timed editjobs calls per side (after ${REST_HOOKS_CONFIG.warmups} warm-ups each), one at a time, ` +
        `alternating between a company whose job_updated event has ${f.receivers - 1} REST-hook subscriptions (jobupdated) and its nine-key endpoint, ` +
        `each to a node:http receiver of its own on 127.0.0.1, and the baseline company with ONE subscription; through ONE built worker with the app's defaults. ` +
        `Timed from the moment editjobs answered (its transaction committed) to the body's arrival at the last receiver. ` +
        `Max: fan-out ${fmt(f.fanout.max)} ms, single ${fmt(f.single.max)} ms; commit → first receipt p50 fan-out ${fmt(f.fanout.firstP50)} ms, single ${fmt(f.single.firstP50)} ms; ` +
        `first → last receipt of one fan-out event p50 ${fmt(f.fanout.spreadP50)} ms, p99 ${fmt(f.fanout.spreadP99)} ms; ` +
        `commit → the key endpoint's receipt p50 ${fmt(f.fanout.keyP50)} ms, → the last REST hook's p50 ${fmt(f.fanout.lastHookP50)} ms. ` +
        `${f.verified} receipts verified (every 50th event: REST hooks with the standardwebhooks library and their own secret, the key's form with the company's).`,
    ],
    failed: ok ? 0 : 1,
  };
}

/** `BENCH_ONLY=hooks`: this part alone with the run's header. @returns the exit code */
export async function runRestHooksOnly(opts: PartContext): Promise<number> {
  try {
    return printPart('hooks', restHooksReport(await benchRestHooks(opts)), opts);
  } finally {
    await closeRestHooks();
  }
}
