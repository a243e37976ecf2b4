import { EventSource } from 'eventsource';
import { createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';
import { dropQueueKeys } from '../support/durability-redis';
import { ApiProcess, getJson, startApiProcess, stopAllChildren, waitFor } from '../support/proc-child';
import { ReverseProxy, startReverseProxy } from '../support/reverse-proxy';
import { SseEvent, SseStream } from '../support/sse';

/**
 * The live stream across instances: three BUILT api processes (a queue prefix of the test's own)
 * behind haproxy, each stamping and streaming. An event written through one instance reaches
 * clients of every instance; a client that reconnects elsewhere with its last id sees no gap; a
 * client that does not read is dropped and resumes; SIGTERM ends streams with a `retry:` and the
 * `eventsource` client carries on through another instance; a stream token never reaches a log line.
 * Needs `npm run build` and haproxy (`scripts/test-tools.sh`).
 */
const PREFIX = `fieldwork-live-${process.pid}-${Date.now()}`;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** a small backlog, so a client that does not read is dropped after a few MB */
const BACKLOG = 20;

describe('live stream across three api instances (haproxy)', () => {
  let api: TestApi;
  let procs: ApiProcess[];
  let proxy: ReverseProxy;
  const streams: SseStream[] = [];
  const sources: EventSource[] = [];

  beforeAll(async () => {
    api = await startApi();
    const env = { QUEUE_PREFIX: PREFIX, LOG_LEVEL: 'log', STREAM_MAX_BACKLOG_EVENTS: String(BACKLOG), STREAM_HEARTBEAT_MS: '1000' };
    procs = await Promise.all([startApiProcess(env), startApiProcess(env), startApiProcess(env)]);
    proxy = await startReverseProxy(procs.map((p) => p.url));
  }, 90_000);

  afterAll(async () => {
    for (const s of streams) s.close();
    for (const e of sources) e.close();
    await proxy?.stop();
    await stopAllChildren();
    await api?.close();
    await dropQueueKeys(REDIS_URL, PREFIX).catch(() => undefined);
  });

  async function open(base: string, key: string, headers: Record<string, string> = {}, opts: { paused?: boolean } = {}) {
    const s = await SseStream.open(`${base}/v1/stream`, { 'api-key': key, ...headers }, opts);
    expect(s.status).toBe(200);
    streams.push(s);
    return s;
  }

  /** createjobs through one instance's own port. */
  async function createJobs(base: string, c: TestCompany, jobs: Array<Record<string, unknown>>): Promise<string[]> {
    const res = await fetch(`${base}/api/createjobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'api-key': c.key },
      body: JSON.stringify({ data: { jobs } }),
    });
    const body = (await res.json()) as { status: number; jobs: Array<{ id: string }> };
    expect(body.status).toBe(0);
    return body.jobs.map((j) => j.id);
  }

  const stamped = (events: SseEvent[]) => events.filter((e) => e.id !== undefined && e.event !== 'snapshot' && e.event !== 'position');
  const seqs = (events: SseEvent[]) => stamped(events).map((e) => Number(e.id));

  it('an event written through instance 1 reaches clients on instances 2 and 3 and through the proxy; a client that reconnects to another instance with its last id sees no gap', async () => {
    const c = await createCompany(api);
    const on3 = await open(procs[2].url, c.key);
    const on2 = await open(procs[1].url, c.key);
    const viaProxy = await open(proxy.url, c.key);
    for (const s of [on3, on2, viaProxy]) await s.waitFor('snapshot', (ev) => ev.some((e) => e.event === 'snapshot'));
    const t = Date.now();
    const [id] = await createJobs(procs[0].url, c, [{ destinationName: 'written on 1' }]);
    for (const s of [on3, on2, viaProxy])
      await s.waitFor('the job', (ev) => ev.some((e) => e.event === 'jobcreated' && e.data.data[0].id === id), 5000);
    expect(Date.now() - t).toBeLessThan(5000);

    // on instance 1: 30 events, leave, 30 more written through 2, reconnect to 3 with the last id
    const first = await open(procs[0].url, c.key);
    await first.waitFor('snapshot', (ev) => ev.some((e) => e.event === 'snapshot'));
    const from = first.of('snapshot')[0].data.lastSeq;
    await createJobs(
      procs[1].url,
      c,
      Array.from({ length: 30 }, (_, i) => ({ destinationName: `a${i}` })),
    );
    await first.waitFor('30', (ev) => stamped(ev).length >= 30);
    first.close();
    await createJobs(
      procs[1].url,
      c,
      Array.from({ length: 30 }, (_, i) => ({ destinationName: `b${i}` })),
    );
    const again = await open(procs[2].url, c.key, { 'last-event-id': first.lastEventId! });
    await again.waitFor('30 more', (ev) => stamped(ev).length >= 30);
    expect([...seqs(first.events), ...seqs(again.events)]).toEqual(Array.from({ length: 60 }, (_, i) => from + 1 + i));
  });

  it('a client whose socket does not drain is dropped (counted in /metrics), then resumes with its last id and gets every event', async () => {
    const c = await createCompany(api);
    const slow = await open(procs[0].url, c.key);
    await slow.waitFor('snapshot', (ev) => ev.some((e) => e.event === 'snapshot'));
    slow.pause(); // from now on it reads nothing: the server's writes fill the socket buffers
    const big = 'x'.repeat(10_000);
    const total = 800; // ~ 16 MB of events: more than the socket buffers between the two
    for (let i = 0; i < total; i += 50) {
      await createJobs(
        procs[1].url,
        c,
        Array.from({ length: 50 }, (_, k) => ({ destinationName: `big ${i + k}`, textDispatcher: big, textReceiver: big })),
      );
    }
    await waitFor(
      'the slow client dropped',
      async () => {
        const { body } = await getJson<string>(`${procs[0].url}/metrics`);
        return /^fieldwork_stream_dropped_total (\d+)/m.exec(body)?.[1] !== '0';
      },
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    slow.resume();
    await slow.ended;
    const got = stamped(slow.events).length;
    expect(got).toBeLessThan(total);
    // what it had read before the reset is all it has (the snapshot's id at least)
    const resumed = await open(procs[0].url, c.key, { 'last-event-id': slow.lastEventId! });
    await resumed.waitFor('the rest', (ev) => stamped(ev).length >= total - got, 30_000);
    const all = [...seqs(slow.events), ...seqs(resumed.events)];
    const from = slow.of('snapshot')[0].data.lastSeq;
    expect(all).toEqual(Array.from({ length: total }, (_, i) => from + 1 + i));
  }, 90_000);

  it('SIGTERM: streams end with a retry:, and an EventSource (token auth, through the proxy) reconnects to another instance with no gap; the token never reaches a log line', async () => {
    const c = await createCompany(api);
    const w = await createMember(api, c, { role: 'worker' });
    // through the instances (their queue prefix keeps the tokens), not the in-process api
    const tokenRes = await fetch(`${proxy.url}/api/createstreamtoken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'api-key': c.key },
      body: '{"data":{}}',
    });
    const { token } = (await tokenRes.json()) as { token: string };
    const received: MessageEvent[] = [];
    const es = new EventSource(`${proxy.url}/v1/stream?token=${encodeURIComponent(token)}`);
    sources.push(es);
    let opened = 0;
    es.onopen = () => opened++;
    for (const name of ['jobcreated', 'snapshot']) es.addEventListener(name, (e) => received.push(e as MessageEvent));
    await waitFor('snapshot', async () => received.some((e) => e.type === 'snapshot'), { timeoutMs: 10_000, intervalMs: 50 });
    const direct = await open(procs[2].url, c.key);
    await direct.waitFor('snapshot', (ev) => ev.some((e) => e.event === 'snapshot'));

    await createJobs(
      procs[0].url,
      c,
      Array.from({ length: 10 }, (_, i) => ({ destinationName: `before ${i}`, receiverUid: w.uid })),
    );
    await waitFor('10 jobs', async () => received.filter((e) => e.type === 'jobcreated').length >= 10, {
      timeoutMs: 10_000,
      intervalMs: 50,
    });
    // stop instance 3: its direct client is told to retry; the EventSource, wherever it is, carries on
    const exit = procs[2].child.stop('SIGTERM');
    await direct.ended;
    expect(direct.retries.length).toBe(2);
    expect(direct.retries[1]).toBeLessThanOrEqual(5000);
    expect((await exit).code).toBe(0);
    await createJobs(
      procs[0].url,
      c,
      Array.from({ length: 10 }, (_, i) => ({ destinationName: `after ${i}`, receiverUid: w.uid })),
    );
    await waitFor('20 jobs', async () => received.filter((e) => e.type === 'jobcreated').length >= 20, {
      timeoutMs: 20_000,
      intervalMs: 50,
    });
    const ids = received.filter((e) => e.type === 'jobcreated').map((e) => Number(e.lastEventId));
    expect(ids).toEqual(Array.from({ length: 20 }, (_, i) => ids[0] + i));

    // a request's log line is written when it ends: end the EventSource's stream first
    es.close();
    await waitFor('the stream logged', async () => procs.some((p) => p.child.stdout.includes('token=[redacted]')), {
      timeoutMs: 5000,
      intervalMs: 100,
    });
    const logs = procs.map((p) => p.child.stdout + p.child.stderr).join('\n');
    expect(logs).toContain('/v1/stream');
    expect(logs).not.toContain(token);
    expect(logs).not.toContain(encodeURIComponent(token));
    expect(logs).toContain('token=[redacted]');
  }, 60_000);
});
