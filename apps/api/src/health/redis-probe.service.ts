import { AppConfig, clusterState, ClusterState, createRedis, RedisClient } from '@app/core';
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import Redis, { Cluster } from 'ioredis';

/** ms a probe may take before Redis is reported down. */
const PROBE_TIMEOUT_MS = 1000;

/** Redis' state in `/health/ready`: `up` with the ping's round trip, or `down` with the reason; on Redis Cluster also the cluster's own view. */
export type RedisState =
  { status: 'up'; pingMs: number; cluster?: ClusterState } | { status: 'down'; error: string; cluster?: ClusterState };

/**
 * Reports Redis' state for readiness: its own connection (the factory's `health-probe`: never queues
 * commands while disconnected), so a probe answers at once during a Redis outage. One server: a
 * `PING`. Redis Cluster: `PING`, `CLUSTER INFO` and `CLUSTER NODES` on a master this client is
 * connected to; `up` only while the cluster's state is `ok` (every slot served), and the masters as
 * that node sees them.
 */
@Injectable()
export class RedisProbe implements OnModuleDestroy {
  private readonly client: RedisClient;

  constructor(config: AppConfig) {
    this.client = createRedis(config, 'health-probe');
    this.client.on('error', () => undefined); // state is read from the probe; errors are expected during outages
  }

  async state(): Promise<RedisState> {
    const start = Date.now();
    try {
      if (!(this.client instanceof Cluster)) {
        await within(this.client.ping());
        return { status: 'up', pingMs: Date.now() - start };
      }
      const node = await readyMaster(this.client);
      if (!node) return { status: 'down', error: `no master reachable (cluster client ${this.client.status})` };
      const [, info, nodes] = await within(Promise.all([node.ping(), node.cluster('INFO'), node.cluster('NODES')]));
      const cluster = clusterState(String(info), String(nodes));
      return cluster.state === 'ok'
        ? { status: 'up', pingMs: Date.now() - start, cluster }
        : { status: 'down', error: `cluster_state:${cluster.state}`, cluster };
    } catch (err) {
      return { status: 'down', error: (err as Error).message };
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.client.disconnect();
  }
}

/** Cluster client states on the way to `ready` (connected to a node, slots or ready check pending). */
const CONNECTING = new Set(['connecting', 'connect']);

/**
 * A master node `client` is connected to; while the client is still connecting (just started, or
 * reconnected) waits for one, polling every 20 ms, up to {@link PROBE_TIMEOUT_MS}: a probe at that
 * moment reported Redis down for a cluster that was fine. Undefined when there is none.
 */
export async function readyMaster(client: Cluster, timeoutMs = PROBE_TIMEOUT_MS): Promise<Redis | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const node = client.nodes('master').find((n) => n.status === 'ready');
    if (node || !CONNECTING.has(client.status) || Date.now() >= deadline) return node;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `work`, or a rejection after {@link PROBE_TIMEOUT_MS}. */
function within<T>(work: Promise<T>): Promise<T> {
  return Promise.race([
    work,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('ping timed out')), PROBE_TIMEOUT_MS).unref()),
  ]);
}
