import { DataSource } from 'typeorm';
import { createCompany, startApi, TestApi, TestCompany } from '../support/api';
import { dropQueueKeys } from '../support/durability-redis';
import { ApiProcess, startApiProcess, stopAllChildren, waitFor } from '../support/proc-child';
import { ReverseProxy, startReverseProxy } from '../support/reverse-proxy';
import { SseStream } from '../support/sse';

/**
 * SIGTERM of one of three api instances holding many live streams (issue #29 item 4): three BUILT
 * api processes behind haproxy, {@link CLIENTS} stream clients through the proxy (round-robin: a
 * third on each), events written continuously. One instance gets SIGTERM: each of its streams ends
 * with a `retry:` (0–5 s, docs/live.md "Shutdown"), and its client reconnects through haproxy with
 * `Last-Event-ID` — as an EventSource does — landing on another instance: haproxy checks each
 * instance's `/health/ready` every 250 ms and takes the draining one (503) out of the rotation, as a
 * production load balancer does (a reconnect landing on it before that gets a `retry:` again).
 * Asserted: every client receives every seq from its snapshot's on exactly once and in order (no
 * gap, no duplicate, no `reset`), every reconnect got a stream (an EventSource gives up on anything
 * else), the stopped instance's clients all resumed, the others' streams never ended; the times from
 * the signal to each stream's end and to its resumed stream are printed.
 *
 * `npm test`: 150 clients, one SIGTERM. `npm run test:faults` (FAULTS_FULL=1): 500 clients, then a
 * second instance stopped too, so every client ends on the last one. Needs `npm run build`, haproxy.
 */
const FULL = process.env.FAULTS_FULL === '1';
const CLIENTS = FULL ? 500 : 150;
const PREFIX = `${process.env.QUEUE_PREFIX ?? 'fieldwork-test'}-streamterm${process.pid}`.slice(-64);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** one job created every this many ms while the test runs */
const WRITE_EVERY_MS = 200;
/** how long the stopping instance keeps answering (streams started meanwhile end with a `retry:`) */
const DRAIN_MS = 1_000;
/** every client of a stopped instance streams again within this of the signal (its retry: is ≤ 5 s) */
const RESUME_BOUND_MS = 15_000;

/** A stream client that reconnects like an EventSource: after its last `retry:`, with `Last-Event-ID`. */
class ResumingClient {
  /** every stamped seq received, over all connections, in arrival order */
  readonly seqs: number[] = [];
  /** the snapshot's seq of the first connection (where the client started) */
  start?: number;
  lastId?: string;
  resets = 0;
  connections = 0;
  /** ms (this process's clock) each connection ended by the server, and each later one opened */
  readonly ends: number[] = [];
  readonly opens: number[] = [];
  /** the `retry:` (ms) that ended each connection the server ended: the shutdown's, after the opening one */
  readonly endRetries: Array<number | undefined> = [];
  /** answers other than 200 on a reconnect */
  readonly refusals: string[] = [];
  private current?: SseStream;
  private stopped = false;
  done!: Promise<void>;

  constructor(
    private readonly url: string,
    private readonly key: string,
  ) {}

  /** Opens the first stream; resolves once it is open (the loop runs on). */
  async begin(): Promise<void> {
    const first = await this.open();
    if (first.status !== 200) throw new Error(`stream refused: ${first.status} ${JSON.stringify(first.errorBody)}`);
    this.done = this.loop(first);
  }

  private async open(): Promise<SseStream> {
    const headers: Record<string, string> = { 'api-key': this.key };
    if (this.lastId !== undefined) headers['last-event-id'] = this.lastId;
    return SseStream.open(this.url, headers);
  }

  private async loop(first: SseStream): Promise<void> {
    let s: SseStream | undefined = first;
    for (;;) {
      if (s) {
        this.current = s;
        this.connections++;
        if (this.stopped) s.close();
        await s.ended;
        this.take(s);
        if (this.stopped) return;
        this.ends.push(Date.now());
        this.endRetries.push(s.retries.length > 1 ? s.retries.at(-1) : undefined);
        await new Promise((r) => setTimeout(r, s!.retries.at(-1) ?? 3000));
      }
      if (this.stopped) return;
      const next = await this.open().catch((err: Error) => err);
      if (next instanceof Error || next.status !== 200) {
        this.refusals.push(next instanceof Error ? next.message : `${next.status} ${JSON.stringify(next.errorBody)}`);
        s = undefined;
        await new Promise((r) => setTimeout(r, 500));
        continue;
      }
      this.opens.push(Date.now());
      s = next;
    }
  }

