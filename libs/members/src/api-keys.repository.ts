import { preparedQuery, query, SQL_NOW_MS } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** The unique violation inserting a key raises when its prefix was issued before (any company's). */
export const PREFIX_TAKEN = 'PK_api_key_prefixes';

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
 * The statement authenticating a key reads by its public prefix `$1` (through the global lookup
 * `api_key_prefixes`, then the key's row with its member and company); exported so the getjobs
 * bench's bare baseline runs the very same lookup.
 */
export const API_KEY_AUTH_SQL = `SELECT k.key_hash, k.revoked_at, m.id AS member_id, m.username, m.role, m.active_status,
              c.id AS company_id, c.owner_member_id, c.timezone,
              c.workers_edit_job, c.workers_create_places, c.workers_view_places
         FROM api_key_prefixes p
         JOIN api_keys k ON k.company_id = p.company_id AND k.id = p.api_key_id
         JOIN members m ON m.company_id = k.company_id AND m.id = k.member_id
         JOIN companies c ON c.id = k.company_id
        WHERE p.prefix = $1`;

/**
 * Every SQL statement on the `api_keys` table and its global lookup table `api_key_prefixes`, one
 * method per purpose. `api_keys` is per-company (primary key `(company_id, id)`); a key's public
 * prefix is unique across the platform through `api_key_prefixes` (prefix → company_id, api_key_id;
 * primary key on the prefix), written in the same statement as the key. A key is found by its prefix
 * there first, then by `(company_id, id)`; the rest of the key is only ever compared as its HMAC
 * (`key_hash`). Revocation stamps `revoked_at` with the database's clock (`SQL_NOW_MS`, ms) and keeps
 * the prefix row: a revoked key is still listed and still answered as revoked, and its prefix is
 * never issued again.
 */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Inserts a live key of `memberId` (created now) with its `api_key_prefixes` row, in one statement
   * (so in one transaction, the caller's or its own).
   * @throws QueryFailedError unique violation {@link PREFIX_TAKEN} when the prefix was ever issued
   */
  async insert(
    key: { id: string; prefix: string; keyHash: string; companyId: string; memberId: string; label: string },
    db: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await query(
      db,
      `WITH lookup AS (INSERT INTO api_key_prefixes (prefix, company_id, api_key_id) VALUES ($2, $4, $1))
       INSERT INTO api_keys (id, prefix, key_hash, company_id, member_id, label, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, ${SQL_NOW_MS})`,
      [key.id, key.prefix, key.keyHash, key.companyId, key.memberId, key.label],
    );
  }

  /** Revokes the live key with this prefix (found through `api_key_prefixes`). @returns false when no live key has it. */
  async revokeByPrefix(prefix: string): Promise<boolean> {
    const res: [unknown[], number] = await this.dataSource.query(
      `UPDATE api_keys k SET revoked_at = ${SQL_NOW_MS} FROM api_key_prefixes p
        WHERE p.prefix = $1 AND k.company_id = p.company_id AND k.id = p.api_key_id AND k.revoked_at IS NULL`,
      [prefix],
    );
    return res[1] > 0;
  }

  /** Revokes every live key of the company's member, in the caller's transaction (prefix rows kept). */
  async revokeAllOf(db: EntityManager, companyId: string, memberId: string): Promise<void> {
    await query(db, `UPDATE api_keys SET revoked_at = ${SQL_NOW_MS} WHERE company_id = $1 AND member_id = $2 AND revoked_at IS NULL`, [
      companyId,
      memberId,
    ]);
  }

  /**
   * The keys of the member with this username (case-insensitive), newest first (then by prefix):
   * the member through `member_usernames`, its keys by `(company_id, member_id)`.
   */
  listByUsername(username: string): Promise<ApiKeyListing[]> {
    return query<ApiKeyListing>(
      this.dataSource,
      `SELECT k.prefix, k.label, k.created_at::float8 AS "createdAt", k.revoked_at::float8 AS "revokedAt"
         FROM member_usernames u JOIN api_keys k ON k.company_id = u.company_id AND k.member_id = u.member_id
        WHERE u.username = lower($1)
        ORDER BY k.created_at DESC, k.prefix`,
      [username],
    );
  }

  /**
   * The key with this prefix, with its member and company (revoked keys and deactivated members
   * too: the caller decides); undefined for an unknown prefix. One statement: `api_key_prefixes`
   * first, then the key, its member and its company by `company_id`. Every request runs it: a named
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
