/**
 * The geofence bench's background load, run as a child process (so it does not share the api's event
 * loop): `phones` members each POST a `pushlocations` batch of `batch` fresh fixes (1 s apart, the
 * newest at the send time, a random walk around its own start) so that all of them together send
 * `fixesPerSecond`; paced open-loop (a fixed schedule), at most `maxInFlight` requests outstanding (a
 * send due while that many are open is skipped and counted). Receives its config over IPC, runs until
 * told `stop`, answers a {@link GeofenceLoadResult}.
 */
import http from 'node:http';

export interface GeofenceLoadConfig {
  url: string;
  keys: string[];
  /** degrees: where each phone starts (one per key) */
  starts: Array<{ lat: number; lng: number }>;
  batch: number;
  fixesPerSecond: number;
  maxInFlight: number;
}

export interface GeofenceLoadResult {
  requests: number;
  fixes: number;
  errors: number;
  skipped: number;
  firstError?: string;
  elapsedMs: number;
  fixesPerSecond: number;
}

function run(cfg: GeofenceLoadConfig, stopped: Promise<void>): Promise<GeofenceLoadResult> {
  const u = new URL(cfg.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: cfg.maxInFlight });
  const pos = cfg.starts.map((p) => ({ ...p }));
  const lastTs = cfg.keys.map(() => 0);
  let inFlight = 0;
  let requests = 0;
  let errors = 0;
  let skipped = 0;
  let firstError: string | undefined;

  const send = (phone: number) => {
    const now = Date.now();
    // the batch spreads over the time since the phone's previous one: strictly increasing, the newest = now
    const first = lastTs[phone] ? lastTs[phone] + 1 : now - (cfg.batch - 1) * 1000;
    const step = Math.max(1, (now - first) / (cfg.batch - 1));
    const locations = [];
    for (let i = 0; i < cfg.batch; i++) {
      const p = pos[phone];
      p.lat += (Math.random() - 0.5) * 0.0002;
      p.lng += (Math.random() - 0.5) * 0.0002;
      locations.push({ ts: Math.round(first + i * step), lat: p.lat, lng: p.lng, acc: 8, spd: 5, bat: 80 });
    }
    for (let i = 1; i < locations.length; i++) if (locations[i].ts <= locations[i - 1].ts) locations[i].ts = locations[i - 1].ts + 1;
    lastTs[phone] = locations[locations.length - 1].ts;
    const body = JSON.stringify({ data: { locations } });
    inFlight += 1;
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'api-key': cfg.keys[phone] },
      },
      (res) => {
        let head = '';
        res.on('data', (c: Buffer) => {
          if (head.length < 11) head += c.toString('utf8', 0, 11);
        });
        res.on('end', () => {
          inFlight -= 1;
          if (res.statusCode === 200 && head.startsWith('{"status":0')) requests += 1;
          else {
            errors += 1;
            firstError ??= `${res.statusCode} ${head}`;
          }
        });
      },
    );
    req.on('error', (err) => {
      inFlight -= 1;
      errors += 1;
      firstError ??= err.message;
    });
    req.end(body);
  };

  return (async () => {
    const perSecond = cfg.fixesPerSecond / cfg.batch;
    const intervalMs = 1000 / perSecond;
    const t0 = performance.now();
    let done = false;
    void stopped.then(() => (done = true));
    let n = 0;
    while (!done) {
      const due = t0 + n * intervalMs;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (inFlight >= cfg.maxInFlight) skipped += 1;
      else send(n % cfg.keys.length);
      n += 1;
    }
    const elapsedMs = performance.now() - t0;
    while (inFlight > 0) await new Promise((r) => setTimeout(r, 20));
    agent.destroy();
    return {
      requests,
      fixes: requests * cfg.batch,
      errors,
      skipped,
      firstError,
      elapsedMs,
      fixesPerSecond: ((requests * cfg.batch) / elapsedMs) * 1000,
    };
  })();
}

if (require.main === module && process.send) {
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  process.on('message', (msg: GeofenceLoadConfig | 'stop') => {
    if (msg === 'stop') return stop();
    run(msg, stopped).then(
      (result) => process.send!(result, () => process.exit(0)),
      (err: Error) => process.send!({ error: err.message }, () => process.exit(1)),
    );
  });
}
