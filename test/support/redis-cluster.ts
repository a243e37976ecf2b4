import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { Child, childEnv, freePort, redisPing, waitFor } from './proc-child';

/**
 * A private, throw-away Redis Cluster of `masters` masters (no replicas, no persistence) from
 * Debian's `redis-server` and `redis-cli`, on loopback ports where the port AND port + 10000 (the
 * cluster bus) are free. Never the machine's shared Redis: each node is a child of this process,
 * stopped by its pid. Used by the Redis Cluster e2e test and `BENCH_ONLY=cluster`.
 */
export class RedisClusterProcess {
  /** the node children by port */
  readonly nodes = new Map<number, Child>();

  private constructor(
    /** the nodes' ports, in creation order */
    readonly ports: number[],
    /** holds each node's `nodes-<port>.conf` (its identity and slots survive a restart) */
    readonly dir: string,
  ) {}

  /** `REDIS_CLUSTER_NODES` for this cluster: every node, `127.0.0.1:<port>`, comma-separated. */
  get nodesEnv(): string {
    return this.ports.map((p) => `127.0.0.1:${p}`).join(',');
  }

  /**
   * Starts `masters` nodes, joins them with `redis-cli --cluster create … --cluster-yes` (the slots
   * split evenly) and waits until every node reports `cluster_state:ok`.
   * @throws with the nodes' output when a node does not start or the cluster does not form in time.
   */
  static async start({ masters = 3, timeoutMs = 20_000 }: { masters?: number; timeoutMs?: number } = {}): Promise<RedisClusterProcess> {
    const ports: number[] = [];
    while (ports.length < masters) {
      const port = await freePort();
      if (port + 10_000 <= 65_535 && (await portFree(port + 10_000))) ports.push(port);
    }
    const cluster = new RedisClusterProcess(ports, mkdtempSync(join(tmpdir(), 'fieldwork-redis-cluster-')));
    try {
      await Promise.all(ports.map((p) => cluster.startNode(p)));
      const created = spawnSync('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-yes'], {
        encoding: 'utf8',
        timeout: timeoutMs,
      });
      if (created.status !== 0)
        throw new Error(`redis-cli --cluster create exited ${created.status}:\n${created.stdout}\n${created.stderr}`);
      await cluster.waitOk(timeoutMs);
    } catch (err) {
      await cluster.stop();
      throw new Error(`could not start a Redis Cluster on ${ports.join(', ')}: ${(err as Error).message}`);
    }
    return cluster;
  }

  /** Waits until every running node reports `cluster_state:ok` (all 16,384 slots served). */
  async waitOk(timeoutMs = 20_000): Promise<void> {
    await waitFor(
      'cluster_state:ok on every node',
      async () => {
        for (const port of this.ports) {
          const info = await this.command(port, ['CLUSTER', 'INFO']);
          if (!/^cluster_state:ok/m.test(String(info))) return false;
        }
        return true;
      },
      { timeoutMs, intervalMs: 100 },
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${this.output()}`);
    });
  }

  /** The port of the master serving `key`'s hash slot (`CLUSTER KEYSLOT`, then `CLUSTER SLOTS`). */
  async masterOf(key: string): Promise<number> {
    const slot = Number(await this.command(this.ports[0], ['CLUSTER', 'KEYSLOT', key]));
    const ranges = (await this.command(this.ports[0], ['CLUSTER', 'SLOTS'])) as Array<[number, number, [string, number]]>;
    const range = ranges.find(([from, to]) => slot >= from && slot <= to);
    if (!range) throw new Error(`no master serves slot ${slot} of ${key}`);
    return Number(range[2][1]);
  }

  /**
   * Kills the node on `port` (SIGKILL: a crash), keeps it down `downMs`, and starts it again on the
   * same port with its `nodes-<port>.conf`: it comes back as the same master of the same slots, EMPTY
   * (no persistence). Resolves when the cluster is `ok` again.
   */
  async restart(port: number, downMs = 0): Promise<void> {
    await this.kill(port);
    if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
    await this.revive([port]);
  }

  /** Kills the node on `port` (SIGKILL: a crash) and leaves it down; {@link revive} starts it again. */
  async kill(port: number): Promise<void> {
    const node = this.nodes.get(port);
    if (!node) throw new Error(`no node on ${port}`);
    await node.stop('SIGKILL');
  }

  /**
   * Starts the nodes on `ports` again (killed by {@link kill}), each with its `nodes-<port>.conf`: the
   * same masters of the same slots, EMPTY. Resolves when the cluster is `ok` again.
   */
  async revive(ports: number[]): Promise<void> {
    await Promise.all(ports.map((port) => this.startNode(port)));
    await this.waitOk();
  }

  /** Stops every node (SIGTERM, SIGKILL after 5 s) and removes the directory. */
  async stop(): Promise<void> {
    await Promise.all([...this.nodes.values()].map((c) => c.stop('SIGTERM', 5_000).catch(() => undefined)));
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The nodes' captured output, for failure messages. */
  output(): string {
    return [...this.nodes.values()].map((c) => c.output()).join('\n');
  }

  /** One command to one node over a short-lived plain (non-cluster) client. */
  async command(port: number, args: string[]): Promise<unknown> {
    const redis = new Redis({
      host: '127.0.0.1',
      port,
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      return await redis.call(args[0], ...args.slice(1));
    } finally {
      redis.disconnect();
    }
  }

  private async startNode(port: number): Promise<void> {
    const child = new Child(
      `redis-cluster:${port}`,
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(this.dir, `nodes-${port}.conf`),
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        this.dir,
        '--loglevel',
        'warning',
      ],
      childEnv(),
    );
    this.nodes.set(port, child);
    await waitFor(
      `redis-server (cluster node) on :${port}`,
      async () => {
        if (!child.running) throw new Error(`redis-server exited: ${JSON.stringify(child.exit)}\n${child.output()}`);
        return redisPing(port);
      },
      { timeoutMs: 10_000, intervalMs: 50 },
    );
  }
}

/** Whether a loopback port can be bound right now. */
function portFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) =>
    server.once('error', () => resolve(false)).listen(port, '127.0.0.1', () => server.close(() => resolve(true))),
  );
}
