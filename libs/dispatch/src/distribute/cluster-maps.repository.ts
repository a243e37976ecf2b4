import { randomBytes } from 'node:crypto';
import { query, Queryable, queryOne, ShareTokensRepository, SQL_NOW_MS } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ClusterPreview } from '../cluster';

/** How long a distributejobs map preview stays readable: 7 days, ms (CONTRACTS.md "Dispatch"). */
export const CLUSTER_MAP_TTL_MS = 7 * 24 * 3600 * 1000;

/** A map token as we issue them: 128 random bits in hex. */
export const CLUSTER_MAP_TOKEN = /^[0-9a-f]{32}$/;

/** A stored map preview: the SVG, and the regions the preview page draws (null: stored before they were kept). */
export interface StoredClusterMap {
  svg: string;
  regions: ClusterPreview | null;
}

/**
 * distributejobs' map previews in `cluster_maps`: the SVG and the page's regions (positions only)
 * under a random 128-bit token (not an id), 7 days. Expired maps are never answered, and are purged
 * whenever a new one is stored (the index on `expires_at` makes that a range delete). `cluster_maps`
 * is per-company (primary key `(company_id, token)`); the token is unique across the platform through
 * the global lookup `share_tokens` (kind `cluster`, {@link ShareTokensRepository}), written and
 * deleted with the map in the same transaction; a page finds the company there first.
 */
@Injectable()
export class ClusterMapsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly shareTokens: ShareTokensRepository,
  ) {}

  /**
   * Stores `svg` and `regions` for the company in the caller's transaction `db` (with the token's
   * `share_tokens` row) and purges expired maps (with theirs).
   * @returns the new token.
   */
  async store(db: Queryable, companyId: string, svg: string, regions: ClusterPreview): Promise<string> {
    const token = randomBytes(16).toString('hex');
    const expired = await query<{ token: string }>(db, `DELETE FROM cluster_maps WHERE expires_at < ${SQL_NOW_MS} RETURNING token`);
    await this.shareTokens.delete(
      db,
      'cluster',
      expired.map((m) => m.token),
    );
    await this.shareTokens.insert(db, token, companyId, 'cluster');
    await query(
      db,
      `INSERT INTO cluster_maps (token, company_id, svg, regions, created_at, expires_at)
       VALUES ($1, $2, $3, $5::jsonb, ${SQL_NOW_MS}, ${SQL_NOW_MS} + $4::bigint)`,
      [token, companyId, svg, CLUSTER_MAP_TTL_MS, JSON.stringify(regions)],
    );
    return token;
  }

  /** The SVG of a live token, or null (unknown, malformed or expired). */
  async svg(token: string): Promise<string | null> {
    return (await this.map(token, false))?.svg ?? null;
  }

  /**
   * The SVG and regions of a live token, or null (unknown, malformed or expired): the company from
   * `share_tokens`, then the map by `(company_id, token)`.
   */
  async map(token: string, withRegions = true): Promise<StoredClusterMap | null> {
    if (!CLUSTER_MAP_TOKEN.test(token)) return null;
    const companyId = await this.shareTokens.companyOf(token, 'cluster', this.dataSource);
    if (companyId === undefined) return null;
    const row = await queryOne<StoredClusterMap>(
      this.dataSource,
      `SELECT svg, ${withRegions ? 'regions' : 'NULL AS regions'} FROM cluster_maps
        WHERE company_id = $1 AND token = $2 AND expires_at > ${SQL_NOW_MS}`,
      [companyId, token],
    );
    return row ?? null;
  }
}
