import { preparedQuery, query, SQL_NOW_MS } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** A key as `list` answers it: never the key or its hash. */
export interface ApiKeyListing {
  prefix: string;
  label: string;
  /** ms */
  createdAt: number;
  revokedAt: number | null;
}

/** What authenticating a key reads: the key's row, its member's and its company's. */
export interface ApiKeyAuthRow {
  key_hash: string;
  revoked_at: string | null;
  member_id: string;
  username: string;
  role: string;
  active_status: string;
  company_id: string;
  owner_member_id: string | null;
  timezone: string;
  workers_edit_job: boolean;
  workers_create_places: boolean;
  workers_view_places: boolean;
}

/**
 * The statement authenticating a key reads by its public prefix `$1` (one indexed row with its
 * member and company); exported so the getjobs bench's bare baseline runs the very same lookup.
 */
export const API_KEY_AUTH_SQL = `SELECT k.key_hash, k.revoked_at, m.id AS member_id, m.username, m.role, m.active_status,
              c.id AS company_id, c.owner_member_id, c.timezone,
              c.workers_edit_job, c.workers_create_places, c.workers_view_places
         FROM api_keys k
         JOIN members m ON m.id = k.member_id
         JOIN companies c ON c.id = k.company_id
        WHERE k.prefix = $1`;

/**
 * Every SQL statement on the `api_keys` table, one method per purpose. A key is found by its public
 * prefix (unique); the rest of the key is only ever compared as its HMAC (`key_hash`). Revocation
 * stamps `revoked_at` with the database's clock (`SQL_NOW_MS`, ms).
 */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Inserts a live key of `memberId` (created now). */
  async insert(
    key: { id: string; prefix: string; keyHash: string; companyId: string; memberId: string; label: string },
    db: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await query(
      db,
      `INSERT INTO api_keys (id, prefix, key_hash, company_id, member_id, label, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, ${SQL_NOW_MS})`,
      [key.id, key.prefix, key.keyHash, key.companyId, key.memberId, key.label],
    );
  }

  /** Revokes the live key with this prefix. @returns false when no live key has it. */
  async revokeByPrefix(prefix: string): Promise<boolean> {
    const res: [unknown[], number] = await this.dataSource.query(
      `UPDATE api_keys SET revoked_at = ${SQL_NOW_MS} WHERE prefix = $1 AND revoked_at IS NULL`,
      [prefix],
    );
    return res[1] > 0;
  }

  /** Revokes every live key of a member, in the caller's transaction. */
  async revokeAllOf(db: EntityManager, memberId: string): Promise<void> {
    await query(db, `UPDATE api_keys SET revoked_at = ${SQL_NOW_MS} WHERE member_id = $1 AND revoked_at IS NULL`, [memberId]);
  }

  /** The keys of the member with this username (case-insensitive), newest first (then by prefix). */
  listByUsername(username: string): Promise<ApiKeyListing[]> {
    return query<ApiKeyListing>(
      this.dataSource,
      `SELECT k.prefix, k.label, k.created_at::float8 AS "createdAt", k.revoked_at::float8 AS "revokedAt"
         FROM api_keys k JOIN members m ON m.id = k.member_id
        WHERE lower(m.username) = lower($1)
        ORDER BY k.created_at DESC, k.prefix`,
      [username],
    );
  }

  /**
   * The key with this prefix, with its member and company (revoked keys and deactivated members
   * too: the caller decides); undefined for an unknown prefix. Every request runs it: a named
   * prepared statement, planned once per connection.
   */
  async authRowByPrefix(prefix: string): Promise<ApiKeyAuthRow | undefined> {
    const rows = await preparedQuery<ApiKeyAuthRow>(
      this.dataSource,
      'fieldwork_authenticate',
      API_KEY_AUTH_SQL,
      [prefix],
    );
    return rows[0];
  }
}
