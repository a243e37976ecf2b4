import { DataSource, QueryRunner } from 'typeorm';
import { createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';
import { Child, RedisProcess, startRedisOnPort, startRedisServer, stopAllChildren, waitFor } from '../support/proc-child';
import { readCsv } from '../support/report-readers';
import { startWorker } from '../support/worker';

/**
 * Faults of worker results (issue #29 item 4; CONTRACTS.md "Worker results", docs/worker-results.md):
 * - the only worker SIGKILLed during a dispatch run → the caller gets -99/503 by DISPATCH_TIMEOUT_MS
 *   and no job changed;
 * - the Redis under a createreport stopped and restarted → the caller gets its file or a clean
 *   -99/503 within the documented bounds, never a hang and never a 500.
 * The in-process api and the BUILT worker run on this file's own `redis-server` (never the shared one),
 * real PostgreSQL. Needs `npm run build` first.
 */
const DISPATCH_MS = 6_000;
const REPORT_MS = 8_000;
/** the enqueue bound while Redis is down (WorkerResultsService.boundedEnqueue: at most 5 s) */
const ENQUEUE_MS = 5_000;
/** what the load of a shared 2-core machine may add to a deadline before we call it a hang */
const SLACK_MS = 3_000;

const PREFIX = `fieldwork-wr-faults-${process.pid}`;
const saved: Record<string, string | undefined> = {};
function setEnv(vars: Record<string, string>): void {
  for (const [k, v] of Object.entries(vars)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
}

const DAY = 20300506;
const ZAGREB = { lat: 45.815, lng: 15.982 };

/** `POST /api/<name>`, bounded: a hung api fails the call with AbortError instead of the test's timeout. */
async function post(api: TestApi, name: string, data: unknown, key: string, boundMs: number) {
  const started = Date.now();
  const res = await fetch(`${api.url}/api/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'api-key': key },
    body: JSON.stringify({ data }),
    signal: AbortSignal.timeout(boundMs),
  });
  const contentType = res.headers.get('content-type') ?? '';
  const raw = Buffer.from(await res.arrayBuffer());
  const json = contentType.startsWith('application/json') ? JSON.parse(raw.toString('utf8')) : undefined;
  return { http: res.status, json, raw, contentType, ms: Date.now() - started };
}

describe('worker results under faults', () => {
  let redis: RedisProcess;
  let api: TestApi;
  let db: DataSource;
  let company: TestCompany;
  const timings: string[] = [];
  const workers: Child[] = [];
  const workerEnv = () => ({ REDIS_URL: redis.url, QUEUE_PREFIX: PREFIX, CPU_POOL_THREADS: '1' });
  const query = (sql: string, params: unknown[]) => db.query(sql, params);

  beforeAll(async () => {
    redis = await startRedisServer();
    // read once by loadConfig() when startApi() boots the in-process api
    setEnv({ REDIS_URL: redis.url, QUEUE_PREFIX: PREFIX, DISPATCH_TIMEOUT_MS: String(DISPATCH_MS), REPORT_TIMEOUT_MS: String(REPORT_MS) });
    api = await startApi();
    db = api.app.get(DataSource);
    company = await createCompany(api, { timezone: 'Europe/Zagreb' });
  }, 60_000);

  afterAll(async () => {
    // the api first, while its Redis still answers; then the workers and the redis-server
    await api?.close();
    await stopAllChildren();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    if (timings.length) console.log(`worker-results faults:\n  ${timings.join('\n  ')}`);
  }, 30_000);

  it('the only worker SIGKILLed mid-dispatch: -99/503 by DISPATCH_TIMEOUT_MS, no job changed, the run expired', async () => {
    const members = [await createMember(api, company, { role: 'worker' }), await createMember(api, company, { role: 'worker' })];
    for (const m of members) {
      const res = await post(
        api,
        'editaccount',
        { uid: m.uid, route_start_lat: ZAGREB.lat, route_start_lng: ZAGREB.lng },
        company.key,
        10_000,
      );
      expect(res.json.status).toBe(0);
    }
    const jobs = Array.from({ length: 6 }, (_, i) => ({
      destinationName: `fault ${i}`,
      destinationLat: ZAGREB.lat + i * 0.003,
      destinationLng: ZAGREB.lng + i * 0.004,
      day: DAY,
    }));
    const created = await post(api, 'createjobs', { jobs }, company.key, 10_000);
    expect(created.json.status).toBe(0);
    const ids: string[] = created.json.jobs.map((j: { id: string }) => j.id);
    const snapshot = () =>
      db.query(`SELECT * FROM jobs WHERE company_id = $1 ORDER BY id`, [company.companyUid]).then((r) => JSON.stringify(r));
    // the commit stamps (docs/connector.md) land just after createjobs: compare from then on
    await waitFor(
      'the jobs stamped',
      async () => (await db.query(`SELECT 1 FROM jobs WHERE company_id = $1 AND saved_stamp IS NULL`, [company.companyUid])).length === 0,
      { timeoutMs: 5_000, intervalMs: 50 },
    );
    const before = await snapshot();

    const worker: Child = await startWorker('worker', workerEnv(), query);
    workers.push(worker);
    // Another transaction holds the company's job rows for the whole call: the run computes, then blocks
    // in its writing transaction (run row locked, nothing committed), so the kill certainly lands
    // mid-run. The killed worker's backend stays blocked behind that transaction holding the run row;
    // the api's expiry must still get it by the deadline (client_connection_check_interval,
    // docs/worker-results.md "A worker killed mid-run") — before that setting the answer hung past 21 s.
    const holder: QueryRunner = db.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    let answer: Awaited<ReturnType<typeof post>>;
    try {
      await holder.query(`SELECT id FROM jobs WHERE company_id = $1 FOR UPDATE`, [company.companyUid]);
      const call = post(api, 'autoassign', { jobs: ids, workers: members.map((m) => m.username) }, company.key, DISPATCH_MS + 15_000);
      call.catch(() => undefined);
      const callStarted = Date.now();
      await waitFor(
        'the dispatch run blocked in its writing transaction',
        async () =>
          (
            await db.query(
              `SELECT 1 FROM worker_runs r WHERE r.company_id = $1 AND r.kind = 'autoassign' AND r.state = 'running'
                 AND EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.datname = current_database() AND a.wait_event_type = 'Lock'
                             AND a.pid <> pg_backend_pid())`,
              [company.companyUid],
            )
          ).length > 0,
        { timeoutMs: DISPATCH_MS - 1_000, intervalMs: 50 },
      );
      const killedAfter = Date.now() - callStarted;
      worker.proc.kill('SIGKILL');
      expect(await worker.waitExit(5_000)).toMatchObject({ signal: 'SIGKILL' });
      timings.push(`dispatch: worker SIGKILLed ${killedAfter} ms into the call, while its run was writing`);
      answer = await call;
    } finally {
      await holder.rollbackTransaction();
      await holder.release();
    }

    timings.push(`dispatch: -99/503 after ${answer.ms} ms (DISPATCH_TIMEOUT_MS ${DISPATCH_MS})`);
    expect(answer.http).toBe(503);
    expect(answer.json).toMatchObject({
      status: -99,
      error: `dispatch did not finish within ${DISPATCH_MS / 1000} s; nothing was changed`,
    });
    expect(answer.ms).toBeGreaterThanOrEqual(DISPATCH_MS - 100);
    expect(answer.ms).toBeLessThanOrEqual(DISPATCH_MS + SLACK_MS);

    const runs: Array<{ state: string }> = await db.query(`SELECT state FROM worker_runs WHERE company_id = $1 AND kind = 'autoassign'`, [
      company.companyUid,
    ]);
    expect(runs.map((r) => r.state)).toEqual(['expired']);
    // give a straggler every chance to show: the killed backend's end and a redelivered (stalled) task
    workers.push(await startWorker('worker-2', workerEnv(), query));
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await snapshot()).toBe(before);
  }, 40_000);

  it('Redis stopped and restarted around createreport: a clean -99/503 while down, the file once back, a lost task answered -99/503 with its reportId', async () => {
    const member = await createMember(api, company, { name: 'Fault Report' });
    const data = { reporttype: 'members', format: 'csv', accounts: [member.uid] };
    const expectFile = (a: Awaited<ReturnType<typeof post>>) => {
      expect(a.json).toBeUndefined();
      expect(a.http).toBe(200);
      expect(
        readCsv(a.raw)
          .slice(1)
          .map((r) => r[0]),
      ).toEqual(['Fault Report']);
    };
    for (const w of workers) await w.stop('SIGTERM', 10_000);
    let worker = await startWorker('worker-r', workerEnv(), query);
    expectFile(await post(api, 'createreport', data, company.key, REPORT_MS + 10_000));

    // 1. Redis down: the enqueue fails fast (no offline queue), answered at once, never a 500
    const stopped = await redis.child.stop('SIGTERM', 5_000);
    expect(stopped.signal === null ? stopped.code : stopped.signal).toBe(0);
    const down = await post(api, 'createreport', data, company.key, REPORT_MS + 10_000);
    timings.push(`report, Redis down: ${down.http} after ${down.ms} ms: ${JSON.stringify(down.json)}`);
    expect(down.http).toBe(503);
    expect(down.json).toMatchObject({ status: -99 });
    expect(down.json.error).toMatch(/^report (could not be queued \(queue unavailable\)|did not finish within \d+ s)/);
    expect(down.ms).toBeLessThanOrEqual(ENQUEUE_MS + SLACK_MS);

    // 2. the same port, a new and empty Redis: the api and the running worker reconnect, the file comes
    const backAt = Date.now();
    redis = await startRedisOnPort(redis.port);
    const back = await waitFor(
      'a report file after the restart',
      async () => {
        const a = await post(api, 'createreport', data, company.key, REPORT_MS + 10_000);
        return a.json?.status === -99 ? undefined : a;
      },
      { timeoutMs: 15_000, intervalMs: 250 },
    );
    expectFile(back);
    timings.push(`report, Redis restarted: the file ${Date.now() - backAt} ms after redis-server was back (last call ${back.ms} ms)`);

    // 3. Redis restarted empty while the api waits and before a worker took the task: the task is lost;
    //    the caller gets -99/503 with its reportId at REPORT_TIMEOUT_MS, and getreport answers cleanly
    await worker.stop('SIGTERM', 10_000);
    const pending = post(api, 'createreport', data, company.key, REPORT_MS + 10_000);
    pending.catch(() => undefined);
    await waitFor(
      'the report run queued',
      async () =>
        (await db.query(`SELECT 1 FROM worker_runs WHERE company_id = $1 AND kind = 'report' AND state = 'queued'`, [company.companyUid]))
          .length > 0,
      { timeoutMs: 5_000, intervalMs: 20 },
    );
    await redis.child.stop('SIGTERM', 5_000);
    redis = await startRedisOnPort(redis.port);
    worker = await startWorker('worker-r2', workerEnv(), query);
    const lost = await pending;
    timings.push(
      `report, task lost in a restart: ${lost.http} after ${lost.ms} ms (REPORT_TIMEOUT_MS ${REPORT_MS}): ${JSON.stringify(lost.json)}`,
    );
    if (lost.json) {
      expect(lost.http).toBe(503);
      expect(lost.json).toMatchObject({ status: -99, error: `report did not finish within ${REPORT_MS / 1000} s; it is still being made` });
      expect(lost.json.reportId).toMatch(/^[0-9A-Z]{26}$/);
      expect(lost.ms).toBeLessThanOrEqual(REPORT_MS + SLACK_MS);
      const polled = await post(api, 'getreport', { reportId: lost.json.reportId }, company.key, 10_000);
      timings.push(`report, getreport of the lost task: ${polled.http} ${JSON.stringify(polled.json ?? polled.contentType)}`);
      expect([200, 503]).toContain(polled.http);
      if (polled.json) expect(polled.json.status === 0 || polled.json.status === -99).toBe(true);
    } else {
      expectFile(lost);
    }
  }, 40_000);
});
