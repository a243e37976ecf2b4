/**
 * The mixed load's generator (`BENCH_ONLY=mixed`, bench/mixed-load.ts), run as a child process so its
 * work does not delay the parent's webhook receivers and stream readers. Open loop: requests are sent
 * when due, whatever the answers before them (a slow server shows as latency, not as a lower rate).
 * Traffic, all through one base URL (haproxy), keep-alive over undici `Pool`s:
 *
 * - phones: `POST /api/pushlocations` with one fresh fix, each phone its own API key, the active phones
 *   taking turns evenly (phone n every `fixIntervalMs`, the sends spread over the interval);
 * - dispatchers: `locate {teams: true}` and `getjobs {day, worker}` alternating, each dispatcher its own
 *   key, `dispatcherRps` requests per second in all (dispatcher n mod count);
 * - createjobs: `createJobs` jobs every `createEveryMs` with the administrator's key.
 *
 * Control over IPC: `init` (keys, usernames), `set` (rates; phones counted from the start of the list),
 * `collect` (answers what was measured since the last collect and starts afresh), `status` (answers the
 * requests in flight), `stop`.
 * A request counts as an error when it is not 200 with a body starting `{"status":0`, or has no answer
 * within `timeoutMs` (its code is `timeout`); its latency is kept only when it succeeded. A request
 * is counted as sent in the window it was sent in, and its answer in the window the answer arrives in.
 */
import { Pool } from 'undici';
import { makeJob } from './fixtures';

export type MixedRoute = 'pushlocations' | 'locate' | 'getjobs' | 'createjobs';
export const MIXED_ROUTES: MixedRoute[] = ['pushlocations', 'locate', 'getjobs', 'createjobs'];

export interface GenInit {
  cmd: 'init';
  url: string;
  phoneKeys: string[];
  dispatcherKeys: string[];
  adminKey: string;
  /** getjobs asks one of these workers' day */
  workers: string[];
  /** YYYYMMDD: getjobs' day; createjobs spreads its jobs over `days` */
  today: number;
  days: number[];
  timeoutMs: number;
  /** the dispatchers' routes: both alternating (default), or only one (to see which one costs what) */
  dispatcherRoutes: 'both' | 'locate' | 'getjobs';
  /** `osmand`: the phones send `/osmand?id=<phoneKeys[n]>&…` (a device id, not a key); counted as pushlocations */
  phoneRoute: 'pushlocations' | 'osmand';
}

export interface GenRates {
  cmd: 'set';
  phones: number;
  fixIntervalMs: number;
  dispatcherRps: number;
  createEveryMs: number;
  createJobs: number;
}

export interface RouteFigures {
  /** latencies of the successful requests, ms */
  ms: number[];
  /** failed requests by cause (`429`, `500`, `timeout`, `ECONNRESET`, `body`: 200 without status 0, …) */
  errors: Record<string, number>;
  /** the first failure's text (status and the start of its body, or the error) */
  firstError?: string;
  sent: number;
}

export interface GenCollected {
  type: 'collected';
  routes: Record<MixedRoute, RouteFigures>;
  /** fixes the api answered as accepted */
  fixesAccepted: number;
  /** requests still without an answer at the collect */
  inFlight: number;
  /** the most requests one key sent within one clock minute since the start (the limit is per minute) */
  maxPerKeyMinute: { key: string; count: number; route: string };
  /** the generator's own CPU seconds since the last collect */
  cpuSeconds: number;
  elapsedMs: number;
}

const empty = (): Record<MixedRoute, RouteFigures> => ({
  pushlocations: { ms: [], errors: {}, sent: 0 },
  locate: { ms: [], errors: {}, sent: 0 },
  getjobs: { ms: [], errors: {}, sent: 0 },
  createjobs: { ms: [], errors: {}, sent: 0 },
});

