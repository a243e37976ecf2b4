import { DomainError, RunUnfinishedError, WorkerResultsService } from '@app/core';
import { DataSource } from 'typeorm';
import { action, createCompany, startApi, TestApi, TestCompany } from '../support/api';
import { Child, RedisProcess, startRedisOnPort, startRedisServer, stopAllChildren, waitFor } from '../support/proc-child';
import { WebhookReceiver } from '../support/webhook-receiver';
import { startWorker as startBuiltWorker } from '../support/worker';

/**
 * Worker results (CONTRACTS.md, "Worker results") through the test-only run kinds: the real api
 * booted in-process (its WorkerResultsService called from its Nest container), the BUILT worker as a
 * child process with `WORKER_TEST_KINDS=true`, real PostgreSQL, and a PRIVATE redis-server for the
 * whole file (the Redis test stops it; never the machine's shared one).
 */

const HOOK_MS = 45_000;
const WORKER_ENV = {
  WORKER_TEST_KINDS: 'true',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  CPU_POOL_THREADS: '1',
  // a killed worker's task comes back quickly as stalled (and must then be skipped)
  QUEUE_LOCK_MS: '2000',
  WORKER_HEARTBEAT_MS: '1000',
};

let redis: RedisProcess;
let api: TestApi;
let db: DataSource;
let runs: WorkerResultsService;
let company: TestCompany;
let worker: Child;
const atEnd: Array<() => unknown> = [];

async function startWorker(): Promise<Child> {
  return startBuiltWorker('worker', { ...WORKER_ENV, REDIS_URL: redis.url }, (sql, params) => db.query(sql, params));
}

beforeAll(async () => {
  redis = await startRedisServer();
  // read once by loadConfig() when startApi() boots the in-process api
  process.env.REDIS_URL = redis.url;
  process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
  api = await startApi();
  db = api.app.get(DataSource);
  runs = api.app.get(WorkerResultsService);
  company = await createCompany(api);
  worker = await startWorker();
}, HOOK_MS);

afterAll(async () => {
  await stopAllChildren();
  await api?.close();
  for (const f of atEnd) await f();
}, HOOK_MS);

const owner = () => ({ companyId: company.companyUid, memberId: company.ownerUid });

async function runRow(runId: string): Promise<{ state: string; error: { message: string } | null; finished_at: string | null }> {
  const rows: any[] = await db.query(`SELECT state, error, finished_at FROM worker_runs WHERE company_id = $1 AND id = $2`, [
    company.companyUid,
    runId,
  ]);
  return rows[0];
}

async function markers(marker: string): Promise<number> {
  const rows: any[] = await db.query(
    `SELECT count(*)::int AS n FROM notifications WHERE company_id = $1 AND kind = 'test_marker' AND job_id = $2`,
    [company.companyUid, marker],
  );
  return rows[0].n;
}

/** The run the call made (the newest of the company with that kind). */
async function latestRun(kind: string): Promise<string> {
  const rows: any[] = await db.query(
    `SELECT id FROM worker_runs WHERE company_id = $1 AND kind = $2 ORDER BY created_at DESC, id DESC LIMIT 1`,
    [company.companyUid, kind],
  );
  return rows[0]?.id;
}

/** Waits until the company's newest run of `kind` is running; @returns its id. */
async function runStarted(kind: string): Promise<string> {
  return waitFor(
    `the ${kind} run to start`,
    async () => {
      const id = await latestRun(kind);
      return id && (await runRow(id)).state === 'running' ? id : undefined;
    },
    { intervalMs: 20 },
  );
}

/** Awaits `p` and answers what it threw (fails the test if it resolved), with the ms it took. */
async function rejection(p: Promise<unknown>): Promise<{ err: Error; ms: number }> {
  const started = Date.now();
  try {
    await p;
  } catch (err) {
    return { err: err as Error, ms: Date.now() - started };
  }
  throw new Error('expected the call to fail');
}

