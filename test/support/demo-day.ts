import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { wallClock } from '@app/core';
import { DEMO_SITES, DEMO_TIMEZONE } from '../../apps/cli/src/demo';
import { dropQueueKeys } from './durability-redis';
import { ApiProcess, Child, startApiProcess } from './proc-child';
import { startWorker } from './worker';

const run = promisify(execFile);
const CLI = resolve(__dirname, '../../dist/apps/cli/src/main.js');

/** The demo day on a database of its own, with the built api and worker running on it. */
export interface DemoDay {
  api: ApiProcess;
  worker: Child;
  /** the database's own environment (DATABASE_URL, QUEUE_PREFIX) plus what the api was started with */
  env: Record<string, string>;
  db: Client;
  /** the dispatcher's key (the demo's administrator) */
  key: string;
  timezone: string;
  /** the demo workers' keys, by username */
  workerKeys: Map<string, string>;
  cli(...args: string[]): Promise<any>;
  stop(): Promise<void>;
}

/** A URL naming `name` on the server of `url`. */
function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * `npm run dev`'s demo day, as a test or the bench needs it: a database of its own (`<test db>_<suffix>`,
 * dropped first: the demo's usernames are unique platform-wide), migrated and seeded by the built CLI,
 * the built api (with `apiEnv`) and worker started on it, the demo worker's day replayed through the api
 * (`demo-live`), and every other demo worker given a fix near the yard so the map shows them all.
 * The company lives in Europe/Zagreb, or Tokyo before 02:00 there (the day must fit since midnight).
 */
export async function startDemoDay(suffix: string, apiEnv: Record<string, string> = {}): Promise<DemoDay> {
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/fieldwork_test';
  const name = `${new URL(server).pathname.slice(1)}_${suffix}`;
  const admin = new Client({ connectionString: withDatabase(server, 'postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
  const env = { DATABASE_URL: withDatabase(server, name), QUEUE_PREFIX: `${process.env.QUEUE_PREFIX ?? 'fieldwork-test'}-${suffix}` };
  const cli = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, maxBuffer: 1 << 22 });
    return JSON.parse(stdout.trim().split('\n').pop()!);
  };
  await cli('migrate');
  const timezone = wallClock(Date.now(), DEMO_TIMEZONE).hour >= 2 ? DEMO_TIMEZONE : 'Asia/Tokyo';
  const seeded = await cli('seed-demo', '--timezone', timezone);
  const db = new Client({ connectionString: env.DATABASE_URL });
  await db.connect();
  const api = await startApiProcess({ ...env, ...apiEnv });
  const worker = await startWorker(`worker-${suffix}`, env, (sql, params) => db.query(sql, params));
  await cli('demo-live', '--url', api.url, '--key', seeded.apiKey);

  const workerKeys = new Map<string, string>();
  const { rows } = await db.query<{ username: string }>(`SELECT username FROM members WHERE role = 'worker' ORDER BY username`);
  let i = 0;
  for (const { username } of rows) {
    const { apiKey } = await cli('create-api-key', '--username', username);
    workerKeys.set(username, apiKey);
    if (username.startsWith('luka.')) continue;
    // a fix a few hundred metres around the yard, moving
    i++;
    const at = { lat: DEMO_SITES.yard.lat + 0.002 * Math.sin(i * 1.3), lng: DEMO_SITES.yard.lng + 0.003 * Math.cos(i * 1.3) };
    await fetch(`${api.url}/api/pushlocations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'API-Key': apiKey },
      body: JSON.stringify({ data: { tracking: true, locations: [{ ts: Date.now() - 1000, ...at, acc: 5, spd: 6, dir: 90 }] } }),
    });
  }
  return {
    api,
    worker,
    env: { ...env, ...apiEnv },
    db,
    key: seeded.apiKey,
    timezone,
    workerKeys,
    cli,
    async stop() {
      await worker.stop('SIGTERM').catch(() => undefined);
      await api.child.stop('SIGTERM').catch(() => undefined);
      await db.end().catch(() => undefined);
      await dropQueueKeys(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', env.QUEUE_PREFIX);
      const a = new Client({ connectionString: withDatabase(server, 'postgres') });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await a.end();
    },
  };
}
