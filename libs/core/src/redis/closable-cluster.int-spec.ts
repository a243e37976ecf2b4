import { RedisClusterProcess } from '@test/support/redis-cluster';
import { settlesWithin, statusReached } from '@test/support/settles';
import { Worker } from 'bullmq';
import { Cluster, ClusterOptions } from 'ioredis';
import { ClosableCluster } from './closable-cluster';
import { isClosedConnectionError } from '../queue/queue.module';
import { redisClusterOptions } from './redis-factory';

/** Port 1 on loopback: nothing listens there, so a cluster seeded with it never gets a node. */
const NOWHERE = [{ host: '127.0.0.1', port: 1 }];
const RETRY: ClusterOptions = { clusterRetryStrategy: () => 100, lazyConnect: false };

describe('ClosableCluster: a disconnect always ends (redis/ioredis#352)', () => {
  it("ioredis' own Cluster, reconnecting with no node, never ends after disconnect() (the behaviour worked around: when this fails, ioredis fixed it)", async () => {
    const plain = new Cluster(NOWHERE, RETRY);
    plain.on('error', () => undefined);
    await statusReached(plain, 'reconnecting');
    expect(plain.nodes('all')).toHaveLength(0);
    const ended = new Promise((resolve) => plain.once('end', resolve));
    plain.disconnect(); // also cancels its reconnection timer: nothing is left running
    expect(await settlesWithin(ended, 1_000)).toBe(false);
    expect(plain.status).toBe('disconnecting');
  });

  it('reconnecting with no node: disconnect() ends it (status end, the end event) and it stays ended', async () => {
    const cluster = new ClosableCluster(NOWHERE, RETRY);
    cluster.on('error', () => undefined);
    await statusReached(cluster, 'reconnecting');
    const ended = new Promise((resolve) => cluster.once('end', resolve));
    cluster.disconnect();
    expect(await settlesWithin(ended, 1_000)).toBe(true);
    expect(cluster.status).toBe('end');
    await new Promise((r) => setTimeout(r, 300)); // longer than the retry delay: no reconnection follows
    expect(cluster.status).toBe('end');
  });

  it('a command waiting in the offline queue is failed by the disconnect, not left pending', async () => {
    const cluster = new ClosableCluster(NOWHERE, RETRY);
    cluster.on('error', () => undefined);
    await statusReached(cluster, 'reconnecting');
    const queued = cluster.get('k').then(
      () => 'answered',
      (err: Error) => err.message,
    );
    cluster.disconnect();
    expect(await queued).toMatch(/None of startup nodes is available|Connection is closed/);
  });

  it('disconnect(true) is left as ioredis has it (a reconnection, not an end)', async () => {
    const cluster = new ClosableCluster(NOWHERE, RETRY);
    cluster.on('error', () => undefined);
    await statusReached(cluster, 'reconnecting');
    cluster.disconnect(true);
    await new Promise((r) => setTimeout(r, 50));
    expect(cluster.status).not.toBe('end');
    cluster.disconnect();
    await statusReached(cluster, 'end', 1_000);
  });

  it("a drain of the old nodes during the connect that follows a disconnect (BullMQ's recovery) is left as ioredis has it", async () => {
    const run = async (Class: typeof Cluster) => {
      const cluster = new Class(NOWHERE, { ...RETRY, lazyConnect: true });
      cluster.on('error', () => undefined);
      cluster.disconnect(); // never connected: ioredis ends it itself
      await new Promise((r) => setTimeout(r, 10));
      const seen: string[] = [];
      for (const event of ['close', 'end', 'reconnecting', 'connecting']) cluster.on(event, () => seen.push(event));
      cluster.connect().catch(() => undefined);
      // the old pool's last node ending now, as ioredis' drain listener sees it: status close
      (cluster as unknown as { connectionPool: { emit(event: string): void } }).connectionPool.emit('drain');
      await new Promise((r) => setTimeout(r, 30));
      const result = { seen: [...seen], status: cluster.status };
      cluster.disconnect(); // cancels any reconnection (ioredis' own Cluster may not reach end: above)
      return result;
    };
    const ours = await run(ClosableCluster);
    expect(ours).toEqual(await run(Cluster));
    expect(ours.seen.length).toBeGreaterThan(0);
  });

  it('duplicate() gives a ClosableCluster with the same startup nodes and options, overrides laid over them', async () => {
    const cluster = new ClosableCluster(NOWHERE, { ...RETRY, lazyConnect: true, slotsRefreshTimeout: 1234 });
    const copy = cluster.duplicate(undefined, { redisOptions: { connectionName: 'copy' } });
    try {
      expect(copy).toBeInstanceOf(ClosableCluster);
      expect(copy.options.slotsRefreshTimeout).toBe(1234);
      expect(copy.options.redisOptions?.connectionName).toBe('copy');
      expect((copy as unknown as { startupNodes: unknown }).startupNodes).toEqual(NOWHERE);
    } finally {
      cluster.disconnect();
      copy.disconnect();
    }
  });

  describe('on a real 3-master cluster', () => {
    let redis: RedisClusterProcess;
    beforeAll(async () => {
      redis = await RedisClusterProcess.start();
    }, 60_000);
    afterAll(async () => redis?.stop());

    const options = () => redisClusterOptions({ REDIS_URL: 'redis://127.0.0.1:6379' }, 'queue-worker');
    const seeds = () => redis.ports.map((port) => ({ host: '127.0.0.1', port }));

    /**
     * Makes the cluster's ready checks report what a master restarted less than 2 s ago reports
     * (`cluster_state:fail`, Redis' CLUSTER_WRITABLE_DELAY): the next one only, or every one.
     */
    function failReadyChecks(cluster: Cluster, every = false): void {
      type ReadyCheck = (callback: (err?: Error, fail?: string) => void) => void;
      const internals = cluster as unknown as { readyCheck: ReadyCheck };
      const own = internals.readyCheck.bind(cluster);
      let failed = false;
      internals.readyCheck = (callback) => {
        if (failed && !every) return own(callback);
        failed = true;
        callback(undefined, 'fail');
      };
    }

    it("ioredis' own Cluster: a connect() whose ready check fails never settles, though the cluster is ready soon after (redis/ioredis#741: when this fails, ioredis fixed it)", async () => {
      const plain = new Cluster(seeds(), { ...options(), lazyConnect: true });
      plain.on('error', () => undefined);
      failReadyChecks(plain);
      const connecting = plain.connect();
      try {
        await statusReached(plain, 'ready', 10_000); // its own reconnection, under another promise
        expect(await settlesWithin(connecting, 1_000)).toBe(false);
      } finally {
        plain.disconnect();
      }
    });

    it('a connect() whose ready check fails resolves once the cluster is ready (its own reconnection)', async () => {
      const cluster = new ClosableCluster(seeds(), { ...options(), lazyConnect: true });
      cluster.on('error', () => undefined);
      failReadyChecks(cluster);
      try {
        expect(await settlesWithin(cluster.connect(), 10_000)).toBe(true);
        expect(cluster.status).toBe('ready');
        expect(await cluster.set('closable-cluster-spec', '2')).toBe('OK');
      } finally {
        cluster.disconnect();
      }
    });

    it('a connect() that never gets ready is rejected by a disconnect() (Connection is closed.), not left pending', async () => {
      const cluster = new ClosableCluster(seeds(), { ...options(), lazyConnect: true });
      cluster.on('error', () => undefined);
      failReadyChecks(cluster, true);
      const connecting = cluster.connect().then(
        () => 'resolved',
        (err: Error) => err.message,
      );
      const listeners = cluster.listenerCount('ready') + cluster.listenerCount('end');
      try {
        await new Promise((r) => setTimeout(r, 1_500)); // ready checks failed, ioredis reconnecting each time
        expect(await settlesWithin(connecting, 0)).toBe(false);
        // every reconnection's connect() waits too, without a listener of its own
        expect(cluster.listenerCount('ready') + cluster.listenerCount('end')).toBe(listeners);
      } finally {
        cluster.disconnect();
      }
      expect(await settlesWithin(connecting, 2_000)).toBe(true);
      expect(await connecting).toBe('Connection is closed.');
      await statusReached(cluster, 'end');
    });

    it('connected: disconnect() ends it the usual way (its nodes end, then the cluster)', async () => {
      const cluster = new ClosableCluster(seeds(), options());
      cluster.on('error', () => undefined);
      await cluster.set('closable-cluster-spec', '1');
      const ended = new Promise((resolve) => cluster.once('end', resolve));
      cluster.disconnect();
      expect(await settlesWithin(ended, 2_000)).toBe(true);
      expect(cluster.status).toBe('end');
    });

    it('BullMQ Worker.close() finishes after the master of its queue restarted (it waited for ever: the blocking connection stopped at `close`)', async () => {
      for (const downMs of [300, 1_500]) {
        const connection = new ClosableCluster(seeds(), options());
        connection.on('error', () => undefined);
        const worker = new Worker('{closable-cluster-spec}', async () => undefined, { connection, prefix: '{closable-cluster-spec}' });
        worker.on('error', () => undefined);
        try {
          await worker.waitUntilReady();
          await new Promise((r) => setTimeout(r, 300)); // the worker blocks on its own duplicate
          await redis.restart(await redis.masterOf('{closable-cluster-spec}'), downMs);
          expect(await settlesWithin(worker.close(), 5_000)).toBe(true);
        } finally {
          connection.disconnect();
        }
        await statusReached(connection, 'end');
      }
    }, 60_000);

    it("disconnect() while the seed nodes' host names are still being resolved: it ends, the connect() is rejected, and no node is connected once the lookup answers", async () => {
      let answer: (() => void) | undefined;
      const lookups: string[] = [];
      const cluster = new ClosableCluster(
        redis.ports.map((port) => ({ host: 'cluster-seed.test', port })),
        {
          ...options(),
          lazyConnect: true,
          // a resolver that answers only when told (a slow DNS at start-up)
          dnsLookup: (hostname, callback) => {
            lookups.push(hostname);
            answer = () => callback(null, '127.0.0.1');
          },
        },
      );
      cluster.on('error', () => undefined);
      const connecting = cluster.connect().then(
        () => 'resolved',
        (err: Error) => err.message,
      );
      await new Promise((r) => setTimeout(r, 50));
      expect(lookups).toEqual(['cluster-seed.test']);
      expect(cluster.status).toBe('connecting');
      const ended = new Promise((resolve) => cluster.once('end', resolve));
      cluster.disconnect();
      expect(await settlesWithin(ended, 1_000)).toBe(true);
      answer!();
      expect(await settlesWithin(connecting, 1_000)).toBe(true);
      expect(await connecting).not.toBe('resolved');
      await new Promise((r) => setTimeout(r, 300));
      expect(cluster.status).toBe('end');
      expect(cluster.nodes('all')).toHaveLength(0);
    });

    describe('masters killed and left down', () => {
      afterEach(async () => {
        const down = redis.ports.filter((port) => !redis.nodes.get(port)?.running);
        if (down.length) await redis.revive(down);
      }, 30_000);

      /** A command sent to the key's master while it is down: queued on its node, which waits to reconnect. */
      async function queuedOnDeadNode(cluster: Cluster): Promise<{ queued: Promise<string> }> {
        expect(await cluster.set('{closable-cluster-down}', '1')).toBe('OK');
        const port = await redis.masterOf('{closable-cluster-down}');
        const node = cluster.nodes('all').find((n) => n.options.port === port)!;
        await redis.kill(port);
        await statusReached(node, 'reconnecting');
        const queued = cluster.get('{closable-cluster-down}').then(
          () => 'answered',
          (err: Error) => err.message,
        );
        return { queued };
      }

      it("ioredis' own Cluster: a command queued on a node waiting to reconnect is never answered or failed after disconnect() (the behaviour worked around: when this fails, ioredis fixed it)", async () => {
        const plain = new Cluster(seeds(), options());
        plain.on('error', () => undefined);
        const { queued } = await queuedOnDeadNode(plain);
        plain.disconnect();
        expect(await settlesWithin(queued, 1_000)).toBe(false);
      });

      it('a command queued on a node waiting to reconnect is failed by disconnect() (Connection is closed.), not left pending', async () => {
        const cluster = new ClosableCluster(seeds(), options());
        cluster.on('error', () => undefined);
        const { queued } = await queuedOnDeadNode(cluster);
        expect(await settlesWithin(queued, 300)).toBe(false); // waiting for the master, as it should
        cluster.disconnect();
        expect(await settlesWithin(queued, 1_000)).toBe(true);
        expect(isClosedConnectionError(new Error(await queued))).toBe(true);
        await statusReached(cluster, 'end');
      });

      it('BullMQ Worker.close() finishes while every master is down (its blocking read, sent again to a dead master, stayed pending for ever)', async () => {
        const connection = new ClosableCluster(seeds(), options());
        connection.on('error', () => undefined);
        const worker = new Worker('{closable-cluster-down}', async () => undefined, { connection, prefix: '{closable-cluster-down}' });
        worker.on('error', () => undefined);
        try {
          await worker.waitUntilReady();
          await new Promise((r) => setTimeout(r, 300)); // the worker blocks on its own duplicate
          await Promise.all(redis.ports.map((port) => redis.kill(port)));
          await new Promise((r) => setTimeout(r, 2_000)); // its connections notice and wait to reconnect
          expect(await settlesWithin(worker.close(), 5_000)).toBe(true);
        } finally {
          connection.disconnect();
        }
        await statusReached(connection, 'end');
      }, 30_000);
    });
  });
});