describe('worker results', () => {
  it('answers the worker result; the run is done', async () => {
    const result = await runs.call('test.echo', { value: { a: 1, b: ['x'] } }, owner(), { profile: 'dispatch', timeoutMs: 10_000 });
    expect(result).toEqual({ value: { a: 1, b: ['x'] } });
    expect((await runRow(await latestRun('test.echo'))).state).toBe('done');
  });

  it('passes a domain error through as it was thrown; any other failure is a clean internal error', async () => {
    const domain = await rejection(
      runs.call('test.fail', { message: 'data.test: must be odd', kind: 'invalid' }, owner(), { profile: 'dispatch', timeoutMs: 10_000 }),
    );
    expect(domain.err).toBeInstanceOf(DomainError);
    expect(domain.err).toMatchObject({ kind: 'invalid', message: 'data.test: must be odd', field: 'data.test' });

    const crash = await rejection(
      runs.call('test.fail', { message: 'secret detail at /srv/x.js:1' }, owner(), { profile: 'dispatch', timeoutMs: 10_000 }),
    );
    expect(crash.err).not.toBeInstanceOf(DomainError);
    expect(crash.err.message).toMatch(/^dispatch failed: internal error \(id [0-9A-Z]{26}\)$/);
    const row = await runRow(await latestRun('test.fail'));
    expect(row.state).toBe('failed');
    expect(JSON.stringify(row.error)).not.toContain('secret detail');
  });

  it('past the deadline: -99 "nothing was changed", nothing is written, the run is expired', async () => {
    const marker = `late-${Date.now()}`;
    const { err, ms } = await rejection(runs.call('test.sleep', { ms: 2500, marker }, owner(), { profile: 'dispatch', timeoutMs: 1000 }));
    expect(err).toBeInstanceOf(RunUnfinishedError);
    expect(err).toMatchObject({ kind: 'unavailable', message: 'dispatch did not finish within 1 s; nothing was changed' });
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(2500);
    const runId = (err as RunUnfinishedError).runId;
    // the worker finishes its compute step after the deadline and must write nothing
    await new Promise((r) => setTimeout(r, 2500));
    expect(await markers(marker)).toBe(0);
    expect((await runRow(runId)).state).toBe('expired');
  });

  it('a report-profile run outlives the wait and still finishes (write_by = start + max run)', async () => {
    const marker = `report-${Date.now()}`;
    const { err } = await rejection(runs.call('test.sleep', { ms: 1500, marker }, owner(), { profile: 'report', timeoutMs: 300 }));
    expect(err).toMatchObject({ kind: 'unavailable', message: 'report did not finish within 0.3 s; it is still being made' });
    const runId = (err as RunUnfinishedError).runId;
    await waitFor('the report run to finish', async () => (await runRow(runId)).state === 'done', { timeoutMs: 10_000 });
    expect(await markers(marker)).toBe(1);
  });

  it('a 2 s CPU-bound run does not delay a webhook delivery queued beside it', async () => {
    const receiver = await new WebhookReceiver().start();
    atEnd.push(() => receiver.close());
    const set = await action(api, 'setwebhooks', { job_created: { url: `${receiver.url}/created` } }, { key: company.key });
    expect(set.body.status).toBe(0);

    const cpu = runs.call('test.cpu', { ms: 2000 }, owner(), { profile: 'dispatch', timeoutMs: 15_000 });
    cpu.catch(() => undefined);
    const runId = await runStarted('test.cpu');
    const sentAt = Date.now();
    const created = await action(api, 'createjobs', { jobs: [{ destinationName: 'beside the CPU run' }] }, { key: company.key });
    expect(created.body.status).toBe(0);
    await waitFor('the webhook delivery', () => receiver.received.length > 0, { timeoutMs: 15_000, intervalMs: 10 });
    const receivedAt = receiver.received[0].at;

    const result = await cpu;
    expect(result.spun).toBeGreaterThanOrEqual(2000);
    const finishedAt = Number((await runRow(runId)).finished_at);
    // the delivery arrived while the CPU run was still computing, well before it finished
    expect(receivedAt).toBeLessThan(finishedAt - 500);
    expect(result.threadId).toBeGreaterThan(0); // it ran on a pool thread, not the main one
    console.log(`webhook received ${receivedAt - sentAt} ms after createjobs; the CPU run finished ${finishedAt - receivedAt} ms later`);
  });

  it('a worker stopped with SIGTERM finishes its in-flight CPU run before its pool closes', async () => {
    const call = runs.call('test.cpu', { ms: 1500 }, owner(), { profile: 'dispatch', timeoutMs: 15_000 });
    call.catch(() => undefined);
    await runStarted('test.cpu');
    const exit = await worker.stop('SIGTERM', 20_000);
    expect(exit).toEqual({ code: 0, signal: null });
    expect((await call).spun).toBeGreaterThanOrEqual(1500);
    worker = await startWorker();
  }, 60_000);

  it('a worker killed mid-run: the call ends with the clean -99 within its deadline and no run is left open', async () => {
    const marker = `killed-${Date.now()}`;
    const call = rejection(runs.call('test.sleep', { ms: 20_000, marker }, owner(), { profile: 'dispatch', timeoutMs: 4000 }));
    await runStarted('test.sleep');
    await worker.stop('SIGKILL');
    const { err, ms } = await call;
    expect(err).toMatchObject({ kind: 'unavailable', message: 'dispatch did not finish within 4 s; nothing was changed' });
    expect(ms).toBeLessThan(5000);
    expect((await runRow((err as RunUnfinishedError).runId)).state).toBe('expired');

    // a fresh worker gets the stalled task back and skips it: the run stays expired, nothing written
    worker = await startWorker();
    await new Promise((r) => setTimeout(r, 5000));
    expect((await runRow((err as RunUnfinishedError).runId)).state).toBe('expired');
    expect(await markers(marker)).toBe(0);
    const open: any[] = await db.query(
      `SELECT id, state FROM worker_runs WHERE company_id = $1 AND kind <> 'test.cpu' AND state IN ('queued', 'running')`,
      [company.companyUid],
    );
    expect(open).toEqual([]);
  }, 60_000);

  it('Redis stopped: 503 within the deadline, no hang; the rest of the api keeps serving; back when Redis is', async () => {
    await redis.child.stop('SIGKILL');
    const { err, ms } = await rejection(runs.call('test.echo', { value: 1 }, owner(), { profile: 'dispatch', timeoutMs: 3000 }));
    expect(err).toBeInstanceOf(RunUnfinishedError);
    expect((err as DomainError).kind).toBe('unavailable'); // → -99 / 503
    expect(err.message).toMatch(/^dispatch (could not be queued \(queue unavailable\)|did not finish within 3 s); nothing was changed$/);
    expect(ms).toBeLessThan(3500);
    expect(['failed', 'expired']).toContain((await runRow((err as RunUnfinishedError).runId)).state);

    // everything else answers at once (the outbox wake fails fast and is logged)
    const started = Date.now();
    const created = await action(api, 'createjobs', { jobs: [{ destinationName: 'while redis is down' }] }, { key: company.key });
    expect(created.body.status).toBe(0);
    expect(Date.now() - started).toBeLessThan(2000);

    redis = await startRedisOnPort(redis.port);
    const back = await waitFor(
      'a run to succeed after Redis returns',
      () => runs.call('test.echo', { value: 'back' }, owner(), { profile: 'dispatch', timeoutMs: 3000 }).catch(() => undefined),
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    expect(back).toEqual({ value: 'back' });
  }, 60_000);

  it("a run in hand when the worker's Redis is killed and left down: SIGTERM still stops it (exit 0), the run's write lands", async () => {
    const marker = `redis-gone-${Date.now()}`;
    const call = runs.call('test.sleep', { ms: 2500, marker }, owner(), { profile: 'dispatch', timeoutMs: 15_000 });
    call.catch(() => undefined);
    const runId = await runStarted('test.sleep');
    await redis.child.stop('SIGKILL');
    // the run finishes its sleep and its write after the SIGTERM; its completion then goes to a Redis
    // that is gone, and the stop used to wait on it until the SIGKILL at the end of the grace period
    const before = worker.mark();
    const stoppedAt = Date.now();
    const exit = await worker.stop('SIGTERM', 30_000);
    const tookMs = Date.now() - stoppedAt;
    if (exit.code !== 0)
      throw new Error(`the worker did not exit 0 on SIGTERM (after ${tookMs} ms): ${JSON.stringify(exit)}\n${worker.output()}`);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(worker.outputSince(before)).toMatch(/Redis unreachable \(\d+ probes in a row\); cutting the queue connections/);
    // the task in hand was let finish: its own write (PostgreSQL) landed
    expect((await runRow(runId)).state).toBe('done');
    expect(await markers(marker)).toBe(1);
    console.log(`worker results: a run in hand, its Redis killed; SIGTERM → exit 0 in ${tookMs} ms`);

    redis = await startRedisOnPort(redis.port);
    worker = await startWorker();
  }, 90_000);
});
