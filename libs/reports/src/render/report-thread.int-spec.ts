import { createServer } from 'node:net';
import { loadConfig, newId } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, createIntPlace, openIntegrationDb } from '@test/support/integration';
import type { RenderJob } from '../report-run';
import { reportThreadTask } from './report-thread';

/** A loopback port nobody listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/**
 * A report thread's routing against PostgreSQL (docs/scaling.md, "Read replica"): with a replica that
 * cannot serve — nobody listening, or a server that is not a standby — the render reads the primary
 * and answers the same file; without a position it never asks the replica. The replica that does
 * serve is shown end to end by test/platform/read-replica.e2e-spec.ts.
 */
describe('report thread: the replica or the primary (PostgreSQL)', () => {
  let ds: DataSource;
  let job: Omit<RenderJob, 'runId'>;
  let lsn: string;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    const { companyId, ownerId } = await createIntCompany(ds);
    const place = await createIntPlace(ds, companyId, { name: 'Depot' });
    job = { companyId, memberId: ownerId, params: { type: 'places', format: 'csv', memberIds: [], placeIds: [place] } };
    [{ lsn }] = await ds.query(`SELECT pg_current_wal_insert_lsn()::text AS lsn`);
  });
  afterAll(() => ds.destroy());

  const primaryUrl = () => loadConfig().DATABASE_URL;

  it.each([
    ['nobody listening', async () => `postgres://postgres@127.0.0.1:${await closedPort()}/fieldwork`],
    ['a server that is not a standby', async () => primaryUrl()],
  ])('a replica that cannot serve (%s): read from the primary, the same file', async (_what, replicaUrl) => {
    const plain = reportThreadTask({ databaseUrl: primaryUrl(), nice: 0 });
    const routed = reportThreadTask({ databaseUrl: primaryUrl(), replicaUrl: await replicaUrl(), nice: 0 });
    try {
      const expected = await plain({ ...job, runId: newId(), readLsn: lsn });
      const answer = await routed({ ...job, runId: newId(), readLsn: lsn });
      expect(answer).toEqual({ outcome: { size: expect.any(Number), chunks: 1, rows: 1 }, readFrom: 'primary' });
      expect(answer).toEqual(expected);
    } finally {
      await Promise.all([plain.close(), routed.close()]);
    }
  });

  it('a run without a position reads the primary without asking the replica', async () => {
    // a "replica" that counts connections and never answers
    let connections = 0;
    const silent = createServer((socket) => {
      connections += 1;
      socket.on('error', () => undefined);
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const { port } = silent.address() as { port: number };
    const routed = reportThreadTask({ databaseUrl: primaryUrl(), replicaUrl: `postgres://postgres@127.0.0.1:${port}/fieldwork`, nice: 0 });
    try {
      expect(await routed({ ...job, runId: newId(), readLsn: null })).toMatchObject({ readFrom: 'primary', outcome: { rows: 1 } });
      expect(connections).toBe(0);
    } finally {
      await routed.close();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });
});
