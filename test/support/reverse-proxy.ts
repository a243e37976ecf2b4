import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Child, childEnv, freePort, waitFor } from './proc-child';

/**
 * A real reverse proxy for tests: the Debian package's `haproxy` (installed by
 * `scripts/test-tools.sh`), started in the foreground (`-db`) with a config of the test's own in a
 * temp dir, on a free loopback port: round-robin over the given backends, each request balanced on
 * its own, `option forwardfor` (haproxy appends the client address it sees to `X-Forwarded-For`),
 * a refused connection retried on another backend (`option redispatch`). No health checks by default,
 * so the backends get only the traffic sent through the proxy; `healthCheck` polls each backend's
 * `/health/ready` every `intervalMs` and takes it out of the rotation at its first failure (a draining
 * api answers 503 there), as a production load balancer does. Tracked like every other child, so
 * `stopAllChildren()` stops it too; `stop()` also removes the temp dir.
 */
export interface ReverseProxy {
  child: Child;
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Requests haproxy sent to each backend server (`show stat` on its stats socket), by server name. */
  requestsPerServer(): Promise<Record<string, number>>;
  /** Sends one command to the stats socket and returns the answer (e.g. `show stat`). */
  stats(command: string): Promise<string>;
  stop(): Promise<void>;
}

/** The haproxy binary: `HAPROXY_BIN`, else the Debian package's path, else whatever `PATH` finds. */
export function haproxyBinary(): string {
  if (process.env.HAPROXY_BIN) return process.env.HAPROXY_BIN;
  return existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy';
}

/**
 * Health checks of the backends: `GET /health/ready` every `intervalMs`; down at 1 failure (a non-2xx
 * answer, or none within `timeoutMs`, default 3 s: without it haproxy waits only `intervalMs`, and a
 * busy machine's slow answer would take every backend out), up at 1 success.
 */
export interface HealthCheck {
  intervalMs: number;
  timeoutMs?: number;
}

/**
 * How haproxy picks a backend for each request: `roundrobin` (the tests' default: requests spread
 * evenly, which the multi-instance tests count on) or `leastconn` (the backend with the fewest
 * requests in progress: one busy with a long request gets the next ones less).
 */
export type Balance = 'roundrobin' | 'leastconn';

/** The config: one frontend on `127.0.0.1:port`, one backend balanced by `balance`, a stats socket. */
function haproxyConfig(port: number, backends: string[], statsSocket: string, check?: HealthCheck, balance: Balance = 'roundrobin'): string {
  return [
    'global',
    `  stats socket ${statsSocket} mode 600 level admin`,
    '  maxconn 2000',
    'defaults',
    '  mode http',
    '  option forwardfor',
    '  timeout connect 5s',
    '  timeout client 60s',
    '  timeout server 60s',
    // a backend that refuses the connection (stopped) is retried on another: a client never sees it
    '  retries 3',
    '  option redispatch 1',
    'frontend fe',
    `  bind 127.0.0.1:${port}`,
    '  default_backend apis',
    'backend apis',
    `  balance ${balance}`,
    ...(check
      ? [
          '  option httpchk GET /health/ready',
          `  timeout check ${check.timeoutMs ?? 3_000}`,
          `  default-server check inter ${check.intervalMs} fall 1 rise 1`,
        ]
      : []),
    ...backends.map((b, i) => `  server api${i} ${b.replace(/^https?:\/\//, '')}`),
    '',
  ].join('\n');
}

/** One command to a haproxy stats socket (a unix socket: the answer ends when haproxy closes it). */
function statsCommand(socketPath: string, command: string, timeoutMs = 3_000): Promise<string> {
  return new Promise((resolveAnswer, reject) => {
    const socket = createConnection(socketPath);
    let answer = '';
    socket.setEncoding('utf8');
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`haproxy stats socket: no answer to "${command}"`)));
    socket.on('connect', () => socket.write(`${command}\n`));
    socket.on('data', (d: string) => (answer += d));
    socket.on('error', reject);
    socket.on('close', (hadError) => !hadError && resolveAnswer(answer));
  });
}

