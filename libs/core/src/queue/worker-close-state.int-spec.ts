import { RedisProcess, startRedisServer } from '@test/support/proc-child';
import { Queue, Worker } from 'bullmq';
import { redisConnectionOptions } from '../redis/redis-factory';
import { workerCloseState } from './worker-close-state';

/**
 * workerCloseState against a real BullMQ worker on a private redis-server: it pins the BullMQ and
 * ioredis fields the shutdown trace reads (an upgrade that renames one turns its part into `?`, and
 * these tests fail).
 */
describe('workerCloseState: what a closing BullMQ worker waits on, read from BullMQ itself', () => {
  let redis: RedisProcess;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.child.stop('SIGKILL');
  });

  it('a task in hand, then closing (the task holds the close), then closed', async () => {
    const connection = redisConnectionOptions(redis.url);
    const queue = new Queue('close-state', { connection });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const worker = new Worker(
      'close-state',
      async () => {
        started();
        await held;
      },
      { connection, concurrency: 1 },
    );
    worker.on('error', () => undefined);
    try {
      await worker.waitUntilReady();
      await queue.add('t', {});
      await running;
      expect(workerCloseState(worker)).toBe('loop: 1 pending; blocking: ready (ioredis ready); main: ready (ioredis ready)');

      const closing = worker.close();
      await new Promise((r) => setTimeout(r, 200));
      // the blocking connection was cut (its fetch interrupted); the task still holds the loop
      expect(workerCloseState(worker)).toMatch(
        /^loop: 1 pending; blocking: ready \(ioredis (end|close|reconnecting)\); main: ready \(ioredis ready\)$/,
      );

      release();
      await closing;
      expect(workerCloseState(worker)).toBe('closed');
    } finally {
      release();
      await worker.close();
      await queue.close();
    }
  });

  it('anything but a BullMQ worker reads as unknown, never throws', () => {
    expect(workerCloseState({})).toBe('loop: ? pending; blocking: none; main: none');
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('no');
        },
      },
    );
    expect(workerCloseState(hostile)).toBe('loop: ? pending; blocking: none; main: none');
  });
});
