import { AddressInfo, createServer, Socket } from 'node:net';
import { RedisProcess, startRedisServer } from '@test/support/proc-child';
import { settlesWithin } from '@test/support/settles';
import { Queue, Worker } from 'bullmq';
import { redisConnectionOptions } from '../redis/redis-factory';
import { redisReachable } from '../redis/redis-reachable';
import { buildBullMqClientsClosable, cutBullMqClients } from './bullmq-clients';

/**
 * A worker's shutdown with its one Redis server gone (a private redis-server, SIGKILLed): a task in
 * hand whose completion was sent after Redis went away keeps `Worker.close()` waiting for ever, and
 * cutting the clients BullMQ built ends it. `redisReachable` tells a live server from a dead or a
 * silent one, within its bound.
 */
describe('a shutdown with Redis unreachable (one server)', () => {
  let redis: RedisProcess;
  beforeAll(async () => {
    buildBullMqClientsClosable();
    redis = await startRedisServer();
  }, 30_000);
  afterAll(async () => redis?.child.stop('SIGKILL'));

  const config = () => ({ REDIS_URL: redis.url, REDIS_CLUSTER_NODES: undefined });

  it('redisReachable: true while the server answers, false for a silent server and for a dead one, each within its bound', async () => {
    expect(await redisReachable(config())).toBe(true);

    // a server that accepts connections and never answers
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket.resume()));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const started = Date.now();
      expect(
        await redisReachable(
          { REDIS_URL: `redis://127.0.0.1:${(silent.address() as AddressInfo).port}`, REDIS_CLUSTER_NODES: undefined },
          undefined,
          300,
        ),
      ).toBe(false);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      sockets.forEach((s) => s.destroy());
      await new Promise((resolve) => silent.close(resolve));
    }
    // nothing listening (port 1)
    expect(await redisReachable({ REDIS_URL: 'redis://127.0.0.1:1', REDIS_CLUSTER_NODES: undefined }, undefined, 300)).toBe(false);
  });

  it('a task in hand when Redis dies: Worker.close() waits for ever on its completion; cutBullMqClients() ends it', async () => {
    const name = `cut-at-shutdown-${process.pid}`;
    const connection = redisConnectionOptions(redis.url);
    const queue = new Queue(name, { connection });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const inHand = new Promise<void>((resolve) => (started = resolve));
    const worker = new Worker(
      name,
      async () => {
        started();
        await released;
        return 'done';
      },
      { connection, lockDuration: 5_000 },
    );
    worker.on('error', () => undefined);
    queue.on('error', () => undefined);
    await queue.add('task', {});
    await inHand;

    await redis.child.stop('SIGKILL');
    expect(await redisReachable(config(), undefined, 300)).toBe(false);
    release(); // the task ends; its completion goes to a Redis that is gone
    const closing = worker.close();
    expect(await settlesWithin(closing, 2_000)).toBe(false); // what a shutdown used to do until SIGKILL

    expect(cutBullMqClients()).toBeGreaterThanOrEqual(2); // the worker's two connections, the queue's
    expect(await settlesWithin(closing, 3_000)).toBe(true);
    expect(await settlesWithin(queue.close(), 3_000)).toBe(true);
  }, 30_000);
});
