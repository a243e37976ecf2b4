import { ChildProcess, spawn } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';

/**
 * Child processes for operations tests: the BUILT apps (`dist/`) and private service instances,
 * spawned with the test environment, their output captured, and always stoppable (SIGTERM, then
 * SIGKILL past a bound). Every child spawned here is tracked so `stopAllChildren()` in an
 * `afterEach`/`afterAll` cleans up even when a test fails half-way.
 */

/** Repository root (where `dist/` lives). */
export const ROOT = resolve(__dirname, '../..');

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const MAX_CAPTURE = 64 * 1024;
const running = new Set<Child>();

export class Child {
  readonly proc: ChildProcess;
  stdout = '';
  stderr = '';
  /** characters received on stdout and stderr since the start (the captures above keep the last 64 kB) */
  private readonly received = { out: 0, err: 0 };
  exit?: ChildExit;
  /** Settles when the process has exited and its stdio is closed. */
  readonly exited: Promise<ChildExit>;

  constructor(
    readonly label: string,
    command: string,
    args: string[],
    env: NodeJS.ProcessEnv,
  ) {
    this.proc = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
      this.received.out += d.length;
      this.stdout = (this.stdout + d).slice(-MAX_CAPTURE);
    });
    this.proc.stderr!.setEncoding('utf8').on('data', (d: string) => {
      this.received.err += d.length;
      this.stderr = (this.stderr + d).slice(-MAX_CAPTURE);
    });
    running.add(this);
    this.exited = new Promise<ChildExit>((resolveExit) => {
      const done = (exit: ChildExit) => {
        if (this.exit) return;
        this.exit = exit;
        running.delete(this);
        resolveExit(exit);
      };
      this.proc.once('close', (code, signal) => done({ code, signal }));
      this.proc.once('error', (err) => {
        this.stderr += `\n[spawn error] ${err.message}`;
        done({ code: null, signal: null });
      });
    });
  }

  /** A mark in the output, for {@link outputSince}. */
  mark(): { out: number; err: number } {
    return { ...this.received };
  }

  /** What the process wrote on stdout, then on stderr, since `mark` (as far as the 64-kB captures still hold). */
  outputSince(mark: { out: number; err: number }): string {
    const tail = (text: string, count: number) => (count > 0 ? text.slice(-Math.min(count, text.length)) : '');
    return tail(this.stdout, this.received.out - mark.out) + tail(this.stderr, this.received.err - mark.err);
  }

  get pid(): number {
    if (this.proc.pid === undefined) throw new Error(`${this.label} has no pid (spawn failed?)\n${this.output()}`);
    return this.proc.pid;
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  /** Waits for the exit at most `timeoutMs`; `undefined` if the process is still running then. */
  async waitExit(timeoutMs: number): Promise<ChildExit | undefined> {
    if (this.exit) return this.exit;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), timeoutMs)));
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Sends `signal`, waits up to `graceMs`, then SIGKILLs. Resolves with the exit. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000): Promise<ChildExit> {
    if (this.exit) return this.exit;
    this.proc.kill(signal);
    const exit = await this.waitExit(graceMs);
    if (exit) return exit;
    this.proc.kill('SIGKILL');
    return (await this.waitExit(5_000)) ?? { code: null, signal: 'SIGKILL' };
  }

  /** Captured output for failure messages. */
  output(): string {
    return (
      `--- ${this.label} (pid ${this.proc.pid ?? '?'}) exit=${JSON.stringify(this.exit ?? null)}\n` +
      `--- stdout:\n${this.stdout.slice(-4000)}\n--- stderr:\n${this.stderr.slice(-4000)}`
    );
  }
}

/** Stops every child still running (SIGTERM, then SIGKILL after `graceMs`). */
export async function stopAllChildren(graceMs = 5_000): Promise<void> {
  await Promise.all([...running].map((c) => c.stop('SIGTERM', graceMs).catch(() => undefined)));
}

