import { ReplicaReads } from '@app/core';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { action, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';
import { dropQueueKeys } from '../support/durability-redis';
import { PrivatePostgres } from '../support/private-postgres';
import { Child, getJson, stopAllChildren, waitFor } from '../support/proc-child';
import { readCsv, reportCall, reportFile } from '../support/report-readers';
import { startWorker } from '../support/worker';

/**
 * The read replica (CONTRACTS.md "Wave 3: scale"; docs/scaling.md "Read replica"): a private primary
 * and a real streaming replica of it (`pg_basebackup -R`, a second postmaster, both run through
 * `runuser -u postgres --`: test/support/private-postgres.ts — never the machine's shared server),
 * the api (in this process) and the BUILT worker booted with `DATABASE_URL` on the primary and
 * `DATABASE_REPLICA_URL` on the replica. Which server served a read is seen from the servers
 * themselves — the replica's own scan counters of the table read (`pg_stat_user_tables`, kept by a
 * hot standby for its own readers) — and from the worker's log line per report (`readFrom`).
 * Needs `npm run build` first.
 */
const PREFIX = `${process.env.QUEUE_PREFIX ?? 'fieldwork-test'}-rr${process.pid}`.slice(-64);
const DATABASE = 'fieldwork_replica';
const HOOK_MS = 90_000;

let primary: PrivatePostgres;
let replica: PrivatePostgres;
let api: TestApi;
let db: DataSource;
let worker: Child;
let company: TestCompany;
let placeIds: string[] = [];
/** the replica's scans of `places` before the first report it served */
let placesScansBefore = 0;

/** Fails with the worker's output, so a broken run explains itself. */
function explain(err: Error): never {
  throw new Error(`${err.message}\n${worker?.output()}`);
}

/** createplace `name`; @returns its uid. */
async function createPlace(name: string): Promise<string> {
  const r = await action<{ uid: string }>(
    api,
    'createplace',
    { name, location: { lat: 46.05, lng: 14.5 }, radius: 80 },
    { key: company.key },
  );
  if (r.body.status !== 0) throw new Error(`createplace ${name}: ${JSON.stringify(r.body)}`);
  return r.body.uid;
}

/** The places report (csv) over every place made so far: the place names, in request order. */
async function placesReport(): Promise<{ names: string[] }> {
  const answer = await reportFile(api, { reporttype: 'places', format: 'csv', accounts: placeIds }, company.key);
  return {
    names: readCsv(answer.body)
      .slice(1)
      .map((row) => row[0]),
  };
}

/** The server the worker logged for the newest report it rendered after `mark`. */
async function reportServer(mark: { out: number; err: number }): Promise<string> {
  return waitFor('the worker’s report log line', () => {
    const lines = worker
      .outputSince(mark)
      .split('\n')
      .filter((l) => l.includes('"readFrom"'));
    return lines.length ? (JSON.parse(lines[lines.length - 1]) as { readFrom: string }).readFrom : undefined;
  });
}

/** Scans of `table` the replica counted for its own readers (sequential + index). */
async function replicaScans(table: string): Promise<number> {
  const [row] = await replica.query<{ n: string }>(
    `SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0) AS n FROM pg_stat_user_tables WHERE relname = $1`,
    [table],
    DATABASE,
  );
  return Number(row?.n ?? 0);
}

/** Waits until the replica has replayed everything the primary had written when called. */
async function replicaCaughtUp(): Promise<void> {
  const [{ lsn }] = await primary.query<{ lsn: string }>(`SELECT pg_current_wal_insert_lsn()::text AS lsn`);
  await waitFor(`the replica to replay past ${lsn}`, async () => {
    const [row] = await replica.query<{ ok: boolean }>(`SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok`, [lsn]);
    return row.ok;
  });
}

/** gettracks of `uid` over the last day. */
async function gettracks(uid: string): Promise<unknown[]> {
  const now = Date.now();
  const r = await action<{ tracks: unknown[] }>(
    api,
    'gettracks',
    { uids: [uid], from: now - 86_400_000, until: now + 60_000 },
    { key: company.key },
  );
  if (r.body.status !== 0) throw new Error(`gettracks: ${JSON.stringify(r.body)}`);
  return r.body.tracks;
}

beforeAll(async () => {
  const started = Date.now();
  primary = await PrivatePostgres.primary();
  await primary.createMigratedDatabase(DATABASE);
  replica = await PrivatePostgres.replicaOf(primary);
  // read once by loadConfig() when startApi() boots the in-process api, and inherited by the worker
  process.env.DATABASE_URL = primary.url(DATABASE);
  process.env.DATABASE_REPLICA_URL = replica.url(DATABASE);
  process.env.QUEUE_PREFIX = PREFIX;
  api = await startApi();
  db = api.app.get(DataSource);
  worker = await startWorker('worker', { LOG_LEVEL: 'log', TRACK_BUILD_DELAY_MS: '300' }, (sql, params) => db.query(sql, params));
  company = await createCompany(api);
  console.log(`read replica e2e: primary :${primary.port}, replica :${replica.port}, up ${Date.now() - started} ms after start`);
}, HOOK_MS);

afterAll(async () => {
  await stopAllChildren();
  await api?.close();
  await dropQueueKeys(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', PREFIX);
  await replica?.destroy();
  await primary?.destroy();
}, HOOK_MS);

describe('read replica (DATABASE_REPLICA_URL)', () => {
  let member: { uid: string; key: string };
  let tracks: unknown[];

  it('the replica is a streaming standby of the private primary', async () => {
    const [standby] = await replica.query<{ recovery: boolean }>(`SELECT pg_is_in_recovery() AS recovery`);
    expect(standby.recovery).toBe(true);
    await waitFor('the primary to stream to it', async () => {
      const senders = await primary.query<{ state: string }>(`SELECT state FROM pg_stat_replication`);
      return senders.length === 1 && senders[0].state === 'streaming';
    });
  });

  it('a report asked once the replica has replayed the write is read from the replica, and contains it', async () => {
    placeIds = [await createPlace('Depot A')];
    await replicaCaughtUp();
    const scans = await replicaScans('places');
    const mark = worker.mark();
    const report = await placesReport().catch(explain);
    expect(report.names).toEqual(['Depot A']);
    expect(await reportServer(mark)).toBe('replica');
    // the replica's own counters saw the report's reads: checked below, with gettracks' (an idle
    // standby backend flushes its statistics up to 10 s later, so the two waits overlap)
    placesScansBefore = scans;
  });

  it('gettracks reads the tracks from the replica', async () => {
    member = await createMember(api, company);
    const t0 = Date.now() - 20 * 60_000;
    const locations = Array.from({ length: 20 }, (_, i) => ({ ts: t0 + i * 30_000, lat: 46.05 + i * 0.0008, lng: 14.5, acc: 5 }));
    const pushed = await action<{ accepted: number }>(api, 'pushlocations', { locations }, { key: member.key });
    expect(pushed.body).toMatchObject({ status: 0, accepted: 20 });
    tracks = await waitFor('the worker to build the track', async () => {
      const list = await gettracks(member.uid);
      return list.length > 0 ? list : undefined;
    });
    const scans = await replicaScans('tracks');
    // the read goes to the replica only when it has replayed past the primary's WAL position at the
    // call: a background write in between (the worker's heartbeat, a trailing track build) sends that
    // call to the primary — correct, and not what this test is about — so it is tried again, up to 5 times
    let served = { ...api.app.get(ReplicaReads).served };
    for (let attempt = 1; ; attempt++) {
      await replicaCaughtUp();
      served = { ...api.app.get(ReplicaReads).served };
      expect(await gettracks(member.uid)).toEqual(tracks);
      const after = api.app.get(ReplicaReads).served;
      if (after.replica === served.replica + 1 || attempt === 5) break;
    }
    expect(api.app.get(ReplicaReads).served).toEqual({ ...served, replica: served.replica + 1 });
    const ready = await getJson(`${api.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(ready.body.reported.replica).toEqual({ state: 'up', replayLsn: expect.stringMatching(/^[0-9A-F]+\/[0-9A-F]+$/), downForMs: 0 });
    await waitFor(
      'the replica to count the report’s scans of places and gettracks’ of tracks',
      async () => (await replicaScans('places')) > placesScansBefore && (await replicaScans('tracks')) > scans,
      { timeoutMs: 20_000, intervalMs: 250 },
    );
  });

  it('with the replica behind (replay paused), a report asked right after a write contains it: read from the primary', async () => {
    await replica.query(`SELECT pg_wal_replay_pause()`);
    await waitFor('replay to pause', async () => {
      const [row] = await replica.query<{ s: string }>(`SELECT pg_get_wal_replay_pause_state() AS s`);
      return row.s === 'paused';
    });
    placeIds.push(await createPlace('Depot B'));
    const mark = worker.mark();
    const report = await placesReport().catch(explain);
    expect(report.names).toEqual(['Depot A', 'Depot B']);
    expect(await reportServer(mark)).toBe('primary');
    // the replica is behind the position gettracks takes now: it reads from the primary
    const served = { ...api.app.get(ReplicaReads).served };
    expect(await gettracks(member.uid)).toEqual(tracks);
    expect(api.app.get(ReplicaReads).served).toEqual({ ...served, primary: served.primary + 1 });
    await replica.query(`SELECT pg_wal_replay_resume()`);
    await replicaCaughtUp();
  });

  it('the replica stopped (immediate shutdown) in the middle of a report read from it: the report renders again on the primary', async () => {
    // hold the report on the replica: an ACCESS EXCLUSIVE lock on the table it reads, taken on the
    // primary and replayed by the standby (whose readers of alert_firings then wait); the api reads no
    // alert_firings for a csv alerts report, so only the render waits
    const locker = new Client({ connectionString: primary.url(DATABASE) });
    await locker.connect();
    try {
      await locker.query(`BEGIN`);
      await locker.query(`LOCK TABLE alert_firings IN ACCESS EXCLUSIVE MODE`);
      await replicaCaughtUp();
      const mark = worker.mark();
      const asked = reportCall(api, 'createreport', { reporttype: 'alerts', format: 'csv', day: 20261120 }, company.key);
      await waitFor('the report to wait on the replica', async () => {
        const rows = await replica.query(
          `SELECT 1 FROM pg_stat_activity WHERE application_name = 'fieldwork-report-replica' AND wait_event_type = 'Lock'`,
        );
        return rows.length > 0;
      });
      await replica.stop('immediate');
      // the render failed on the replica and started again on the primary, where it waits for the lock too
      await waitFor('the report to wait on the primary', async () => {
        const rows = await primary.query(
          `SELECT 1 FROM pg_stat_activity WHERE application_name = 'fieldwork-report' AND wait_event_type = 'Lock'`,
          [],
          DATABASE,
        );
        return rows.length > 0;
      }).catch(explain);
      await locker.query(`ROLLBACK`);
      const answer = await asked;
      expect(answer.http).toBe(200);
      expect(readCsv(answer.body)[0][0]).toMatch(/^Time/);
      expect(await reportServer(mark)).toBe('primary');
      // the same file as one asked now, on the primary
      expect((await reportFile(api, { reporttype: 'alerts', format: 'csv', day: 20261120 }, company.key)).body).toEqual(answer.body);
    } finally {
      await locker.end();
    }
  });

  it('with the replica down, reports and gettracks answer as before, from the primary; readiness only reports it', async () => {
    placeIds.push(await createPlace('Depot C'));
    const mark = worker.mark();
    const report = await placesReport().catch(explain);
    expect(report.names).toEqual(['Depot A', 'Depot B', 'Depot C']);
    expect(await reportServer(mark)).toBe('primary');
    const served = { ...api.app.get(ReplicaReads).served };
    expect(await gettracks(member.uid)).toEqual(tracks);
    expect(api.app.get(ReplicaReads).served).toEqual({ ...served, primary: served.primary + 1 });
    // readiness reports the replica down, and does not fail for it
    const ready = await getJson(`${api.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(ready.body.reported.replica).toMatchObject({ state: 'down', replayLsn: null, downForMs: expect.any(Number) });
    // and again while it is known to be down
    expect((await placesReport()).names).toEqual(['Depot A', 'Depot B', 'Depot C']);
    expect(await gettracks(member.uid)).toEqual(tracks);
  });

  it('the replica started again serves reports again once its down time has passed', async () => {
    await replica.start();
    placeIds.push(await createPlace('Depot D'));
    await replicaCaughtUp();
    // the router leaves a failed replica alone for 5 s
    await new Promise((r) => setTimeout(r, 5_200));
    const mark = worker.mark();
    const report = await placesReport().catch(explain);
    expect(report.names).toEqual(['Depot A', 'Depot B', 'Depot C', 'Depot D']);
    expect(await reportServer(mark)).toBe('replica');
  });
});
