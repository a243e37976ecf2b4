import { ShareTokensRepository } from '@app/core';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createIntCompany, openIntegrationDb } from '@test/support/integration';
import type { ClusterPreview } from '../cluster';
import { CLUSTER_MAP_TOKEN, CLUSTER_MAP_TTL_MS, ClusterMapsRepository } from './cluster-maps.repository';

describe('ClusterMapsRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: ClusterMapsRepository;
  let a: string;
  let b: string;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new ClusterMapsRepository(ds, new ShareTokensRepository(ds));
    a = (await createIntCompany(ds)).companyId;
    b = (await createIntCompany(ds)).companyId;
  });
  afterAll(() => ds.destroy());

  const preview: ClusterPreview = { v: 1, regions: [{ points: [[46.05, 14.5]], centre: [46.05, 14.5], hull: [[46.05, 14.5]] }] };
  /** A map row written directly (an SVG, no regions, created at 1), with its token's `share_tokens` row. */
  const mapRow = (token: string, companyId: string, expiresAt: number) =>
    ds.query(
      `WITH s AS (INSERT INTO share_tokens (token, company_id, kind) VALUES ($1, $2, 'cluster'))
       INSERT INTO cluster_maps (token, company_id, svg, created_at, expires_at) VALUES ($1, $2, '<svg/>', 1, $3)`,
      [token, companyId, expiresAt],
    );

  it('stores a map under a fresh 128-bit token for the company, readable for 7 days', async () => {
    const token = await repo.store(ds, a, '<svg>a</svg>', preview);
    expect(token).toMatch(CLUSTER_MAP_TOKEN);
    expect(await repo.svg(token)).toBe('<svg>a</svg>');
    const [row] = await ds.query(`SELECT company_id, (expires_at - created_at)::float8 AS ttl FROM cluster_maps WHERE token = $1`, [token]);
    expect(row).toEqual({ company_id: a, ttl: CLUSTER_MAP_TTL_MS });
    expect(await ds.query(`SELECT company_id, kind FROM share_tokens WHERE token = $1`, [token])).toEqual([
      { company_id: a, kind: 'cluster' },
    ]);
    expect(await repo.store(ds, a, '<svg>a</svg>', preview)).not.toBe(token);
  });

  it('keeps the preview page’s regions beside the SVG; a map stored before regions were kept answers them as null', async () => {
    const token = await repo.store(ds, a, '<svg>r</svg>', preview);
    expect(await repo.map(token)).toEqual({ svg: '<svg>r</svg>', regions: preview });
    const old = randomBytes(16).toString('hex');
    await mapRow(old, a, 9e15);
    expect(await repo.map(old)).toEqual({ svg: '<svg/>', regions: null });
    expect(await repo.map('0'.repeat(32))).toBeNull();
  });

  it('answers null for unknown, malformed and expired tokens', async () => {
    expect(await repo.svg('0'.repeat(32))).toBeNull();
    expect(await repo.svg("' OR 1=1 --")).toBeNull();
    const expired = 'e'.repeat(31) + '1';
    await mapRow(expired, b, 2);
    expect(await repo.svg(expired)).toBeNull();
  });

  it('purges expired maps (any company) when storing, never live ones', async () => {
    const expired = 'e'.repeat(31) + '2';
    await mapRow(expired, b, 2);
    const live = await repo.store(ds, b, '<svg>b</svg>', preview);
    await ds.transaction((db) => repo.store(db, a, '<svg>in a transaction</svg>', preview));
    expect(await ds.query(`SELECT token FROM cluster_maps WHERE token = $1`, [expired])).toEqual([]);
    expect(await ds.query(`SELECT token FROM share_tokens WHERE token = $1`, [expired])).toEqual([]);
    expect(await repo.svg(live)).toBe('<svg>b</svg>');
  });

  it('finds a map through share_tokens only: a map row without its lookup row, or under a track token, is not answered', async () => {
    const orphan = randomBytes(16).toString('hex');
    await ds.query(`INSERT INTO cluster_maps (token, company_id, svg, created_at, expires_at) VALUES ($1, $2, '<svg/>', 1, 9e15)`, [
      orphan,
      a,
    ]);
    expect(await repo.svg(orphan)).toBeNull();
    await ds.query(`INSERT INTO share_tokens (token, company_id, kind) VALUES ($1, $2, 'track')`, [orphan, a]);
    expect(await repo.svg(orphan)).toBeNull();
    await ds.query(`UPDATE share_tokens SET kind = 'cluster' WHERE token = $1`, [orphan]);
    expect(await repo.svg(orphan)).toBe('<svg/>');
  });

  it('stores nothing when the map row fails after its lookup row: one transaction', async () => {
    const before = Number((await ds.query(`SELECT count(*) AS n FROM share_tokens WHERE company_id = $1`, [b]))[0].n);
    // a NUL character is refused by PostgreSQL text: the cluster_maps insert fails after the share_tokens one
    await expect(ds.transaction((db) => repo.store(db, b, '<svg>\u0000</svg>', preview))).rejects.toThrow();
    expect(Number((await ds.query(`SELECT count(*) AS n FROM share_tokens WHERE company_id = $1`, [b]))[0].n)).toBe(before);
  });
});
