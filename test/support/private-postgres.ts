import { execFile, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort, ROOT } from './proc-child';

const run = promisify(execFile);

/** PostgreSQL 15's programs (Debian's layout; `PG_BIN` overrides). */
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
/** The OS user the private clusters run as: `initdb` and `postgres` refuse root (DESIGN.md, "Wave 3 traps"). */
const PG_USER = 'postgres';

/** Every cluster this process started and has not stopped: stopped (immediately) when the process exits. */
const started = new Set<PrivatePostgres>();
process.once('exit', () => {
  for (const pg of started) pg.stopSync();
});

/**
 * A PostgreSQL 15 cluster of a test's own — never the machine's shared server — in a directory under
 * the system temp dir, run through `runuser -u postgres --` when the test runs as root (CI does), on a
 * free loopback port, with its socket in the test's directory. Settings for tests: no fsync, small
 * buffers, `wal_level = replica` and trust authentication (replication included, initdb's default
 * `pg_hba.conf`), so it can be the primary of {@link PrivatePostgres.replicaOf}.
 */
export class PrivatePostgres {
  private constructor(
    /** the cluster's data directory (owned by the `postgres` user) */
    readonly dataDir: string,
    readonly port: number,
    private readonly root: string,
    private readonly ownsRoot: boolean,
  ) {}

  /** `postgres://postgres@127.0.0.1:<port>/<database>` */
  url(database = 'postgres'): string {
    return `postgres://${PG_USER}@127.0.0.1:${this.port}/${database}`;
  }

  /** initdb + start: a fresh primary. */
  static async primary(): Promise<PrivatePostgres> {
    const root = mkdtempSync(join(tmpdir(), 'fieldwork-pg-'));
    chownToPostgres(root);
    const dataDir = join(root, 'primary');
    await asPostgres(join(PG_BIN, 'initdb'), ['-D', dataDir, '-U', PG_USER, '--auth=trust', '-E', 'UTF8', '--no-sync', '--locale=C.UTF-8']);
    const pg = new PrivatePostgres(dataDir, await freePort(), root, true);
    await pg.start();
    return pg;
  }

  /**
   * A streaming replica of `primary`: `pg_basebackup -R` (which writes `standby.signal` and
   * `primary_conninfo`) into a directory beside the primary's, started as a hot standby on a free port.
   */
  static async replicaOf(primary: PrivatePostgres): Promise<PrivatePostgres> {
    const dataDir = join(primary.root, `replica-${Date.now()}`);
    await asPostgres(join(PG_BIN, 'pg_basebackup'), [
      ...['-h', '127.0.0.1', '-p', String(primary.port), '-U', PG_USER],
      ...['-D', dataDir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync'],
    ]);
    const pg = new PrivatePostgres(dataDir, await freePort(), primary.root, false);
    await pg.start();
    return pg;
  }

  /** Starts the postmaster (`pg_ctl start -w`) and waits until it accepts connections. */
  async start(): Promise<void> {
    const options = [
      `-c port=${this.port}`,
      `-c listen_addresses=127.0.0.1`,
      // the socket beside the data directories, not in one (pg_basebackup would try to copy it)
      `-c unix_socket_directories=${this.root}`,
      '-c fsync=off',
      '-c synchronous_commit=on',
      '-c full_page_writes=off',
      '-c shared_buffers=32MB',
      '-c max_connections=60',
      '-c wal_level=replica',
      '-c max_wal_senders=5',
      '-c hot_standby=on',
      // a report reading from the standby is not cancelled by the replay of a primary's vacuum
      '-c hot_standby_feedback=on',
      '-c wal_receiver_status_interval=1s',
    ].join(' ');
    await asPostgres(join(PG_BIN, 'pg_ctl'), [
      '-D',
      this.dataDir,
      '-l',
      join(this.dataDir, 'server.log'),
      '-w',
      '-t',
      '60',
      '-o',
      options,
      'start',
    ]);
    started.add(this);
  }

  /** Stops the postmaster: `immediate` = a crash (no checkpoint, clients cut), `fast` = a clean shutdown. */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await asPostgres(join(PG_BIN, 'pg_ctl'), ['-D', this.dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
    started.delete(this);
  }

  /** {@link stop} `immediate`, synchronously, ignoring errors (process exit). */
  stopSync(): void {
    spawnSync(...asPostgresArgv(join(PG_BIN, 'pg_ctl'), ['-D', this.dataDir, '-m', 'immediate', '-w', 'stop']), { stdio: 'ignore' });
    started.delete(this);
  }

  /** Stops the cluster if running and removes its directories (the primary removes its replicas' too). */
  async destroy(): Promise<void> {
    if (started.has(this)) await this.stop('immediate').catch(() => undefined);
    if (this.ownsRoot) rmSync(this.root, { recursive: true, force: true });
    else rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** Runs one statement on `database` over a connection of its own; answers the rows. */
  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = [], database = 'postgres'): Promise<T[]> {
    const client = new Client({ connectionString: this.url(database) });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /**
   * Creates `database` and migrates it with the BUILT CLI (`npm run migrate`: the postgis extension
   * and every migration), as the app's own deployments do.
   */
  async createMigratedDatabase(database: string): Promise<void> {
    await run(process.execPath, [join(ROOT, 'dist/apps/cli/src/main.js'), 'migrate'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: this.url(database), LOG_LEVEL: 'error' },
    });
  }
}

/** `command args` as the `postgres` user when running as root, else as is. */
function asPostgresArgv(command: string, args: string[]): [string, string[]] {
  return userInfo().uid === 0 ? ['runuser', ['-u', PG_USER, '--', command, ...args]] : [command, args];
}

async function asPostgres(command: string, args: string[]): Promise<void> {
  try {
    await run(...asPostgresArgv(command, args), { cwd: tmpdir() });
  } catch (err) {
    const e = err as Error & { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

/** Gives the directory to the `postgres` user (root only; otherwise the caller owns it already). */
function chownToPostgres(dir: string): void {
  if (userInfo().uid !== 0) return;
  const id = spawnSync('id', ['-u', PG_USER], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', PG_USER], { encoding: 'utf8' });
  chownSync(dir, Number(id.stdout.trim()), Number(gid.stdout.trim()));
}
