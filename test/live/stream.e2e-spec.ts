import { DataSource } from 'typeorm';
import { action, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';
import { SseEvent, SseStream } from '../support/sse';

/**
 * The live stream end to end (CONTRACTS.md "Wave 3: live stream"; docs/live.md): an in-process api
 * (which stamps and streams), real PostgreSQL and Redis, real HTTP read by a WHATWG SSE parser.
 * Positions every 1 s and tokens valid 2 s here, so the suite runs in seconds.
 */
const ENV = { STREAM_POSITION_MS: '1000', STREAM_TOKEN_TTL_MS: '2000', STREAM_HEARTBEAT_MS: '1000' };

describe('live stream (GET /v1/stream)', () => {
  let api: TestApi;
  let db: DataSource;
  const saved: Record<string, string | undefined> = {};
  const streams: SseStream[] = [];

  beforeAll(async () => {
    for (const [k, v] of Object.entries(ENV)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    api = await startApi();
    db = api.app.get(DataSource);
  }, 60_000);

  afterAll(async () => {
    for (const s of streams) s.close();
    await api?.close();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  /** Opens a stream with a key (or `headers` alone), kept for closing. */
  async function open(key: string | undefined, query = '', headers: Record<string, string> = {}, opts: { paused?: boolean } = {}) {
    const s = await SseStream.open(`${api.url}/v1/stream${query}`, key ? { 'api-key': key, ...headers } : headers, opts);
    streams.push(s);
    return s;
  }

  const today = () => Number(new Date().toISOString().slice(0, 10).replace(/-/g, ''));

  async function createJobs(c: TestCompany, jobs: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}): Promise<string[]> {
    const res = await action<{ jobs: Array<{ id: string }> }>(api, 'createjobs', { jobs, ...extra }, { key: c.key });
    expect(res.body).toMatchObject({ status: 0 });
    return res.body.jobs.map((j) => j.id);
  }

  async function editJob(
    c: TestCompany | { key: string },
    id: string,
    fields: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ) {
    const res = await action(api, 'editjobs', { jobs: { [id]: fields }, ...extra }, { key: c.key });
    expect(res.body).toMatchObject({ status: 0 });
  }

  const seqs = (events: SseEvent[]) => events.filter((e) => e.id !== undefined && e.event !== 'snapshot').map((e) => Number(e.id));
  const stamped = (events: SseEvent[]) => events.filter((e) => e.event !== 'snapshot' && e.event !== 'position' && e.event !== 'reset');
  /** Job events only: a notification written just before a stream opened (a new member's) may be stamped after its snapshot. */
  const jobEvents = (events: SseEvent[]) => stamped(events).filter((e) => e.event.startsWith('job'));

  it('answers text/event-stream: retry first, a snapshot, then each event kind in the pinned envelope, with heartbeats', async () => {
    const c = await createCompany(api);
    const w = await createMember(api, c, { role: 'worker', name: 'Ana' });
    const s = await open(c.key);
    expect(s.status).toBe(200);
    expect(s.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(s.headers['cache-control']).toContain('no-transform');
    expect(s.headers['content-encoding']).toBeUndefined();
    await s.waitFor('snapshot', (ev) => ev.some((e) => e.event === 'snapshot'));
    expect(s.retries[0]).toBe(3000);
    const snap = s.of('snapshot')[0];
    expect(snap.data).toEqual({ ts: expect.any(Number), lastSeq: expect.any(Number), members: [] });
    expect(snap.id).toBe(String(snap.data.lastSeq));

    const ws = await open(w.key);
    const [jobId] = await createJobs(c, [{ destinationName: 'Fix pump', receiverUid: w.uid, day: today() }], { sendRouteChange: true });
    await editJob(c, jobId, { destinationName: 'Fix the pump' });
    await editJob(c, jobId, { tsCheckIn: Date.now() - 2000 });
    await editJob(c, jobId, { tsCheckOut: Date.now() - 1000 });
    await editJob(c, jobId, { tsDoneSuccess: Date.now() });
    expect((await action(api, 'archivejobs', { jobs: { [jobId]: {} } }, { key: c.key })).body.status).toBe(0);
    expect((await action(api, 'deletejobs', { jobs: { [jobId]: {} } }, { key: c.key })).body.status).toBe(0);
    const push = await action(
      api,
      'pushlocations',
      { locations: [{ lat: 46.05, lng: 14.5, ts: Date.now(), acc: 5 }], tracking: true },
      { key: w.key },
    );
    expect(push.body.status).toBe(0);
    expect((await action(api, 'pushlocations', { locations: [], tracking: false }, { key: w.key })).body.status).toBe(0);

    const kinds = [
      'jobcreated',
      'jobupdated',
      'jobcheckin',
      'jobcheckout',
      'jobcompleted',
      'jobarchived',
      'jobdeleted',
      'clockin',
      'clockout',
    ];
    await s.waitFor('every kind', (ev) => kinds.every((k) => ev.some((e) => e.event === k)) && ev.some((e) => e.event === 'position'));
    for (const k of kinds) {
      const [e] = s.of(k);
      expect(e.data).toEqual({
        id: expect.stringMatching(/^msg_/),
        seq: Number(e.id),
        action: k,
        ts: expect.any(Number),
        data: expect.anything(),
      });
      expect(Math.abs(e.data.ts - Date.now())).toBeLessThan(60_000);
    }
    expect(s.of('jobcreated')[0].data.data).toEqual([
      expect.objectContaining({ id: jobId, destinationName: 'Fix pump', receiverUid: w.uid }),
    ]);
    expect(s.of('jobdeleted')[0].data.data[0].id).toBe(jobId);
    expect(s.of('clockin')[0].data.data).toMatchObject({ who: { uid: w.uid }, tracking: true });
    // in commit order; the seqs it skips are the worker's own notification's (checked below)
    const ids = seqs(stamped(s.events));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids[0]).toBe(snap.data.lastSeq + 1);

    const [pos] = s.of('position');
    expect(pos.id).toBeUndefined();
    expect(pos.data).toEqual({
      member: { uid: w.uid, username: w.username, name: 'Ana' },
      lat: 46.05,
      lng: 14.5,
      ts: expect.any(Number),
      acc: 5,
      spd: null,
      dir: null,
      bat: null,
      state: expect.stringMatching(/^(moving|halted|stale|off)$/),
    });

    // the worker hears the route change it was notified of; the administrator doesn't (it is personal)
    await ws.waitFor('notification', (ev) => ev.some((e) => e.event === 'notification'));
    expect(ws.of('notification')[0].data).toMatchObject({
      action: 'notification',
      data: { kind: 'route_changed', memberUid: w.uid, jobId },
    });
    // staff hear the company-wide ones (job progress of a job with no dispatcher; members_changed when the
    // worker's account, created just before the stream opened, was stamped after it), never a member's own
    expect(s.of('notification').filter((n) => n.data.data.kind === 'job_progress' && n.data.data.jobId === jobId).length).toBeGreaterThan(
      0,
    );
    for (const n of s.of('notification'))
      expect(n.data.data).toMatchObject({ kind: expect.stringMatching(/^(job_progress|members_changed)$/), memberUid: null });
    // the company's sequence has no gap: what the administrator skipped is the worker's notification
    const all = [...ids, ...ws.of('notification').map((e) => Number(e.id))].sort((a, b) => a - b);
    expect(all).toEqual(all.map((_, i) => all[0] + i));
    expect(s.comments).toBeGreaterThan(0);

    // this process's stream figures on /metrics
    const metrics = await (await fetch(`${api.url}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1]);
    expect(value('fieldwork_stream_open')).toBeGreaterThanOrEqual(2);
    expect(value('fieldwork_stream_frames_sent_total')).toBeGreaterThan(10);
    expect(value('fieldwork_stream_dropped_total')).toBe(0);
    expect(value('fieldwork_stream_delay_seconds_count')).toBeGreaterThan(0);
  });

  it('role visibility: a worker sees its own jobs (also one reassigned away) and its own position; an operator sees the company', async () => {
    const c = await createCompany(api);
    const w1 = await createMember(api, c, { role: 'worker' });
    const w2 = await createMember(api, c, { role: 'worker' });
    const op = await createMember(api, c, { role: 'operator' });
    await action(api, 'pushlocations', { locations: [{ lat: 46, lng: 14, ts: Date.now() }] }, { key: w1.key });
    await action(api, 'pushlocations', { locations: [{ lat: 46.1, lng: 14.1, ts: Date.now() }] }, { key: w2.key });
    const s1 = await open(w1.key);
    const so = await open(op.key);
    await s1.waitFor('snapshot', (ev) => ev.some((e) => e.event === 'snapshot'));
    await so.waitFor('snapshot', (ev) => ev.some((e) => e.event === 'snapshot'));
    expect(s1.of('snapshot')[0].data.members.map((m: any) => m.member.uid)).toEqual([w1.uid]);
    expect(
      so
        .of('snapshot')[0]
        .data.members.map((m: any) => m.member.uid)
        .sort(),
    ).toEqual([w1.uid, w2.uid].sort());

    const [mine, theirs] = await createJobs(c, [
      { destinationName: 'mine', receiverUid: w1.uid },
      { destinationName: 'theirs', receiverUid: w2.uid },
    ]);
    await editJob(c, mine, { receiverUid: w2.uid }); // reassigned away from w1
    await editJob(c, mine, { destinationName: 'now w2 only' }); // no longer w1's
    await so.waitFor('operator sees 4', (ev) => jobEvents(ev).length >= 4);
    await s1.waitFor('w1 sees its 2', (ev) => jobEvents(ev).length >= 2);
    await new Promise((r) => setTimeout(r, 500));
    expect(jobEvents(s1.events).map((e) => [e.event, e.data.data[0].id, e.data.data[0].destinationName])).toEqual([
      ['jobcreated', mine, 'mine'],
      ['jobupdated', mine, 'mine'],
    ]);
    expect(jobEvents(so.events).map((e) => e.data.data[0].id)).toEqual([mine, theirs, mine, mine]);
    // ids pass the worker by: its seqs skip the events it may not see, in order
    const s1Seqs = seqs(jobEvents(s1.events));
    expect(s1Seqs[1]).toBeGreaterThan(s1Seqs[0]);
  });

  it('tenant isolation: another company never appears, and its key streams only its own', async () => {
    const a = await createCompany(api);
    const b = await createCompany(api);
    const sa = await open(a.key);
    const sb = await open(b.key);
    await createJobs(a, [{ destinationName: 'A1' }, { destinationName: 'A2' }]);
    await createJobs(b, [{ destinationName: 'B1' }]);
    await sa.waitFor('A events', (ev) => jobEvents(ev).length >= 2);
    await sb.waitFor('B event', (ev) => jobEvents(ev).length >= 1);
    await new Promise((r) => setTimeout(r, 500));
    expect(jobEvents(sa.events).map((e) => e.data.data[0].destinationName)).toEqual(['A1', 'A2']);
    expect(jobEvents(sb.events).map((e) => e.data.data[0].destinationName)).toEqual(['B1']);
    // each company numbers its own events from 1
    expect(jobEvents(sb.events)[0].data.seq).toBe(1);
  });

  it('a token from createstreamtoken starts streams until it expires, then 401; missing and bad credentials 401 in the connector shape', async () => {
    const c = await createCompany(api);
    const w = await createMember(api, c, { role: 'worker' });
    const before = Date.now();
    const res = await action<{ token: string; expiresAt: number }>(api, 'createstreamtoken', {}, { key: w.key });
    expect(res.body).toEqual({ status: 0, token: expect.stringMatching(/^st_[A-Za-z0-9_-]{43}$/), expiresAt: expect.any(Number) });
    expect(res.body.expiresAt).toBeGreaterThanOrEqual(before + 2000);
    expect(res.body.expiresAt).toBeLessThanOrEqual(Date.now() + 2000);
    const t = encodeURIComponent(res.body.token);
    const a = await open(undefined, `?token=${t}`);
    const b = await open(undefined, `?token=${t}`);
    expect([a.status, b.status]).toEqual([200, 200]);
    await a.waitFor('snapshot', (ev) => ev.some((e) => e.event === 'snapshot'));
    await new Promise((r) => setTimeout(r, res.body.expiresAt - Date.now() + 200));
    const late = await open(undefined, `?token=${t}`);
    expect(late.status).toBe(401);
    expect(late.errorBody).toEqual({ error: { message: expect.stringContaining('token') } });
    // the stream it started goes on
    const [jobId] = await createJobs(c, [{ destinationName: 'x', receiverUid: w.uid }]);
    await a.waitFor('event after expiry', (ev) => ev.some((e) => e.event === 'jobcreated' && e.data.data[0].id === jobId));
    for (const q of ['', '?token=', '?token=st_nope']) {
      const s = await open(undefined, q);
      expect(s.status).toBe(401);
      expect(s.errorBody).toEqual({ error: { message: expect.any(String) } });
    }
    expect((await open('fwk_ZZZZZZZZ_' + 'A'.repeat(32))).status).toBe(401);
  });

  it('?events= filters by action; an unknown name is 400 naming it', async () => {
    const c = await createCompany(api);
    const s = await open(c.key, '?events=jobcreated,jobdeleted');
    const [id] = await createJobs(c, [{ destinationName: 'one' }]);
    await editJob(c, id, { destinationName: 'two' });
    expect((await action(api, 'deletejobs', { jobs: { [id]: {} } }, { key: c.key })).body.status).toBe(0);
    await s.waitFor('deleted', (ev) => ev.some((e) => e.event === 'jobdeleted'));
    expect(s.events.map((e) => e.event)).toEqual(['snapshot', 'jobcreated', 'jobdeleted']);
    const bad = await open(c.key, '?events=jobcreated,nosuchevent');
    expect(bad.status).toBe(400);
    expect(bad.errorBody.error.message).toMatch(/events.*nosuchevent/);
    expect((await open(c.key, '?events=jobcreated,')).status).toBe(400);
  });

  it('resumes after 1,000 events from any Last-Event-ID with no gap and no duplicate; an unknown or too old id gets reset, then a snapshot', async () => {
    const c = await createCompany(api);
    const first = await open(c.key);
    await first.waitFor('snapshot', (ev) => ev.some((e) => e.event === 'snapshot'));
    const start = first.of('snapshot')[0].data.lastSeq;
    const jobs = Array.from({ length: 1000 }, (_, i) => ({ destinationName: `job ${i}` }));
    await createJobs(c, jobs.slice(0, 400));
    await first.waitFor('400 events', (ev) => stamped(ev).length >= 400);
    first.close();
    const cut = Number(first.lastEventId);
    await createJobs(c, jobs.slice(400));
    const second = await open(c.key, '', { 'last-event-id': String(cut) });
    await second.waitFor('the rest', (ev) => stamped(ev).length >= 600, 30_000);
    expect(second.of('snapshot')).toEqual([]);
    const all = [...seqs(stamped(first.events)), ...seqs(stamped(second.events))];
    expect(all).toEqual(Array.from({ length: 1000 }, (_, i) => start + 1 + i));
    expect(stamped(second.events).map((e) => e.data.data[0].destinationName)).toEqual(jobs.slice(400).map((j) => j.destinationName));
    // lastEventId as a query parameter (a fetch-based client) does the same
    const third = await open(c.key, `?lastEventId=${start + 990}`);
    await third.waitFor('10 events', (ev) => stamped(ev).length >= 10);
    expect(seqs(stamped(third.events))).toEqual(Array.from({ length: 10 }, (_, i) => start + 991 + i));

    for (const id of [String(start + 5000), 'abc']) {
      const s = await open(c.key, '', { 'last-event-id': id });
      await s.waitFor('snapshot', (ev) => ev.some((e) => e.event === 'snapshot'));
      expect(s.events.map((e) => e.event)).toEqual(['reset', 'snapshot']);
      expect(s.of('snapshot')[0].data.lastSeq).toBe(start + 1000);
    }
    // past STREAM_REPLAY_HOURS (24): the event is made a day old
    await db.query(`UPDATE outbox_events SET created_at = created_at - 25 * 3600000 WHERE company_id = $1 AND seq = $2`, [
      c.companyUid,
      start + 10,
    ]);
    const old = await open(c.key, '', { 'last-event-id': String(start + 10) });
    await old.waitFor('snapshot', (ev) => ev.some((e) => e.event === 'snapshot'));
    expect(old.events.map((e) => e.event)).toEqual(['reset', 'snapshot']);
  }, 120_000);

  it('positions: 50 fixes in 1 s give at most one position per member per STREAM_POSITION_MS, the newest last; a resume gets current positions', async () => {
    const c = await createCompany(api);
    const w = await createMember(api, c, { role: 'worker' });
    const s = await open(c.key, '?events=position');
    await s.waitFor('snapshot', (ev) => ev.some((e) => e.event === 'snapshot'));
    const t0 = Date.now();
    for (let i = 0; i < 10; i++) {
      const fixes = Array.from({ length: 5 }, (_, k) => ({ lat: 46 + (i * 5 + k) / 10_000, lng: 14, ts: t0 + (i * 5 + k) * 20 }));
      expect((await action(api, 'pushlocations', { locations: fixes }, { key: w.key })).body.status).toBe(0);
      await new Promise((r) => setTimeout(r, 100));
    }
    const newest = t0 + 49 * 20;
    await s.waitFor('the newest fix', (ev) => ev.some((e) => e.event === 'position' && e.data.ts === newest), 10_000);
    await new Promise((r) => setTimeout(r, 1200));
    const positions = s.of('position').filter((e) => e.data.member.uid === w.uid);
    expect(positions.length).toBeLessThanOrEqual(3);
    for (let i = 1; i < positions.length; i++) expect(positions[i].at - positions[i - 1].at).toBeGreaterThanOrEqual(900);
    expect(positions[positions.length - 1].data.ts).toBe(newest);

    const resumed = await open(c.key, '', { 'last-event-id': s.of('snapshot')[0].id! });
    await resumed.waitFor('current position', (ev) => ev.some((e) => e.event === 'position'));
    expect(resumed.of('snapshot')).toEqual([]);
    expect(resumed.of('position')[0].data).toMatchObject({ member: { uid: w.uid }, ts: newest });
  });

  it('ordering: two transactions that commit in the opposite order of their outbox ids both arrive, the later commit after; a read-only transaction held open does not delay the stream', async () => {
    const c = await createCompany(api);
    const s = await open(c.key);
    await s.waitFor('snapshot', (ev) => ev.some((e) => e.event === 'snapshot'));
    const { OutboxService } = await import('@app/core');
    const outbox = api.app.get(OutboxService);
    const ev = (name: string) =>
      ({ companyId: c.companyUid, eventKey: 'job_created', action: 'jobcreated', formId: name, data: [{ id: name, name }] }) as any;
    // A takes the earlier id and commits last
    const a = db.createQueryRunner();
    await a.connect();
    await a.startTransaction();
    await outbox.appendMany(a.manager, [ev('A')]);
    await db.transaction((m) => outbox.appendMany(m, [ev('B')]));
    await s.waitFor('B', (e) => e.some((x) => x.data?.data?.[0]?.id === 'B'));
    // a read-only transaction that stays open (a report render holds one for minutes)
    const reader = db.createQueryRunner();
    await reader.connect();
    await reader.startTransaction('REPEATABLE READ');
    await reader.query('SELECT count(*) FROM outbox_events');
    await a.commitTransaction();
    await a.release();
    const t = Date.now();
    await s.waitFor('A', (e) => e.some((x) => x.data?.data?.[0]?.id === 'A'), 5000);
    const [job] = await createJobs(c, [{ destinationName: 'while a reader waits' }]);
    await s.waitFor('the job', (e) => e.some((x) => x.event === 'jobcreated' && x.data.data[0].id === job), 5000);
    expect(Date.now() - t).toBeLessThan(5000);
    await reader.rollbackTransaction();
    await reader.release();
    const names = stamped(s.events).map((e) => e.data.data[0].id);
    expect(names).toEqual(['B', 'A', job]);
    const ids = seqs(stamped(s.events));
    expect(ids).toEqual([ids[0], ids[0] + 1, ids[0] + 2]);
  });
});
