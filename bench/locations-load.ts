/**
 * The ingestion load generator, run as a child process (so it does not share the servers' event
 * loop): `concurrency` loops, each sending one request at a time over keep-alive node:http, for
 * `warmupMs` (not counted) then `durationMs`. Phones take turns (request n is phone n mod phones);
 * every request carries fixes with fresh timestamps (`baseTs + k·stepMs`, k counting up per phone),
 * so none is a duplicate. `push`: POST /api/pushlocations with `batch` fixes and the phone's API key
 * (counts when 200 and `{"status":0,"accepted":<batch>`); `osmand`: GET /osmand?id=…&lat=…&lon=…
 * &timestamp=… (one fix; counts when 200). Receives its config over IPC, answers an IngestLoadResult.
 */
import http from 'node:http';

export interface IngestLoadConfig {
  mode: 'push' | 'osmand';
  /** base URL, e.g. http://127.0.0.1:3000 */
  url: string;
  /** per phone: its API key (push) or device id (osmand) */
  phones: string[];
  baseTs: number;
  stepMs: number;
  /** fixes per request (push) */
  batch: number;
  concurrency: number;
  warmupMs: number;
  durationMs: number;
}

export interface IngestLoadResult {
  requests: number;
  fixes: number;
  errors: number;
  firstError?: string;
  elapsedMs: number;
  fixesPerS: number;
  p50: number;
  p99: number;
}

function runLoad(cfg: IngestLoadConfig): Promise<IngestLoadResult> {
  const u = new URL(cfg.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: cfg.concurrency });
  const next = new Array<number>(cfg.phones.length).fill(0);
  let counter = 0;

  const request = (): { path: string; method: string; headers: Record<string, string>; body?: string; fixes: number } => {
    const phone = counter++ % cfg.phones.length;
    const lat0 = 46 + phone / 1000;
    if (cfg.mode === 'osmand') {
      const k = next[phone]++;
      const q = `id=${encodeURIComponent(cfg.phones[phone])}&lat=${(lat0 + k * 1e-5).toFixed(6)}&lon=14.5&speed=3.2&bearing=90&accuracy=5&batt=80&timestamp=${cfg.baseTs + k * cfg.stepMs}`;
      return { path: `/osmand?${q}`, method: 'GET', headers: {}, fixes: 1 };
    }
    const locations = [];
    for (let i = 0; i < cfg.batch; i++) {
      const k = next[phone]++;
      locations.push({ ts: cfg.baseTs + k * cfg.stepMs, lat: lat0 + k * 1e-5, lng: 14.5, acc: 5, dir: 90, spd: 3.2, elv: 300, bat: 80 });
    }
    const body = JSON.stringify({ data: { locations } });
    return {
      path: '/api/pushlocations',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'api-key': cfg.phones[phone] },
      body,
      fixes: cfg.batch,
    };
  };
  const expectHead = cfg.mode === 'push' ? `{"status":0,"accepted":${cfg.batch},` : '';

  const one = () =>
    new Promise<{ ok: boolean; ms: number; fixes: number; error?: string }>((resolve) => {
      const r = request();
      const t0 = performance.now();
      const req = http.request({ host: u.hostname, port: u.port, path: r.path, method: r.method, agent, headers: r.headers }, (res) => {
        let head = '';
        res.on('data', (c: Buffer) => {
          if (head.length < 40) head += c.toString('utf8', 0, 40);
        });
        res.on('end', () => {
          const ok = res.statusCode === 200 && head.startsWith(expectHead);
          resolve({ ok, ms: performance.now() - t0, fixes: r.fixes, error: ok ? undefined : `${res.statusCode} ${head}` });
        });
      });
      req.on('error', (err) => resolve({ ok: false, ms: performance.now() - t0, fixes: 0, error: err.message }));
      req.end(r.body);
    });

  const phase = async (ms: number) => {
    const end = performance.now() + ms;
    const latencies: number[] = [];
    let errors = 0;
    let fixes = 0;
    let firstError: string | undefined;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: cfg.concurrency }, async () => {
        while (performance.now() < end) {
          const r = await one();
          if (r.ok) {
            latencies.push(r.ms);
            fixes += r.fixes;
          } else {
            errors += 1;
            firstError ??= r.error;
          }
        }
      }),
    );
    return { latencies, errors, fixes, firstError, elapsedMs: performance.now() - t0 };
  };

  return (async () => {
    await phase(cfg.warmupMs);
    const { latencies, errors, fixes, firstError, elapsedMs } = await phase(cfg.durationMs);
    agent.destroy();
    latencies.sort((a, b) => a - b);
    const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.max(0, Math.ceil((p / 100) * latencies.length) - 1))] ?? NaN;
    return {
      requests: latencies.length,
      fixes,
      errors,
      firstError,
      elapsedMs,
      fixesPerS: (fixes / elapsedMs) * 1000,
      p50: at(50),
      p99: at(99),
    };
  })();
}

if (require.main === module && process.send) {
  process.once('message', (cfg: IngestLoadConfig) => {
    runLoad(cfg).then(
      (result) => process.send!(result, () => process.exit(0)),
      (err: Error) => process.send!({ error: err.message }, () => process.exit(1)),
    );
  });
}
