import { RedisProcess, startRedisServer } from '@test/support/proc-child';
import { settlesWithin, statusReached } from '@test/support/settles';
import { RedisConnection, Worker } from 'bullmq';
import Redis from 'ioredis';
import { buildBullMqClientsClosable } from '../queue/bullmq-clients';
import { ClosableRedis } from './closable-redis';
import { redisConnectionOptions } from './redis-factory';

/** Port 1 on loopback: nothing listens there, so the client only ever waits to reconnect. */
const NOWHERE = { host: '127.0.0.1', port: 1, retryStrategy: () => 100 };

describe('ClosableRedis: a disconnect ends a client waiting to reconnect (redis/ioredis#1247)', () => {
  it("ioredis' own Redis, reconnecting, never ends after disconnect() (the behaviour worked around: when this fails, ioredis fixed it)", async () => {
    const plain = new Redis(NOWHERE);
    plain.on('error', () => undefined);
    await statusReached(plain, 'reconnecting');
    const ended = new Promise((resolve) => plain.once('end', resolve));
    plain.disconnect(); // cancels the reconnection timer: nothing is left running
    expect(await settlesWithin(ended, 1_000)).toBe(false);
    expect(plain.status).toBe('reconnecting');
  });

  it('reconnecting: disconnect() ends it (close, then end), fails the queued commands, and no reconnection follows', async () => {
    const client = new ClosableRedis({ ...NOWHERE, maxRetriesPerRequest: null });
    client.on('error', () => undefined);
    await statusReached(client, 'reconnecting');
    const queued = client.get('k').then(
      () => 'answered',
      (err: Error) => err.message,
    );
    const events: string[] = [];
    client.on('close', () => events.push('close'));
    const ended = new Promise((resolve) => client.once('end', resolve));
    client.disconnect();
    expect(await settlesWithin(ended, 1_000)).toBe(true);
    expect(events).toEqual(['close']);
    expect(await queued).toBe('Connection is closed.');
    await new Promise((r) => setTimeout(r, 300)); // past the retry delay
    expect(client.status).toBe('end');
  });

  it('disconnect(true) while reconnecting keeps reconnecting (only a manual close ends it)', async () => {
    const client = new ClosableRedis(NOWHERE);
    client.on('error', () => undefined);
    await statusReached(client, 'reconnecting');
    client.disconnect(true);
    expect(client.status).not.toBe('end');
    client.disconnect();
    await statusReached(client, 'end', 1_000);
  });

  it('duplicate() gives a ClosableRedis with the same options, the override laid over them', () => {
    const client = new ClosableRedis({ ...NOWHERE, lazyConnect: true, connectTimeout: 1234 });
    const copy = client.duplicate({ connectionName: 'copy' });
    expect(copy).toBeInstanceOf(ClosableRedis);
    expect(copy.options.connectTimeout).toBe(1234);
    expect(copy.options.connectionName).toBe('copy');
    expect(copy.options.port).toBe(1);
  });

  describe('on a private redis-server', () => {
    let redis: RedisProcess;
    beforeAll(async () => {
      redis = await startRedisServer();
    });
    afterAll(async () => {
      RedisConnection.clientFactory = undefined;
      await redis?.child.stop('SIGKILL');
    });

    it('connected: disconnect() ends it the usual way, one end event', async () => {
      const client = new ClosableRedis(redisConnectionOptions(redis.url));
      await client.ping();
      let ends = 0;
      client.on('end', () => (ends += 1));
      client.disconnect();
      await statusReached(client, 'end');
      await new Promise((r) => setTimeout(r, 100));
      expect(ends).toBe(1);
    });

    it('a BullMQ worker built from options (buildBullMqClientsClosable) finishes Worker.close() while Redis is down (it waited for ever)', async () => {
      buildBullMqClientsClosable();
      const worker = new Worker('closable-redis-spec', async () => undefined, { connection: redisConnectionOptions(redis.url) });
      worker.on('error', () => undefined);
      await worker.waitUntilReady();
      await new Promise((r) => setTimeout(r, 300)); // the worker blocks on its own connection
      await redis.child.stop('SIGKILL');
      await new Promise((r) => setTimeout(r, 1_000)); // its connections wait to reconnect
      expect(await settlesWithin(worker.close(), 5_000)).toBe(true);
    });
  });
});