function runGenerator(init: GenInit): void {
  const opts = { connections: 128, pipelining: 1, keepAliveTimeout: 30_000, headersTimeout: init.timeoutMs, bodyTimeout: init.timeoutMs };
  const phonePool = new Pool(init.url, opts);
  const staffPool = new Pool(init.url, { ...opts, connections: 32 });
  let rates: GenRates = { cmd: 'set', phones: 0, fixIntervalMs: 10_000, dispatcherRps: 0, createEveryMs: 0, createJobs: 0 };
  let routes = empty();
  let fixesAccepted = 0;
  let inFlight = 0;
  let since = performance.now();
  let cpuSince = process.cpuUsage();
  let jobIndex = 0;
  // per key: the clock minute and its count; the largest seen
  const perKey = new Map<string, { minute: number; count: number }>();
  let maxPerKey = { key: '', count: 0, route: '' };
  const charge = (key: string, route: string) => {
    const minute = Math.floor(Date.now() / 60_000);
    let c = perKey.get(key);
    if (!c || c.minute !== minute) perKey.set(key, (c = { minute, count: 0 }));
    c.count += 1;
    if (c.count > maxPerKey.count) maxPerKey = { key: key.slice(0, 12), count: c.count, route };
  };

  /** `path` (with its query) replaces `/api/<route>`; then no key nor content type is sent (`/osmand`) */
  const send = (pool: Pool, route: MixedRoute, key: string, body: string, expect: string, onOk?: () => void, path?: string) => {
    charge(key, route);
    routes[route].sent += 1;
    inFlight += 1;
    const t0 = performance.now();
    // an answer counts in the window it arrives in (`routes` is replaced at each collect)
    const fail = (cause: string, text: string) => {
      const figures = routes[route];
      figures.errors[cause] = (figures.errors[cause] ?? 0) + 1;
      figures.firstError ??= text;
    };
    pool
      .request({
        path: path ?? `/api/${route}`,
        method: 'POST',
        headers: path ? {} : { 'content-type': 'application/json', 'api-key': key },
        body,
      })
      .then(async (res) => {
        const text = await res.body.text();
        const ms = performance.now() - t0;
        if (res.statusCode === 200 && text.startsWith(expect)) {
          routes[route].ms.push(ms);
          onOk?.();
        } else fail(res.statusCode === 200 ? 'body' : String(res.statusCode), `${res.statusCode} ${text.slice(0, 200)}`);
      })
      .catch((err: Error & { code?: string }) => {
        const code = /timeout/i.test(err.code ?? err.message) ? 'timeout' : (err.code ?? err.name);
        fail(code, `${code}: ${err.message}`);
      })
      .finally(() => (inFlight -= 1));
  };

  // phones: fix n of phone p at lat/lng near Ljubljana, moving a little each time
  const fixCount = new Uint32Array(init.phoneKeys.length);
  let nextPhone = 0;
  const sendFix = () => {
    if (rates.phones <= 0) return;
    const p = nextPhone % rates.phones;
    nextPhone = (p + 1) % rates.phones;
    const k = fixCount[p]++;
    const lat = 46.0 + (p % 100) * 0.002 + (k % 50) * 1e-5;
    const lng = 14.4 + Math.floor(p / 100) * 0.002 + (k % 50) * 1e-5;
    const accepted = () => (fixesAccepted += 1);
    if (init.phoneRoute === 'osmand') {
      // Traccar Client's query: speed in knots, here 4 (the route converts), answered 200 with no body
      const query = `id=${init.phoneKeys[p]}&timestamp=${Date.now()}&lat=${lat.toFixed(6)}&lon=${lng.toFixed(6)}&accuracy=8&bearing=${(k * 7) % 360}&speed=4&altitude=300&batt=${80 - (k % 50)}`;
      send(phonePool, 'pushlocations', init.phoneKeys[p], '', '', accepted, `/osmand?${query}`);
      return;
    }
    const body = `{"data":{"locations":[{"ts":${Date.now()},"lat":${lat.toFixed(6)},"lng":${lng.toFixed(6)},"acc":8,"dir":${(k * 7) % 360},"spd":4,"elv":300,"bat":${80 - (k % 50)}}]}}`;
    send(phonePool, 'pushlocations', init.phoneKeys[p], body, '{"status":0,"accepted":1', accepted);
  };
  let nextDispatch = 0;
  const sendDispatch = () => {
    const n = nextDispatch++;
    const d = n % init.dispatcherKeys.length;
    const key = init.dispatcherKeys[d];
    const turn =
      init.dispatcherRoutes === 'both' ? Math.floor(n / init.dispatcherKeys.length) % 2 : init.dispatcherRoutes === 'locate' ? 0 : 1;
    if (turn === 0) send(staffPool, 'locate', key, '{"data":{"teams":true}}', '{"status":0');
    else {
      const worker = init.workers[(n * 7919) % init.workers.length];
      send(staffPool, 'getjobs', key, JSON.stringify({ data: { day: init.today, worker } }), '{"status":0');
    }
  };
  const sendCreate = () => {
    const jobs = Array.from({ length: rates.createJobs }, () => {
      const i = jobIndex++;
      return makeJob(i, init.days[i % init.days.length], init.workers[(i * 104729) % init.workers.length]);
    });
    send(staffPool, 'createjobs', init.adminKey, JSON.stringify({ data: { jobs } }), '{"status":0');
  };

  // the pacer: every tick, send what fell due since the last (fractional debts carried)
  let last = performance.now();
  let phoneDebt = 0;
  let dispatchDebt = 0;
  let createDue = performance.now();
  setInterval(() => {
    const now = performance.now();
    const dt = now - last;
    last = now;
    if (rates.phones > 0) {
      phoneDebt += (dt * rates.phones) / rates.fixIntervalMs;
      for (; phoneDebt >= 1; phoneDebt--) sendFix();
    }
    if (rates.dispatcherRps > 0) {
      dispatchDebt += (dt * rates.dispatcherRps) / 1000;
      for (; dispatchDebt >= 1; dispatchDebt--) sendDispatch();
    }
    if (rates.createEveryMs > 0 && now >= createDue) {
      createDue = now + rates.createEveryMs;
      sendCreate();
    }
  }, 5);

  process.on('message', (msg: GenRates | { cmd: 'collect' } | { cmd: 'status' } | { cmd: 'stop' }) => {
    if (msg.cmd === 'status') process.send!({ type: 'status', inFlight });
    else if (msg.cmd === 'set') {
      const phones = Math.min(msg.phones, init.phoneKeys.length);
      if (rates.createEveryMs === 0 && msg.createEveryMs > 0) createDue = performance.now() + msg.createEveryMs / 2;
      rates = { ...msg, phones };
    } else if (msg.cmd === 'collect') {
      const cpu = process.cpuUsage(cpuSince);
      const out: GenCollected = {
        type: 'collected',
        routes,
        fixesAccepted,
        inFlight,
        maxPerKeyMinute: maxPerKey,
        cpuSeconds: (cpu.user + cpu.system) / 1e6,
        elapsedMs: performance.now() - since,
      };
      routes = empty();
      fixesAccepted = 0;
      since = performance.now();
      cpuSince = process.cpuUsage();
      process.send!(out);
    } else if (msg.cmd === 'stop') process.exit(0); // requests in flight or waiting are dropped with the sockets
  });
  process.send!({ type: 'ready' });
}

if (require.main === module && process.send) {
  process.once('message', (init: GenInit) => runGenerator(init));
}
