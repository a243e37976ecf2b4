import Redis from 'ioredis';
import { AddressInfo, createServer, Socket } from 'node:net';
import { closeRedis, createRedis } from './redis-factory';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('closeRedis (real Redis)', () => {
  it('lets a command already sent finish before the connection closes (a plain disconnect would fail it)', async () => {
    const client = createRedis({ REDIS_URL, REDIS_CLUSTER_NODES: undefined }, 'queue-worker');
    await client.ping();
    // BLPOP on an empty key answers after its timeout (0.3 s): in flight while we close
    const inFlight = client.blpop(`close-redis-spec:${process.pid}:${Date.now()}`, 0.3);
    const started = Date.now();
    await closeRedis(client, 2_000);
    await expect(inFlight).resolves.toBeNull();
    expect(client.status).toBe('end');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('gives up within its bound when Redis does not answer, cuts the connection and never throws', async () => {
    // a server that accepts connections and never answers: the QUIT would wait for ever
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket.resume())); // reads (and drops) what it is sent
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const client = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: null, enableReadyCheck: false });
      client.on('error', () => undefined);
      await new Promise((resolve) => client.once('connect', resolve));
      const unanswered = client.get('close-redis-spec').catch((err: Error) => err.message);
      const started = Date.now();
      await closeRedis(client, 300);
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(290);
      expect(took).toBeLessThan(2_000);
      expect(client.status).toBe('end');
      await expect(unanswered).resolves.toMatch(/Connection is closed/);
    } finally {
      sockets.forEach((s) => s.destroy());
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