  /** Takes a finished connection's events into the client's record. */
  private take(s: SseStream): void {
    for (const e of s.events) {
      if (e.event === 'reset') this.resets++;
      if (e.id === undefined || e.event === 'position') continue;
      this.lastId = e.id;
      if (e.event === 'snapshot') {
        this.start ??= Number(e.id);
        continue;
      }
      this.seqs.push(Number(e.id));
    }
  }

  /** The last seq seen so far, the open connection's events included. */
  get lastSeq(): number | undefined {
    for (let i = (this.current?.events.length ?? 0) - 1; i >= 0; i--) {
      const e = this.current!.events[i];
      if (e.id !== undefined && e.event !== 'position') return Number(e.id);
    }
    return this.lastId === undefined ? undefined : Number(this.lastId);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.current?.close();
    await this.done;
  }
}

describe('SIGTERM of one of three api instances holding live streams (haproxy)', () => {
  let api: TestApi;
  let db: DataSource;
  let procs: ApiProcess[];
  let proxy: ReverseProxy;
  let clients: ResumingClient[] = [];

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    const env = { QUEUE_PREFIX: PREFIX, SHUTDOWN_DRAIN_MS: String(DRAIN_MS), STREAM_HEARTBEAT_MS: '5000' };
    procs = await Promise.all([startApiProcess(env), startApiProcess(env), startApiProcess(env)]);
    // the load balancer takes a draining instance (readiness 503) out of the rotation, as in production
    proxy = await startReverseProxy(
      procs.map((p) => p.url),
      { healthCheck: { intervalMs: 250 } },
    );
  }, 90_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.stop().catch(() => undefined)));
    await proxy?.stop();
    await stopAllChildren();
    await api?.close();
    await dropQueueKeys(REDIS_URL, PREFIX).catch(() => undefined);
  }, 60_000);

  /** Creates one job every WRITE_EVERY_MS through the in-process api until `stop()`. */
  function writeContinuously(c: TestCompany): { stop: () => Promise<number> } {
    let stopped = false;
    let written = 0;
    const loop = (async () => {
      while (!stopped) {
        const res = await fetch(`${api.url}/api/createjobs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'api-key': c.key },
          body: JSON.stringify({ data: { jobs: [{ destinationName: `live ${written}` }] } }),
        });
        expect(((await res.json()) as { status: number }).status).toBe(0);
        written++;
        await new Promise((r) => setTimeout(r, WRITE_EVERY_MS));
      }
    })();
    return {
      stop: async () => {
        stopped = true;
        await loop;
        return written;
      },
    };
  }

  const lastSeqOf = async (companyId: string): Promise<number> =>
    Number((await db.query(`SELECT last_seq::int AS s FROM outbox_sequences WHERE company_id = $1`, [companyId]))[0]?.s ?? 0);

  it(`${CLIENTS} clients: those of a stopped instance resume on another with every event once, in order`, async () => {
    const c = await createCompany(api);
    const openedAt = Date.now();
    for (let i = 0; i < CLIENTS; i += 50) {
      const batch = Array.from({ length: Math.min(50, CLIENTS - i) }, () => new ResumingClient(`${proxy.url}/v1/stream`, c.key));
      await Promise.all(batch.map((cl) => cl.begin()));
      clients.push(...batch);
    }
    const openMs = Date.now() - openedAt;
    const perServer = await proxy.requestsPerServer();
    const writer = writeContinuously(c);
    // every client is live: it got an event written after all were open
    const firstLive = (await lastSeqOf(c.companyUid)) + 1;
    await waitFor('every client live', () => clients.every((cl) => (cl.lastSeq ?? 0) >= firstLive), { timeoutMs: 20_000, intervalMs: 100 });

    const rounds: Array<{ victim: number; at: number; ended: ResumingClient[]; endMs: number[]; resumeMs: number[] }> = [];
    for (const victim of FULL ? [2, 1] : [2]) {
      const before = new Map(clients.map((cl) => [cl, cl.ends.length]));
      const at = Date.now();
      const exit = procs[victim].child.stop('SIGTERM', 20_000);
      expect((await exit).code).toBe(0);
      // its clients ended; each reconnects after its retry:
      const ended = clients.filter((cl) => cl.ends.length > before.get(cl)!);
      expect(ended.length).toBeGreaterThan(0);
      // ended gracefully: a retry: of at most 5 s, not a reset
      for (const cl of ended) expect(cl.endRetries[before.get(cl)!]).toBeLessThanOrEqual(5_000);
      await waitFor(
        `the ${ended.length} clients of instance ${victim} streaming again`,
        () =>
          ended.every(
            (cl) => cl.opens.some((t) => t > at) && cl.ends.filter((t) => t > at).length <= cl.opens.filter((t) => t > at).length,
          ),
        { timeoutMs: RESUME_BOUND_MS, intervalMs: 100 },
      );
      // signal → the connection each streams on now (a first try may have landed on the draining instance)
      rounds.push({
        victim,
        at,
        ended,
        endMs: ended.map((cl) => cl.ends.find((t) => t > at)! - at),
        resumeMs: ended.map((cl) => cl.opens.at(-1)! - at),
      });
      // and live again
      const target = (await lastSeqOf(c.companyUid)) + 1;
      await waitFor('every client past the restart', () => clients.every((cl) => (cl.lastSeq ?? 0) >= target), {
        timeoutMs: 20_000,
        intervalMs: 100,
      });
    }
    const written = await writer.stop();
    const final = await lastSeqOf(c.companyUid);
    await waitFor('every client at the last seq', () => clients.every((cl) => cl.lastSeq === final), {
      timeoutMs: 20_000,
      intervalMs: 100,
    });
    const all = clients;
    clients = [];
    await Promise.all(all.map((cl) => cl.stop()));

    // every client: every seq after its snapshot's, once, in order; never a reset
    for (const [i, cl] of all.entries()) {
      const expected = Array.from({ length: final - cl.start! }, (_, k) => cl.start! + 1 + k);
      if (cl.resets || cl.seqs.length !== expected.length || cl.seqs.some((s, k) => s !== expected[k])) {
        const dupes = cl.seqs.length - new Set(cl.seqs).size;
        const missing = expected.filter((s) => !cl.seqs.includes(s));
        throw new Error(
          `client ${i}: ${cl.seqs.length} seqs for ${expected.length} expected (from ${cl.start! + 1} to ${final}); ` +
            `${dupes} duplicated, missing ${missing.slice(0, 10)}; resets ${cl.resets}; connections ${cl.connections}`,
        );
      }
    }
    // only the stopped instances' clients reconnected; a client of a stopped one may have needed
    // more than one try (it landed on the draining instance)
    const stoppedOnes = new Set(rounds.flatMap((r) => r.ended));
    for (const cl of all) if (!stoppedOnes.has(cl)) expect(cl.connections).toBe(1);
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const resumeMs = sorted(rounds.flatMap((r) => r.resumeMs));
    const endMs = sorted(rounds.flatMap((r) => r.endMs));
    const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
    console.log(
      `SIGTERM with ${CLIENTS} streams (opened in ${openMs} ms, per instance ${JSON.stringify(perServer)}); ` +
        rounds.map((r) => `instance ${r.victim}: ${r.ended.length} clients ended`).join(', ') +
        `; ${written} jobs written, seqs ${all[0].start! + 1}..${final} each received once by all; ` +
        `signal → stream ended p50 ${pct(endMs, 50)} ms, max ${endMs.at(-1)} ms; ` +
        `signal → resumed stream p50 ${pct(resumeMs, 50)} ms, p95 ${pct(resumeMs, 95)} ms, max ${resumeMs.at(-1)} ms (retry: spread 0–5 s); ` +
        `refused reconnects ${all.reduce((n, cl) => n + cl.refusals.length, 0)}`,
    );
    expect(resumeMs.at(-1)).toBeLessThanOrEqual(RESUME_BOUND_MS);
    // an EventSource gives up on an answer other than 200: every reconnect must have been a stream
    const refusals = all.flatMap((cl) => cl.refusals);
    if (refusals.length) {
      const states = (proxy.child.stdout + proxy.child.stderr).split('\n').filter((l) => /is (DOWN|UP)/.test(l));
      throw new Error(`${refusals.length} reconnects refused, e.g. ${refusals[0]}; haproxy's server states:\n${states.join('\n')}`);
    }
  }, 180_000);
});
