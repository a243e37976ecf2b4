import { resolve } from 'node:path';
import { Child, childEnv, ROOT, spawnNode, waitFor } from './proc-child';

/** Anything that runs SQL and answers rows: a TypeORM DataSource or a pg Pool/Client's `query`. */
type Query = (sql: string, params: unknown[]) => Promise<unknown[] | { rows: unknown[] }>;

const WORKER_SCRIPT = 'dist/apps/worker/src/main.js';
/** What the worker logs once its start has finished: every start-up hook has run and its SIGTERM handling is set up. */
const STARTED_LINE = 'fieldwork worker started';

/**
 * Starts the BUILT worker (`dist/apps/worker/src/main.js`) as a child process with `env` (and node
 * flags `nodeArgs`, e.g. `--cpu-prof`; `script` another build's worker, relative to the repository root) and waits until its start
 * has finished (its "fieldwork worker started" line: a SIGTERM before it found no handler and killed it
 * by the signal's default action) and its heartbeat row is written.
 * @throws with the worker's output when it exits first or no heartbeat of it shows within 30 s
 *   (the worker is then killed).
 */
export async function startWorker(
  label: string,
  env: Record<string, string | undefined>,
  query: Query,
  nodeArgs: string[] = [],
  script = WORKER_SCRIPT,
): Promise<Child> {
  const worker =
    nodeArgs.length || script !== WORKER_SCRIPT
      ? new Child(label, process.execPath, [...nodeArgs, resolve(ROOT, script)], childEnv(env))
      : spawnNode(label, WORKER_SCRIPT, env);
  try {
    await Promise.race([
      waitFor(
        `${label} heartbeat and started line`,
        async () => {
          if (!worker.stdout.includes(STARTED_LINE)) return false;
          const res = await query(`SELECT 1 FROM worker_heartbeats WHERE id LIKE $1 AND stopped_at IS NULL`, [`%:${worker.pid}:%`]);
          return (Array.isArray(res) ? res : res.rows).length > 0;
        },
        { timeoutMs: 30_000, intervalMs: 100 },
      ),
      worker.exited.then((exit) => Promise.reject(new Error(`${label} exited during start-up: ${JSON.stringify(exit)}`))),
    ]);
  } catch (err) {
    await worker.stop('SIGKILL');
    throw new Error(`${(err as Error).message}\n${worker.output()}`);
  }
  return worker;
}
