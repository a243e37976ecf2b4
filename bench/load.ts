/**
 * The load generator, run as a child process (so it does not share the servers' event loop):
 * `concurrency` loops each POSTing `body` to `url` over keep-alive node:http connections, one
 * request at a time, for `warmupMs` (not counted) and then `durationMs`. A request counts when it
 * answers 200 with a body starting `{"status":0`. Receives its config over IPC, answers a LoadResult.
 */
import http from 'node:http';

export interface LoadConfig {
  url: string;
  body: string;
  headers: Record<string, string>;
  concurrency: number;
  warmupMs: number;
  durationMs: number;
}

export interface LoadResult {
  requests: number;
  /** requests answered in the warm-up (not counted in `requests`) */
  warmupRequests: number;
  errors: number;
  firstError?: string;
  elapsedMs: number;
  rps: number;
  p50: number;
  p99: number;
}

function runLoad(cfg: LoadConfig): Promise<LoadResult> {
  const u = new URL(cfg.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: cfg.concurrency });
  const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(cfg.body)), ...cfg.headers };
  const one = () =>
    new Promise<{ ok: boolean; ms: number; error?: string }>((resolve) => {
      const t0 = performance.now();
      const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', agent, headers }, (res) => {
        let head = '';
        res.on('data', (c: Buffer) => {
          if (head.length < 11) head += c.toString('utf8', 0, 11);
        });
        res.on('end', () => {
          const ok = res.statusCode === 200 && head.startsWith('{"status":0');
          resolve({ ok, ms: performance.now() - t0, error: ok ? undefined : `${res.statusCode} ${head}` });
        });
      });
      req.on('error', (err) => resolve({ ok: false, ms: performance.now() - t0, error: err.message }));
      req.end(cfg.body);
    });

  const phase = async (ms: number) => {
    const end = performance.now() + ms;
    const latencies: number[] = [];
    let errors = 0;
    let firstError: string | undefined;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: cfg.concurrency }, async () => {
        while (performance.now() < end) {
          const r = await one();
          if (r.ok) latencies.push(r.ms);
          else {
            errors += 1;
            firstError ??= r.error;
          }
        }
      }),
    );
    return { latencies, errors, firstError, elapsedMs: performance.now() - t0 };
  };

  return (async () => {
    const warm = await phase(cfg.warmupMs);
    const { latencies, errors, firstError, elapsedMs } = await phase(cfg.durationMs);
    agent.destroy();
    latencies.sort((a, b) => a - b);
    const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.max(0, Math.ceil((p / 100) * latencies.length) - 1))] ?? NaN;
    return {
      requests: latencies.length,
      warmupRequests: warm.latencies.length + warm.errors,
      errors,
      firstError,
      elapsedMs,
      rps: (latencies.length / elapsedMs) * 1000,
      p50: at(50),
      p99: at(99),
    };
  })();
}

if (require.main === module && process.send) {
  process.once('message', (cfg: LoadConfig) => {
    runLoad(cfg).then(
      (result) => process.send!(result, () => process.exit(0)),
      (err: Error) => process.send!({ error: err.message }, () => process.exit(1)),
    );
  });
}