/** Parses `show stat` CSV (header line `# pxname,svname,...`) into one record per line. */
export function parseShowStat(csv: string): Array<Record<string, string>> {
  const lines = csv.split('\n').filter((l) => l.trim() !== '');
  const header = lines.shift()?.replace(/^#\s*/, '').split(',') ?? [];
  return lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [header[i], v])));
}

/** True once something accepts TCP connections on `127.0.0.1:port`. */
function accepts(port: number): Promise<boolean> {
  return new Promise((r) => {
    const s = createConnection({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      s.destroy();
      r(ok);
    };
    s.setTimeout(1_000, () => done(false));
    s.on('connect', () => done(true));
    s.on('error', () => done(false));
  });
}

/**
 * Starts haproxy in front of `backends` (`http://127.0.0.1:<port>` URLs) and waits until it accepts
 * connections (with `healthCheck`: until every backend is up); retried on a port taken meanwhile.
 * Throws naming `scripts/test-tools.sh` when the binary is missing.
 */
export async function startReverseProxy(
  backends: string[],
  { timeoutMs = 10_000, healthCheck, balance = 'roundrobin' }: { timeoutMs?: number; healthCheck?: HealthCheck; balance?: Balance } = {},
): Promise<ReverseProxy> {
  const bin = haproxyBinary();
  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const dir = mkdtempSync(join(tmpdir(), 'fieldwork-haproxy-'));
    const statsSocket = join(dir, 'stats.sock');
    const port = await freePort();
    const cfg = join(dir, 'haproxy.cfg');
    writeFileSync(cfg, haproxyConfig(port, backends, statsSocket, healthCheck, balance));
    // -db: foreground, not a daemon; a bad config makes it exit with its own message (in the output)
    const child = new Child(`haproxy:${port}`, bin, ['-db', '-f', cfg], childEnv());
    try {
      // an exit (a missing binary, a port taken meanwhile, a bad config) fails at once
      const exited = child.exited.then((exit) => Promise.reject(new Error(`haproxy exited: ${JSON.stringify(exit)}`)));
      exited.catch(() => undefined); // only the race below cares; a later exit (stop()) is no error
      await Promise.race([
        exited,
        waitFor(`haproxy on :${port}`, async () => (await accepts(port)) && existsSync(statsSocket), { timeoutMs, intervalMs: 50 }),
      ]);
    } catch (err) {
      await child.stop('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      lastError = `${(err as Error).message}\n${child.output()}`;
      if (/ENOENT|spawn error/.test(lastError)) {
        throw new Error(
          `haproxy is not installed (${bin}): run  bash scripts/test-tools.sh  (or apt-get install -y haproxy)\n${lastError}`,
        );
      }
      if (!/cannot bind|Address already in use/i.test(lastError)) break;
      continue;
    }
    const stats = (command: string) => statsCommand(statsSocket, command);
    if (healthCheck) {
      const allUp = async () =>
        parseShowStat(await stats('show stat')).filter((r) => r.pxname === 'apis' && r.svname !== 'BACKEND' && r.status === 'UP').length ===
        backends.length;
      await waitFor('every backend up in haproxy', allUp, { timeoutMs, intervalMs: 100 }).catch(async (err: Error) => {
        await child.stop('SIGKILL');
        rmSync(dir, { recursive: true, force: true });
        throw err;
      });
    }
    return {
      child,
      port,
      url: `http://127.0.0.1:${port}`,
      stats,
      async requestsPerServer() {
        const rows = parseShowStat(await stats('show stat'));
        const counts: Record<string, number> = {};
        for (const row of rows) {
          if (row.pxname === 'apis' && row.svname !== 'BACKEND') counts[row.svname] = Number(row.req_tot || row.stot);
        }
        return counts;
      },
      async stop() {
        await child.stop('SIGTERM', 5_000);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  throw new Error(`could not start haproxy:\n${lastError}`);
}