/** The test process's environment plus `overrides` (`undefined` removes a variable). */
export function childEnv(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Spawns a built entry point, e.g. `dist/apps/worker/src/main.js`, with node. */
export function spawnNode(label: string, script: string, env: Record<string, string | undefined> = {}): Child {
  return new Child(label, process.execPath, [resolve(ROOT, script)], childEnv(env));
}

/** Ports handed out by this process, not handed out again. */
const handedOut = new Set<number>();

/**
 * A loopback port free right now, for a child to listen on. Chosen at random in a range of this jest
 * worker's own (`JEST_WORKER_ID` n: 10000 + 4000·(n−1) … + 3999, below Linux's ephemeral range
 * 32768–60999): e2e suites run in parallel workers, and a port the OS picked for one (`listen(0)`) could
 * be picked again for another, or taken by an outgoing connection, before the child binds it.
 */
export async function freePort(): Promise<number> {
  const worker = Math.max(1, Number(process.env.JEST_WORKER_ID ?? 1));
  const base = 10_000 + ((worker - 1) % 5) * 4_000;
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = base + Math.floor(Math.random() * 4_000);
    if (handedOut.has(port)) continue;
    const server = createServer();
    const ok = await new Promise<boolean>((r) => server.once('error', () => r(false)).listen(port, '127.0.0.1', () => r(true)));
    if (!ok) continue;
    await new Promise<void>((r) => server.close(() => r()));
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port in ${base}–${base + 3999}`);
}

/**
 * Polls `probe` until it returns something other than `undefined`/`false`, or throws after
 * `timeoutMs` naming `what` and the last value or error seen.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 10_000, intervalMs = 100 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
      last = value;
    } catch (err) {
      last = err instanceof Error ? err.message : err;
    }
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export interface HttpResult<T = any> {
  status: number;
  body: T;
}

/** GET over real HTTP with a bound (a hung server fails the probe instead of the test timeout). */
export async function getJson<T = any>(url: string, timeoutMs = 5_000): Promise<HttpResult<T>> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: body as T };
}

export interface ApiProcess {
  child: Child;
  url: string;
  port: number;
}

/**
 * Starts the built api (`dist/apps/api/src/main.js`) on a free loopback port with the test
 * environment plus `env`, and waits until `/health/live` answers. Retries on a port race.
 */
export async function startApiProcess(env: Record<string, string | undefined> = {}, timeoutMs = 30_000): Promise<ApiProcess> {
  let lastOutput = '';
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = await freePort();
    const child = spawnNode(`api:${port}`, 'dist/apps/api/src/main.js', { SHUTDOWN_DRAIN_MS: '0', ...env, PORT: String(port) });
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitFor(
        `api on :${port} to answer /health/live`,
        async () => {
          if (!child.running) throw new Error(`api exited: ${JSON.stringify(child.exit)}`);
          return (await getJson(`${url}/health/live`, 2_000)).status === 200;
        },
        { timeoutMs, intervalMs: 150 },
      );
      return { child, url, port };
    } catch (err) {
      await child.stop('SIGKILL');
      lastOutput = `${(err as Error).message}\n${child.output()}`;
      if (!/EADDRINUSE/.test(child.stderr + child.stdout)) break;
    }
  }
  throw new Error(`could not start the api:\n${lastOutput}`);
}

export interface RedisProcess {
  child: Child;
  port: number;
  url: string;
}

/** Sends `PING` over a raw socket; true on `+PONG`. */
export function redisPing(port: number, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((r) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let data = '';
    const finish = (ok: boolean) => {
      socket.destroy();
      r(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.on('error', () => finish(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      data += d.toString();
      if (data.includes('\r\n')) finish(data.startsWith('+PONG'));
    });
  });
}

/**
 * A private, throw-away `redis-server` on a GIVEN loopback port (no persistence), e.g. to bring
 * back, empty, a Redis the test stopped. Never the machine's shared Redis.
 */
export async function startRedisOnPort(port: number, timeoutMs = 10_000): Promise<RedisProcess> {
  const child = new Child(
    `redis:${port}`,
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tmpdir(), '--loglevel', 'warning'],
    childEnv(),
  );
  try {
    await waitFor(
      `redis-server on :${port}`,
      async () => {
        if (!child.running) throw new Error(`redis-server exited: ${JSON.stringify(child.exit)}`);
        return redisPing(port);
      },
      { timeoutMs, intervalMs: 100 },
    );
  } catch (err) {
    await child.stop('SIGKILL');
    throw new Error(`could not start redis-server on :${port}: ${(err as Error).message}\n${child.output()}`);
  }
  return { child, port, url: `redis://127.0.0.1:${port}` };
}

/**
 * A private, throw-away `redis-server` on a free loopback port (no persistence), retried on a
 * port taken meanwhile. Never the machine's shared Redis.
 */
export async function startRedisServer(timeoutMs = 10_000): Promise<RedisProcess> {
  let last: Error | undefined;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      return await startRedisOnPort(await freePort(), timeoutMs);
    } catch (err) {
      last = err as Error;
      if (!/in use|EADDRINUSE/i.test(last.message)) break;
    }
  }
  throw last!;
}
