/**
 * The createjobs bench's HTTP client, run as a child process so that writing the 0.5 MB request and
 * reading the ~2 MB answer is not done on the api's event loop (the api runs in the bench process).
 * A real client never shares the server's process; the getjobs bench's load generator
 * (bench/load.ts) is a child for the same reason.
 *
 * Over IPC (bench/ipc-child.ts): the parent sends a `ClientConfig`; each `{ count }` then makes one
 * POST and answers a `ClientCall` (ms from the request's start to the answer's last byte, as the
 * client sees it).
 */
import { ChildProcess } from 'node:child_process';
import http from 'node:http';
import { forkIpcChild, serveIpc } from './ipc-child';

export interface ClientConfig {
  url: string;
  /** the request body (JSON text), encoded once to UTF-8 in the child */
  body: string;
  headers: Record<string, string>;
}

export interface ClientCall {
  status: number;
  /** the request's start to the answer's last byte, ms */
  ms: number;
  /** the answer's first 300 characters */
  head: string;
  /** only when asked (`count: true`): the length of the answer's `jobs` list */
  jobs?: number;
}

/** The child's handler: one POST a request. */
function setup(cfg: ClientConfig) {
  const u = new URL(cfg.url);
  const bytes = Buffer.from(cfg.body, 'utf8');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { 'content-type': 'application/json', 'content-length': String(bytes.length), ...cfg.headers };
  const handle = ({ count }: { count: boolean }) =>
    new Promise<ClientCall>((resolve, reject) => {
      const t0 = performance.now();
      const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const ms = performance.now() - t0;
          const all = Buffer.concat(chunks);
          const head = all.toString('utf8', 0, Math.min(all.length, 300));
          const jobs = count ? (JSON.parse(all.toString('utf8')) as { jobs?: unknown[] }).jobs?.length : undefined;
          resolve({ status: res.statusCode ?? 0, ms, head, jobs });
        });
      });
      req.on('error', reject);
      req.end(bytes);
    });
  return {
    handle,
    failed: (err: Error): ClientCall => ({ status: 0, ms: 0, head: `client error: ${err.message}` }),
    onStop: async () => agent.destroy(),
  };
}

if (require.main === module && process.send) serveIpc(setup);

/** A forked createjobs client: `call` makes one POST in the child and answers its timing. */
export interface CreateJobsClient {
  call(count: boolean): Promise<ClientCall>;
  stop(): void;
}

/** Clients running now (killed by the bench's clean-up on a signal). */
export const clientChildren = new Set<ChildProcess>();

/** Forks the client (same ts-node flags as this process) and waits until it is ready. */
export async function startCreateJobsClient(cfg: ClientConfig): Promise<CreateJobsClient> {
  const child = await forkIpcChild<ClientConfig, { count: boolean }, ClientCall>(
    'createjobs client',
    require.resolve('./createjobs-client'),
    cfg,
    clientChildren,
  );
  return { call: (count) => child.ask({ count }), stop: () => child.stop() };
}
