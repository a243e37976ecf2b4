import { DataSource } from 'typeorm';
import { action, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';
import { dropQueueKeys } from '../support/durability-redis';
import { ApiProcess, Child, startApiProcess, stopAllChildren } from '../support/proc-child';
import { TcpProxy } from '../support/tcp-proxy';

/**
 * PostgreSQL restarting while phones post fixes (issue #29 item 4): BUILT api processes whose
 * DATABASE_URL goes through a TCP proxy the test cuts. A cut is what a client sees of a fast
 * restart: every open connection reset, new ones refused (accepted, then reset) for the outage, then
 * accepted again. The machine's shared PostgreSQL is never touched (CONTRACTS.md "Tests and CI").
 *
 * Simulated phones post one fix at a time, half through `/osmand` (Traccar Client: query string, its
 * device id) and half through `pushlocations` (API key), each fix with a timestamp of the phone's own,
 * and post the same fix again after a non-200 (as both phone apps do). Asserted: during an outage
 * the api answers 503 in the action API's error shape (`{status: -99, error}`), never a 500 and
 * never a request hanging past {@link REQUEST_BOUND_MS}; after the outage every phone gets a 200
 * again within {@link RECOVERY_BOUND_MS} of the restore (measured and printed); every fix answered
 * 200 is in `location_fixes`, counted by the phones' own timestamps.
 *
 * `npm test` runs one short outage with one api; `npm run test:faults` (FAULTS_FULL=1) runs more
 * phones on two api processes through three outages, the last a long one. Needs `npm run build`.
 */
const FULL = process.env.FAULTS_FULL === '1';
const PREFIX = `${process.env.QUEUE_PREFIX ?? 'fieldwork-test'}-pgrestart${process.pid}`.slice(-64);
process.env.QUEUE_PREFIX = PREFIX;
const SHARED_REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** phones per protocol */
const PHONES = FULL ? 30 : 6;
const APIS = FULL ? 2 : 1;
/** outages (ms of refused connections), with 3 s of normal ingestion before each and after the last */
const OUTAGES_MS = FULL ? [3_000, 8_000, 20_000] : [4_000];
const STEADY_MS = 3_000;
/** a phone waits this long between fixes, and before posting a refused fix again */
const FIX_EVERY_MS = 200;
const RETRY_AFTER_MS = 250;
/** no answer may take longer than this, outage or not (the pool's connect timeout is 5 s) */
const REQUEST_BOUND_MS = 10_000;
/** every phone gets a 200 within this of the restore */
const RECOVERY_BOUND_MS = 10_000;

interface Answer {
  phone: number;
  ts: number;
  http: number | 'no answer';
  body: string;
  sentAt: number;
  ms: number;
}

interface Phone {
  index: number;
  kind: 'osmand' | 'pushlocations';
  memberId: string;
  /** the credential: device id (`/osmand`) or API key (`pushlocations`) */
  secret: string;
  /** fixes answered 200, by the phone's own timestamp */
  acked: number[];
}

let api: TestApi;
let db: DataSource;
let company: TestCompany;
const phones: Phone[] = [];

beforeAll(async () => {
  api = await startApi();
  db = api.app.get(DataSource);
  company = await createCompany(api);
  for (let i = 0; i < PHONES * 2; i++) {
    const m = await createMember(api, company);
    if (i % 2 === 0) {
      const device = `pgrestart-${m.uid}`;
      expect((await action(api, 'editaccount', { uid: m.uid, device_id: device }, { key: company.key })).body.status).toBe(0);
      phones.push({ index: i, kind: 'osmand', memberId: m.uid, secret: device, acked: [] });
    } else {
      phones.push({ index: i, kind: 'pushlocations', memberId: m.uid, secret: m.key, acked: [] });
    }
  }
}, 120_000);

afterAll(async () => {
  await stopAllChildren();
  await api?.close();
  await dropQueueKeys(SHARED_REDIS, PREFIX).catch(() => undefined);
}, 60_000);

/** One fix of `phone` at `ts` to `base`; the answer (never throws). */
async function post(base: string, phone: Phone, ts: number): Promise<Answer> {
  const sentAt = Date.now();
  const lat = 46 + (phone.index % 50) / 1000;
  const lng = 14.5 + (ts % 1000_000) / 1e9;
  let res: Response;
  try {
    if (phone.kind === 'osmand') {
      const q = new URLSearchParams({ id: phone.secret, timestamp: String(ts), lat: String(lat), lon: String(lng), accuracy: '5' });
      res = await fetch(`${base}/osmand?${q}`, { method: 'POST', signal: AbortSignal.timeout(REQUEST_BOUND_MS + 5_000) });
    } else {
      res = await fetch(`${base}/api/pushlocations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'api-key': phone.secret },
        body: JSON.stringify({ data: { locations: [{ ts, lat, lng, acc: 5 }] } }),
        signal: AbortSignal.timeout(REQUEST_BOUND_MS + 5_000),
      });
    }
  } catch (err) {
    return { phone: phone.index, ts, http: 'no answer', body: (err as Error).message, sentAt, ms: Date.now() - sentAt };
  }
  return { phone: phone.index, ts, http: res.status, body: await res.text(), sentAt, ms: Date.now() - sentAt };
}

/**
 * Runs every phone until `stop()`: each posts its next fix (its own clock: 1 s apart, from 20 min
 * ago), and the same fix again after a non-200. Resolves with every answer once all have stopped.
 */
function runPhones(apis: ApiProcess[]): { stop: () => void; done: Promise<Answer[]> } {
  let stopped = false;
  const answers: Answer[] = [];
  const start = Date.now() - 20 * 60_000;
  const loops = phones.map(async (phone, i) => {
    const base = apis[i % apis.length].url;
    let ts = start + phone.index; // distinct per phone, 1 s steps below
    while (!stopped) {
      const a = await post(base, phone, ts);
      answers.push(a);
      if (a.http === 200) {
        phone.acked.push(ts);
        ts += 1_000;
        await new Promise((r) => setTimeout(r, FIX_EVERY_MS));
      } else {
        await new Promise((r) => setTimeout(r, RETRY_AFTER_MS));
      }
    }
  });
  return { stop: () => (stopped = true), done: Promise.all(loops).then(() => answers) };
}

function fail(children: Child[], message: string): never {
  throw new Error(`${message}\n${children.map((c) => c.output()).join('\n')}`);
}

describe('PostgreSQL restart during ingestion', () => {
  it(
    `phones get 503 during ${OUTAGES_MS.length} outage(s), 200 again after, and no fix answered 200 is lost`,
    async () => {
      const target = new URL(process.env.DATABASE_URL!);
      const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
      await proxy.start();
      const viaProxy = new URL(target.toString());
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      const apis: ApiProcess[] = [];
      try {
        for (let i = 0; i < APIS; i++) {
          apis.push(await startApiProcess({ DATABASE_URL: viaProxy.toString(), DATABASE_POOL_SIZE: '4', QUEUE_PREFIX: PREFIX }));
        }
        const children = apis.map((a) => a.child);
        const run = runPhones(apis);
        const windows: Array<{ cutAt: number; restoredAt: number }> = [];
        for (const outage of OUTAGES_MS) {
          await new Promise((r) => setTimeout(r, STEADY_MS));
          const cutAt = Date.now();
          proxy.cut();
          await new Promise((r) => setTimeout(r, outage));
          proxy.restore();
          windows.push({ cutAt, restoredAt: Date.now() });
        }
        await new Promise((r) => setTimeout(r, STEADY_MS));
        run.stop();
        const answers = await run.done;

        // no 500, no hang: every answer is a 200 or a 503 in the action API's error shape
        const bad = answers.filter((a) => a.http !== 200 && a.http !== 503);
        if (bad.length) fail(children, `answers other than 200/503: ${JSON.stringify(bad.slice(0, 5))} (${bad.length} in all)`);
        for (const a of answers.filter((x) => x.http === 503)) {
          expect(JSON.parse(a.body)).toEqual({ status: -99, error: 'service temporarily unavailable, retry later' });
        }
        const slowest = Math.max(...answers.map((a) => a.ms));
        expect(slowest).toBeLessThanOrEqual(REQUEST_BOUND_MS);

        // each outage was seen (503s sent during it), and every phone got a 200 again after it
        const recoveries: number[] = [];
        windows.forEach(({ cutAt, restoredAt }, k) => {
          const refused = answers.filter((a) => a.http === 503 && a.sentAt >= cutAt && a.sentAt < restoredAt);
          expect(refused.length).toBeGreaterThan(0);
          const next = windows[k + 1]?.cutAt ?? Infinity;
          for (const phone of phones) {
            const first = answers.find((a) => a.phone === phone.index && a.http === 200 && a.sentAt >= restoredAt && a.sentAt < next);
            if (!first) fail(children, `phone ${phone.index} (${phone.kind}) got no 200 after outage ${k + 1}`);
            recoveries[k] = Math.max(recoveries[k] ?? 0, first.sentAt + first.ms - restoredAt);
          }
        });
        const count = (http: number) => answers.filter((a) => a.http === http).length;
        console.log(
          `PostgreSQL restart during ingestion: ${phones.length} phones on ${APIS} api(s), outages ${OUTAGES_MS.join('/')} ms; ` +
            `${count(200)} × 200, ${count(503)} × 503, slowest answer ${slowest} ms; every phone's first 200 after the restore ` +
            `within ${recoveries.join('/')} ms`,
        );
        for (const r of recoveries) expect(r).toBeLessThanOrEqual(RECOVERY_BOUND_MS);

        // every fix answered 200 is stored, by the phones' own timestamps
        let acked = 0;
        for (const phone of phones) {
          const rows: Array<{ ts: number }> = await db.query(
            `SELECT ts::float8 AS ts FROM location_fixes WHERE company_id = $1 AND member_id = $2`,
            [company.companyUid, phone.memberId],
          );
          const stored = new Set(rows.map((r) => r.ts));
          const lost = phone.acked.filter((ts) => !stored.has(ts));
          if (lost.length)
            fail(children, `phone ${phone.index} (${phone.kind}): ${lost.length} fixes answered 200 are not stored: ${lost.slice(0, 5)}`);
          acked += phone.acked.length;
        }
        expect(acked).toBe(count(200));
        for (const c of children) expect(c.running).toBe(true);
      } finally {
        await proxy.close();
      }
    },
    FULL ? 240_000 : 90_000,
  );
});
